import {
  EmailTakenError,
  type ApiKeyRepository,
  type AttemptCounter,
  type OrganizationRepository,
  type SessionRepository,
  type SigningKeyRepository,
  type UserRepository,
} from "../domain/ports.js";
import type { ApiKey, AuthEvent, CustomLimits, Organization, PlanTier, Session, SigningKey, User } from "../domain/types.js";

/*
 * In-memory repositories for unit tests only. They keep the same conditional semantics as
 * the Mongo ones (conditions checked and applied in one step), so domain tests mean something.
 */

const clone = <T>(v: T): T => structuredClone(v);

/** Rows by id, handed out as copies so a caller cannot change what is stored. */
class Rows<T extends { id: string }> extends Map<string, T> {
  copyOf(id: string): T | null {
    const row = this.get(id);
    return row ? clone(row) : null;
  }
  /** The row, when it belongs to `orgId` (another organization's id reads as missing). */
  inOrg<R extends T & { orgId: string }>(this: Rows<R>, orgId: string, id: string): R | null {
    const row = this.get(id);
    return row && row.orgId === orgId ? clone(row) : null;
  }
  findCopy(match: (row: T) => boolean): T | null {
    const row = [...this.values()].find(match);
    return row ? clone(row) : null;
  }
}

export class MemoryOrganizations implements OrganizationRepository {
  readonly rows = new Rows<Organization>();
  constructor(readonly events: AuthEvent[] = []) {}
  async insert(org: Organization) {
    this.rows.set(org.id, clone(org));
  }
  async get(id: string) {
    return this.rows.copyOf(id);
  }
  async findByName(name: string) {
    return [...this.rows.values()].filter((o) => o.name === name).map(clone);
  }
  async setPlan(id: string, tier: PlanTier, customLimits: CustomLimits | undefined, event: AuthEvent) {
    const o = this.rows.get(id);
    if (!o) return null;
    this.events.push(clone(event));
    o.tier = tier;
    if (customLimits) o.customLimits = clone(customLimits);
    else delete o.customLimits;
    return clone(o);
  }
  async list(page: number, perPage: number) {
    const all = [...this.rows.values()].sort((a, b) => a.id.localeCompare(b.id));
    return { items: all.slice((page - 1) * perPage, page * perPage).map(clone), total: all.length };
  }
}

export class MemoryUsers implements UserRepository {
  readonly rows = new Rows<User>();
  constructor(readonly events: AuthEvent[] = []) {}
  async insert(user: User) {
    if ([...this.rows.values()].some((u) => u.email === user.email)) throw new EmailTakenError(user.email);
    this.rows.set(user.id, clone(user));
  }
  async findByEmail(email: string) {
    return this.rows.findCopy((x) => x.email === email);
  }
  async get(orgId: string, userId: string) {
    return this.rows.inOrg(orgId, userId);
  }
  async recordEvent(_userId: string, event: AuthEvent) {
    this.events.push(clone(event));
  }
  async recordLogin(userId: string, at: Date) {
    const u = this.rows.get(userId);
    if (u) u.lastLoginAt = at;
  }
  async setPassword(userId: string, hash: string) {
    const u = this.rows.get(userId);
    if (u) u.passwordHash = hash;
  }
  async setPendingMfa(orgId: string, userId: string, secret: string) {
    const u = this.rows.get(userId);
    if (!u || u.orgId !== orgId || u.mfa.enabled) return false;
    u.mfa.pendingSecret = secret;
    return true;
  }
  async enableMfa(orgId: string, userId: string, secret: string, step: number, recoveryHashes: string[]) {
    const u = this.rows.get(userId);
    if (!u || u.orgId !== orgId || u.mfa.enabled || u.mfa.pendingSecret !== secret || u.mfa.lastUsedStep >= step) return false;
    u.mfa = { enabled: true, secret, lastUsedStep: step, recoveryCodes: [...recoveryHashes] };
    return true;
  }
  async consumeRecoveryCode(userId: string, hash: string) {
    const u = this.rows.get(userId);
    if (!u?.mfa.enabled || !u.mfa.recoveryCodes?.includes(hash)) return false;
    u.mfa.recoveryCodes = u.mfa.recoveryCodes.filter((h) => h !== hash);
    return true;
  }
  async replaceRecoveryCodes(orgId: string, userId: string, proof: { step: number } | { recoveryHash: string }, hashes: string[]) {
    const u = this.rows.get(userId);
    if (!u || u.orgId !== orgId || !u.mfa.enabled) return false;
    if ("step" in proof ? u.mfa.lastUsedStep >= proof.step : !u.mfa.recoveryCodes?.includes(proof.recoveryHash)) return false;
    if ("step" in proof) u.mfa.lastUsedStep = proof.step;
    u.mfa.recoveryCodes = [...hashes];
    return true;
  }
  async consumeMfaStep(userId: string, step: number) {
    const u = this.rows.get(userId);
    if (!u || u.mfa.lastUsedStep >= step) return false;
    u.mfa.lastUsedStep = step;
    return true;
  }
  async setDisabled(orgId: string, userId: string, disabledAt: Date | null, event: AuthEvent) {
    const u = this.rows.get(userId);
    if (!u || u.orgId !== orgId) return "not_found" as const;
    if (Boolean(u.disabledAt) === (disabledAt !== null)) return "unchanged" as const;
    if (disabledAt) u.disabledAt = disabledAt;
    else delete u.disabledAt;
    this.events.push(clone(event));
    return "changed" as const;
  }
  async listDisabled() {
    return [...this.rows.values()].filter((u) => u.disabledAt).map((u) => ({ userId: u.id, orgId: u.orgId }));
  }
  async disableMfa(orgId: string, userId: string, step: number | null, event: AuthEvent, recoveryHash?: string) {
    const u = this.rows.get(userId);
    if (!u || u.orgId !== orgId || !u.mfa.enabled) return false;
    if (step !== null && u.mfa.lastUsedStep >= step) return false;
    if (recoveryHash && !u.mfa.recoveryCodes?.includes(recoveryHash)) return false;
    u.mfa = { enabled: false, lastUsedStep: step ?? u.mfa.lastUsedStep };
    this.events.push(clone(event));
    return true;
  }
}

