import { Topics, pendingEvent, type PendingEvent } from "@vulnscan/kit";
import type { AuthEvent } from "../domain/types.js";

/**
 * Domain events of identity as envelopes for the outbox: topic vulnscan.auth.events, key =
 * the user id (one user's events stay in order), type = the spec's event kind.
 */
export function toPendingEvent(ev: AuthEvent): PendingEvent {
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
        ev.occurredAt,
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
        ev.occurredAt,
      );
  }
}
