// Auth's operator entry point (package export `@vulnscan/auth/admin`): its use cases on its own
// database, without RPC, for the operator CLI (`npm run admin`, scripts/admin.ts) and the demo
// seed of `npm start`. Callers get the domain and nothing of auth's storage.
import { ensureIndexes, Outbox, type KafkaBus, type Logger } from "@vulnscan/kit";
import type { Db } from "mongodb";
import { createAuthDomain } from "./domain/index.js";
import { argon2Hasher } from "./domain/passwords.js";
import { noopObserver } from "./domain/ports.js";
import { defaultSettings } from "./domain/settings.js";
import { authFields, authIndexes, mongoRepositories, outboxCollections } from "./storage/index.js";

export { isPlanTier } from "./domain/plans.js";
export type { CustomLimits, Limit, PlanLimits } from "./domain/types.js";
export { seedDemo } from "./seed.js";

/**
 * Auth's use cases on `db` (its indexes ensured). Events are stored with their changes; with
 * `kafka` they are also published right after each write, else the running service's relay
 * publishes them within seconds.
 */
export async function authAdmin(db: Db, opts: { kafka?: KafkaBus; logger: Logger }) {
  await ensureIndexes(db, authIndexes, { fields: authFields, logger: opts.logger });
  const repos = mongoRepositories(db, opts.kafka ? new Outbox(db, opts.kafka, opts.logger, outboxCollections) : undefined);
  return createAuthDomain({
    ...repos,
    hasher: argon2Hasher,
    settings: defaultSettings,
    observer: noopObserver,
    now: () => new Date(),
    keyRotationMs: 30 * 24 * 3600 * 1000,
  });
}
