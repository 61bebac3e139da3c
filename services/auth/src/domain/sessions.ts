import { notFound } from "@vulnscan/kit/core";
import { sessionActive } from "./login.js";
import type { Clock, SessionRepository, UserRepository } from "./ports.js";
import { tokensValidUntil, type AuthSettings } from "./settings.js";
import type { Session, SessionRevokeReason } from "./types.js";

export interface SessionView extends Session {
  current: boolean;
}

export interface SessionCheck {
  active: boolean;
  userId: string;
  expiresAt?: Date;
}

/** A user's logins: list, revoke one or all, and the per-request revocation check. */
export class Sessions {
  constructor(private readonly d: { sessions: SessionRepository; users: UserRepository; settings: AuthSettings; now: Clock }) {}

  async list(orgId: string, userId: string, currentSessionId: string): Promise<SessionView[]> {
    if (!orgId || !userId) return [];
    const sessions = await this.d.sessions.listActive(orgId, userId, this.d.now());
    return sessions.map((s) => ({ ...s, current: s.id === currentSessionId }));
  }

  /**
   * Revokes one of the user's sessions. Revoking one that is already revoked succeeds again
   * (a retried DELETE must not fail); a session of another user or organization is NOT_FOUND,
   * exactly like one that does not exist.
   */
  async revoke(orgId: string, userId: string, sessionId: string): Promise<string> {
    if (!orgId || !userId || !sessionId) throw notFound("Session");
    if (await this.revokeOne(orgId, userId, sessionId, "revoked")) return sessionId;
    const existing = await this.d.sessions.get(orgId, sessionId);
    if (!existing || existing.userId !== userId) throw notFound("Session");
    return sessionId;
  }

  /**
   * One single-document write per session, each with its own auth.session_revoked event, so
   * every revocation is stored together with the event that tells the gateways (a crash half
   * way leaves each session either revoked-and-announced or untouched; a retry finishes).
   */
  async revokeAll(orgId: string, userId: string, reason: SessionRevokeReason = "logout_all"): Promise<number> {
    if (!orgId || !userId) return 0;
    const active = await this.d.sessions.listActive(orgId, userId, this.d.now());
    let n = 0;
    for (const s of active) if (await this.revokeOne(orgId, userId, s.id, reason)) n++;
    return n;
  }

  private revokeOne(orgId: string, userId: string, sessionId: string, reason: SessionRevokeReason): Promise<boolean> {
    const at = this.d.now();
    return this.d.sessions.revoke(orgId, userId, sessionId, at, {
      type: "auth.session_revoked",
      orgId,
      userId,
      sessionId,
      revokedAt: at,
      tokensValidUntil: tokensValidUntil(this.d.settings, at),
      reason,
      occurredAt: at,
    });
  }

  /**
   * Called for every bearer request, so the common case is one indexed read; last_used_at is
   * written at most once per touch interval instead of once per request.
   */
  async check(orgId: string, sessionId: string): Promise<SessionCheck> {
    if (!orgId || !sessionId) return { active: false, userId: "" };
    const now = this.d.now();
    const s = await this.d.sessions.get(orgId, sessionId);
    if (!s || !sessionActive(s, now)) return { active: false, userId: "" };
    const user = await this.d.users.get(orgId, s.userId);
    if (!user || user.disabledAt) return { active: false, userId: "" };
    if (now.getTime() - s.lastUsedAt.getTime() >= this.d.settings.touchIntervalMs) {
      await this.d.sessions.touch(s.id, now);
    }
    return { active: true, userId: s.userId, expiresAt: s.expiresAt };
  }
}
