import type { MessageInitShape } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import {
  PlanTier as ProtoTier,
  type ApiKeySchema,
  type LimitSchema,
  type OrganizationSchema,
  type PlanLimits as ProtoPlanLimits,
  type PlanSchema,
  type SessionSchema,
  type UserSchema,
} from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import type { OrganizationView } from "../domain/directory.js";
import type { SessionView } from "../domain/sessions.js";
import type { ApiKey, ClientInfo, CustomLimits, Limit, Plan, PlanTier, User } from "../domain/types.js";

/* proto ⇄ domain. Handlers only map and delegate; these are the maps. */

const TIER_TO_PROTO: Record<PlanTier, ProtoTier> = {
  startup: ProtoTier.STARTUP,
  professional: ProtoTier.PROFESSIONAL,
  enterprise: ProtoTier.ENTERPRISE,
};

export const tierToProto = (t: PlanTier): ProtoTier => TIER_TO_PROTO[t];

export function tierFromProto(t: ProtoTier): PlanTier | undefined {
  switch (t) {
    case ProtoTier.STARTUP:
      return "startup";
    case ProtoTier.PROFESSIONAL:
      return "professional";
    case ProtoTier.ENTERPRISE:
      return "enterprise";
    default:
      return undefined;
  }
}

export const ts = (d: Date | undefined): Timestamp | undefined => (d ? timestampFromDate(d) : undefined);
export const dateOf = (t: Timestamp | undefined): Date | undefined => (t ? timestampDate(t) : undefined);

const limit = (l: Limit): MessageInitShape<typeof LimitSchema> => ({ unlimited: l.unlimited, max: l.max });

export function planToProto(p: Plan): MessageInitShape<typeof PlanSchema> {
  const l = p.limits;
  return {
    tier: tierToProto(p.tier),
    limits: {
      requestsPerHour: limit(l.requestsPerHour),
      requestsPerDay: limit(l.requestsPerDay),
      concurrentScans: limit(l.concurrentScans),
      scansPerMonth: limit(l.scansPerMonth),
      webhooks: limit(l.webhooks),
      webhookEventsPerHour: limit(l.webhookEventsPerHour),
      aiCreditsPerMonth: limit(l.aiCreditsPerMonth),
      minCidrPrefixLength: l.minCidrPrefixLength,
    },
    apiKeysEnabled: p.apiKeysEnabled,
    schedulesEnabled: p.schedulesEnabled,
    webhooksEnabled: p.webhooksEnabled,
  };
}

/** Per-field overrides: an unset Limit (or a prefix length of 0) keeps the tier's value. */
export function customLimitsFromProto(l: ProtoPlanLimits | undefined): CustomLimits | undefined {
  if (!l) return undefined;
  const out: CustomLimits = {};
  const put = (k: Exclude<keyof CustomLimits, "minCidrPrefixLength">, v: { unlimited: boolean; max: number } | undefined) => {
    if (v) out[k] = { unlimited: v.unlimited, max: v.max };
  };
  put("requestsPerHour", l.requestsPerHour);
  put("requestsPerDay", l.requestsPerDay);
  put("concurrentScans", l.concurrentScans);
  put("scansPerMonth", l.scansPerMonth);
  put("webhooks", l.webhooks);
  put("webhookEventsPerHour", l.webhookEventsPerHour);
  put("aiCreditsPerMonth", l.aiCreditsPerMonth);
  if (l.minCidrPrefixLength !== 0) out.minCidrPrefixLength = l.minCidrPrefixLength;
  return out;
}

export function orgToProto(v: OrganizationView): MessageInitShape<typeof OrganizationSchema> {
  return { id: v.organization.id, name: v.organization.name, plan: planToProto(v.plan), createdAt: ts(v.organization.createdAt) };
}

export function userToProto(u: User): MessageInitShape<typeof UserSchema> {
  return {
    id: u.id,
    orgId: u.orgId,
    email: u.email,
    mfaEnabled: u.mfa.enabled,
    createdAt: ts(u.createdAt),
    lastLoginAt: ts(u.lastLoginAt),
    recoveryCodesRemaining: u.mfa.enabled ? (u.mfa.recoveryCodes?.length ?? 0) : 0,
  };
}

export function sessionToProto(s: SessionView): MessageInitShape<typeof SessionSchema> {
  return {
    id: s.id,
    userId: s.userId,
    createdAt: ts(s.createdAt),
    lastUsedAt: ts(s.lastUsedAt),
    expiresAt: ts(s.expiresAt),
    ip: s.ip,
    userAgent: s.userAgent,
    current: s.current,
  };
}

/** Never the value or its hash. */
export function apiKeyToProto(k: ApiKey): MessageInitShape<typeof ApiKeySchema> {
  return {
    id: k.id,
    name: k.name,
    permissions: [...k.permissions],
    createdAt: ts(k.createdAt),
    expiresAt: ts(k.expiresAt),
    lastUsedAt: ts(k.lastUsedAt),
    revoked: Boolean(k.revokedAt),
    prefix: k.prefix,
    createdByUserId: k.createdByUserId,
  };
}

/** What the gateway saw of the client, bounded so a hostile header cannot bloat a document. */
export const clientInfo = (ip: string, userAgent: string): ClientInfo => ({
  ip: ip.slice(0, 64),
  userAgent: userAgent.slice(0, 512),
});
