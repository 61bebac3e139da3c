// Unit-test wiring: the domain on in-memory repositories with a clock the test moves.
import { createAuthDomain } from "./domain/index.js";
import type { PasswordHasher } from "./domain/passwords.js";
import type { AuthObserver } from "./domain/ports.js";
import { defaultSettings, type AuthSettings } from "./domain/settings.js";
import type { AuthEvent, PlanTier } from "./domain/types.js";
import { MemoryApiKeys, MemoryAttempts, MemoryOrganizations, MemorySessions, MemorySigningKeys, MemoryUsers } from "./testing/memory.js";

/** Fast and obviously fake: unit tests of the flows do not need argon2's cost. */
export const plainHasher: PasswordHasher = {
  hash: async (p) => `plain:${p}`,
  verify: async (h, p) => h === `plain:${p}`,
};

export function testAuth(opts: { settings?: Partial<AuthSettings>; keyRotationMs?: number; start?: Date } = {}) {
  let now = opts.start ?? new Date("2026-03-01T12:00:00.000Z");
  const observed: string[] = [];
  const observer: AuthObserver = {
    login: (o) => observed.push(`login:${o}`),
    tokenIssued: (k) => observed.push(`token:${k}`),
    apiKeyVerified: (o) => observed.push(`apikey:${o}`),
  };
  // One list for every repository: the events in the order the writes stored them.
  const events: AuthEvent[] = [];
  const repos = {
    orgs: new MemoryOrganizations(events),
    users: new MemoryUsers(events),
    sessions: new MemorySessions(events),
    apiKeys: new MemoryApiKeys(events),
    signingKeys: new MemorySigningKeys(),
    attempts: new MemoryAttempts(),
  };
  const settings = { ...defaultSettings, ...opts.settings };
  const domain = createAuthDomain({
    ...repos,
    hasher: plainHasher,
    settings,
    observer,
    now: () => new Date(now),
    keyRotationMs: opts.keyRotationMs ?? 30 * 24 * 3600 * 1000,
  });
  return {
    ...domain,
    repos,
    events,
    settings,
    observed,
    now: () => new Date(now),
    advance(ms: number) {
      now = new Date(now.getTime() + ms);
    },
    async orgWithUser(tier: PlanTier = "professional", email = `u${Math.random().toString(36).slice(2, 8)}@example.com`) {
      const org = (await domain.directory.createOrganization(`Org ${email}`, tier)).organization;
      const password = "correct horse battery";
      const user = await domain.directory.createUser(org.id, email, password);
      return { org, user, password };
    },
  };
}

export const client = { ip: "203.0.113.7", userAgent: "vitest" };