export class MemorySessions implements SessionRepository {
  readonly rows = new Rows<Session>();
  constructor(readonly events: AuthEvent[] = []) {}
  async insert(s: Session) {
    this.rows.set(s.id, clone(s));
  }
  async get(orgId: string, id: string) {
    return this.rows.inOrg(orgId, id);
  }
  async listActive(orgId: string, userId: string, now: Date) {
    return [...this.rows.values()]
      .filter((s) => s.orgId === orgId && s.userId === userId && !s.revokedAt && s.expiresAt > now)
      .sort((a, b) => b.id.localeCompare(a.id))
      .map(clone);
  }
  async revoke(orgId: string, userId: string, id: string, at: Date, event: AuthEvent) {
    const s = this.rows.get(id);
    if (!s || s.orgId !== orgId || s.userId !== userId || s.revokedAt) return false;
    s.revokedAt = at;
    this.events.push(clone(event));
    return true;
  }
  async revokedSince(since: Date) {
    return [...this.rows.values()].filter((s) => s.revokedAt && s.revokedAt > since).map(clone);
  }
  async touch(id: string, at: Date, expiresAt?: Date, rotate?: { from: string | undefined; to: string }) {
    const s = this.rows.get(id);
    if (!s || s.revokedAt || s.expiresAt <= at) return false;
    if (rotate && s.tokenId !== rotate.from) return false;
    s.lastUsedAt = at;
    if (expiresAt) s.expiresAt = expiresAt;
    if (rotate) Object.assign(s, { tokenId: rotate.to, previousTokenId: rotate.from, rotatedAt: at });
    return true;
  }
}

export class MemoryApiKeys implements ApiKeyRepository {
  readonly rows = new Rows<ApiKey>();
  constructor(readonly events: AuthEvent[] = []) {}
  touches = 0;
  async insert(k: ApiKey) {
    this.rows.set(k.id, clone(k));
  }
  async findByHash(hash: string) {
    return this.rows.findCopy((x) => x.keyHash === hash);
  }
  async get(orgId: string, id: string) {
    return this.rows.inOrg(orgId, id);
  }
  async list(orgId: string) {
    return [...this.rows.values()]
      .filter((k) => k.orgId === orgId)
      .sort((a, b) => b.id.localeCompare(a.id))
      .map(clone);
  }
  async countActive(orgId: string, now: Date) {
    return [...this.rows.values()].filter((k) => k.orgId === orgId && !k.revokedAt && k.expiresAt > now).length;
  }
  async revoke(orgId: string, id: string, at: Date, event: AuthEvent) {
    const k = this.rows.get(id);
    if (!k || k.orgId !== orgId || k.revokedAt) return false;
    k.revokedAt = at;
    this.events.push(clone(event));
    return true;
  }
  async revokedUnexpired(now: Date) {
    return [...this.rows.values()].filter((k) => k.revokedAt && k.expiresAt > now).map(clone);
  }
  async touch(id: string, at: Date) {
    const k = this.rows.get(id);
    if (k) k.lastUsedAt = at;
    this.touches++;
  }
}

export class MemorySigningKeys implements SigningKeyRepository {
  readonly rows: SigningKey[] = [];
  async latest() {
    return [...this.rows].sort((a, b) => b.generation - a.generation)[0] ?? null;
  }
  async insert(k: SigningKey) {
    if (this.rows.some((r) => r.generation === k.generation || r.kid === k.kid)) return false;
    this.rows.push(k);
    return true;
  }
  async all() {
    return [...this.rows].sort((a, b) => b.generation - a.generation);
  }
  async get(kid: string) {
    return this.rows.find((r) => r.kid === kid) ?? null;
  }
  async deleteOlderThan(generation: number) {
    for (let i = this.rows.length - 1; i >= 0; i--) if (this.rows[i]!.generation < generation) this.rows.splice(i, 1);
  }
}

export class MemoryAttempts implements AttemptCounter {
  readonly rows = new Map<string, { count: number; start: number }>();
  async hit(key: string, now: Date, windowMs: number) {
    const start = Math.floor(now.getTime() / windowMs) * windowMs;
    const r = this.rows.get(key);
    const count = r && r.start === start ? r.count + 1 : 1;
    this.rows.set(key, { count, start });
    return { count, resetsAt: new Date(start + windowMs) };
  }
  async unhit(key: string, now: Date, windowMs: number) {
    const r = this.rows.get(key);
    if (r && r.start === Math.floor(now.getTime() / windowMs) * windowMs && r.count > 0) r.count--;
  }
  async reset(key: string) {
    this.rows.delete(key);
  }
  async resetPrefix(prefix: string) {
    for (const key of this.rows.keys()) if (key.startsWith(prefix)) this.rows.delete(key);
  }
}
