import { notFound } from "@vulnscan/kit/core";
import type { Clock, UserRepository } from "./ports.js";
import type { Sessions } from "./sessions.js";

export interface DisableResult {
  disabled: boolean;
  revokedSessions: number;
}

/** Operator control over a user's access: disable (and end every session) or enable again. */
export class Accounts {
  constructor(private readonly d: { users: UserRepository; sessions: Sessions; now: Clock }) {}

  /**
   * Disabling stores disabled_at with auth.user_disabled in one write, then revokes every
   * session (one event each). Gateways refuse the user's tokens from the first event on, so
   * a crash between the two steps admits nothing; a retry (idempotent) revokes what is left.
   * Enabling does not bring sessions back: the user logs in again.
   */
  async setDisabled(orgId: string, userId: string, disabled: boolean): Promise<DisableResult> {
    const user = orgId && userId ? await this.d.users.get(orgId, userId) : null;
    if (!user) throw notFound("User");
    const at = this.d.now();
    const outcome = await this.d.users.setDisabled(orgId, userId, disabled ? at : null, {
      type: disabled ? "auth.user_disabled" : "auth.user_enabled",
      orgId,
      userId,
      occurredAt: at,
    });
    if (outcome === "not_found") throw notFound("User");
    const revokedSessions = disabled ? await this.d.sessions.revokeAll(orgId, userId, "user_disabled") : 0;
    return { disabled, revokedSessions };
  }
}
