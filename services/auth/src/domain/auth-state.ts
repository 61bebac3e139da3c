import type { ApiKeyRepository, Clock, SessionRepository, UserRepository } from "./ports.js";
import { CLOCK_SKEW_MARGIN_MS, tokensValidUntil, type AuthSettings } from "./settings.js";
import type { AuthState } from "./types.js";

/**
 * The snapshot a gateway loads before following vulnscan.auth.events: only what can still
 * refuse a request. A session revoked longer ago than a token lives (plus skew) has no valid
 * token left; an expired key is refused by its own expiry. Each list comes from an index
 * (revoked_at for sessions and keys, disabled for users), never a collection scan.
 */
export class AuthStateReader {
  constructor(
    private readonly d: {
      sessions: SessionRepository;
      apiKeys: ApiKeyRepository;
      users: UserRepository;
      settings: AuthSettings;
      now: Clock;
    },
  ) {}

  async read(): Promise<AuthState> {
    // Taken before the reads: every change stored before this instant is in the answer.
    const asOf = this.d.now();
    const since = new Date(asOf.getTime() - this.d.settings.tokenTtlSeconds * 1000 - CLOCK_SKEW_MARGIN_MS);
    const [sessions, keys, users] = await Promise.all([
      this.d.sessions.revokedSince(since),
      this.d.apiKeys.revokedUnexpired(asOf),
      this.d.users.listDisabled(),
    ]);
    return {
      asOf,
      revokedSessions: sessions.map((s) => ({
        sessionId: s.id,
        userId: s.userId,
        orgId: s.orgId,
        tokensValidUntil: tokensValidUntil(this.d.settings, s.revokedAt ?? asOf),
      })),
      revokedApiKeys: keys.map((k) => ({ apiKeyId: k.id, orgId: k.orgId, expiresAt: k.expiresAt })),
      disabledUsers: users,
    };
  }
}
