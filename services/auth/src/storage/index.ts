import type { Outbox } from "@vulnscan/kit";
import type { Db } from "mongodb";
import { MongoApiKeyRepository } from "./api-keys.js";
import { MongoAttemptCounter } from "./attempts.js";
import { MongoOrganizationRepository } from "./organizations.js";
import { MongoSessionRepository } from "./sessions.js";
import { MongoSigningKeyRepository } from "./signing-keys.js";
import { MongoUserRepository } from "./users.js";

export { authFields, authIndexes, authScanAllowances, Collections, outboxCollections } from "./collections.js";

/** Every repository of the auth database. Without an outbox, events wait for the service's relay. */
export function mongoRepositories(db: Db, outbox?: Outbox) {
  return {
    orgs: new MongoOrganizationRepository(db, outbox),
    users: new MongoUserRepository(db, outbox),
    sessions: new MongoSessionRepository(db, outbox),
    apiKeys: new MongoApiKeyRepository(db, outbox),
    signingKeys: new MongoSigningKeyRepository(db),
    attempts: new MongoAttemptCounter(db),
  };
}
