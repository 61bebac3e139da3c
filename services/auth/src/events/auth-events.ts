import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Topics, pendingEvent, type EnvelopeInit, type PendingEvent } from "@vulnscan/kit";
import type { AuthEvent } from "../domain/types.js";
import { planToProto } from "../rpc/mappers.js";

/**
 * Domain events of identity as envelopes for the outbox: topic vulnscan.auth.events. The key
 * is the entity the event is about (user, API key or organization), so one entity's events
 * stay in order. `user.*` types are the spec's kinds; `auth.*` are internal (gateways).
 */
export function toPendingEvent(ev: AuthEvent): PendingEvent {
  const [key, payload] = keyAndPayload(ev);
  return pendingEvent(Topics.authEvents, key, { type: ev.type, orgId: ev.orgId, payload }, ev.occurredAt);
}

/** The partition key and the envelope payload of one event. */
function keyAndPayload(ev: AuthEvent): [string, EnvelopeInit["payload"]] {
  switch (ev.type) {
    case "user.login_failed": {
      const { email, ip, userAgent, reason } = ev;
      return [ev.userId, { case: "userLoginFailed", value: { email, ip, userAgent, reason } }];
    }
    case "user.mfa_disabled": {
      const { userId, email, ip, userAgent } = ev;
      return [ev.userId, { case: "userMfaDisabled", value: { userId, email, ip, userAgent } }];
    }
    case "auth.session_revoked": {
      const value = {
        sessionId: ev.sessionId,
        userId: ev.userId,
        revokedAt: timestampFromDate(ev.revokedAt),
        tokensValidUntil: timestampFromDate(ev.tokensValidUntil),
        reason: ev.reason,
      };
      return [ev.userId, { case: "authSessionRevoked", value }];
    }
    case "auth.api_key_revoked": {
      const value = { apiKeyId: ev.apiKeyId, expiresAt: timestampFromDate(ev.expiresAt) };
      return [ev.apiKeyId, { case: "authApiKeyRevoked", value }];
    }
    case "auth.user_disabled":
      return [ev.userId, { case: "authUserDisabled", value: { userId: ev.userId } }];
    case "auth.user_enabled":
      return [ev.userId, { case: "authUserEnabled", value: { userId: ev.userId } }];
    case "auth.plan_changed":
      return [ev.orgId, { case: "authPlanChanged", value: { plan: planToProto(ev.plan) } }];
  }
}
