import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Topics, pendingEvent, type PendingEvent } from "@vulnscan/kit";
import type { AuthEvent } from "../domain/types.js";
import { planToProto } from "../rpc/mappers.js";

/**
 * Domain events of identity as envelopes for the outbox: topic vulnscan.auth.events. The key
 * is the entity the event is about (user, API key or organization), so one entity's events
 * stay in order. `user.*` types are the spec's kinds; `auth.*` are internal (gateways).
 */
export function toPendingEvent(ev: AuthEvent): PendingEvent {
  const at = ev.occurredAt;
  switch (ev.type) {
    case "user.login_failed":
      return pendingEvent(
        Topics.authEvents,
        ev.userId,
        {
          type: ev.type,
          orgId: ev.orgId,
          payload: {
            case: "userLoginFailed",
            value: { email: ev.email, ip: ev.ip, userAgent: ev.userAgent, reason: ev.reason },
          },
        },
        at,
      );
    case "user.mfa_disabled":
      return pendingEvent(
        Topics.authEvents,
        ev.userId,
        {
          type: ev.type,
          orgId: ev.orgId,
          payload: {
            case: "userMfaDisabled",
            value: { userId: ev.userId, email: ev.email, ip: ev.ip, userAgent: ev.userAgent },
          },
        },
        at,
      );
    case "auth.session_revoked":
      return pendingEvent(
        Topics.authEvents,
        ev.userId,
        {
          type: ev.type,
          orgId: ev.orgId,
          payload: {
            case: "authSessionRevoked",
            value: {
              sessionId: ev.sessionId,
              userId: ev.userId,
              revokedAt: timestampFromDate(ev.revokedAt),
              tokensValidUntil: timestampFromDate(ev.tokensValidUntil),
              reason: ev.reason,
            },
          },
        },
        at,
      );
    case "auth.api_key_revoked":
      return pendingEvent(
        Topics.authEvents,
        ev.apiKeyId,
        {
          type: ev.type,
          orgId: ev.orgId,
          payload: { case: "authApiKeyRevoked", value: { apiKeyId: ev.apiKeyId, expiresAt: timestampFromDate(ev.expiresAt) } },
        },
        at,
      );
    case "auth.user_disabled":
      return pendingEvent(
        Topics.authEvents,
        ev.userId,
        { type: ev.type, orgId: ev.orgId, payload: { case: "authUserDisabled", value: { userId: ev.userId } } },
        at,
      );
    case "auth.user_enabled":
      return pendingEvent(
        Topics.authEvents,
        ev.userId,
        { type: ev.type, orgId: ev.orgId, payload: { case: "authUserEnabled", value: { userId: ev.userId } } },
        at,
      );
    case "auth.plan_changed":
      return pendingEvent(
        Topics.authEvents,
        ev.orgId,
        { type: ev.type, orgId: ev.orgId, payload: { case: "authPlanChanged", value: { plan: planToProto(ev.plan) } } },
        at,
      );
  }
}
