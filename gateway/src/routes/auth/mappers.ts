import { enumName } from "@vulnscan/kit";
import { type ApiKey, type GetAccountResponse, type IssueTokenResponse, PlanTier, type Session } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import type { FastifyRequest } from "fastify";
import { iso } from "../../schemas.js";

/** proto → JSON for the auth routes, and the caller's address and agent for auth's session records. */

export const tokenJson = (res: Pick<IssueTokenResponse, "accessToken" | "expiresIn">) => ({
  access_token: res.accessToken,
  token_type: "bearer",
  expires_in: res.expiresIn,
});

export function sessionJson(s: Session) {
  return {
    id: s.id,
    created_at: iso(s.createdAt),
    last_used_at: iso(s.lastUsedAt),
    expires_at: iso(s.expiresAt),
    ip: s.ip,
    user_agent: s.userAgent,
    current: s.current,
  };
}

export function apiKeyJson(k: ApiKey) {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    permissions: k.permissions,
    created_at: iso(k.createdAt),
    expires_at: iso(k.expiresAt) ?? null,
    last_used_at: iso(k.lastUsedAt) ?? null,
    revoked: k.revoked,
  };
}

/** GET /api/v1/auth/me: the user, their MFA state and their organization with its plan. */
export function accountJson(res: GetAccountResponse) {
  const u = res.user;
  const o = res.organization;
  return {
    id: u?.id ?? "",
    email: u?.email ?? "",
    mfa_enabled: u?.mfaEnabled ?? false,
    recovery_codes_remaining: u?.recoveryCodesRemaining ?? 0,
    created_at: iso(u?.createdAt) ?? new Date(0).toISOString(),
    last_login_at: iso(u?.lastLoginAt) ?? null,
    organization: { id: o?.id ?? "", name: o?.name ?? "", plan: enumName(PlanTier, o?.plan?.tier ?? PlanTier.UNSPECIFIED) },
  };
}

export const client = (req: FastifyRequest) => ({ ip: req.ip, userAgent: String(req.headers["user-agent"] ?? "").slice(0, 512) });
