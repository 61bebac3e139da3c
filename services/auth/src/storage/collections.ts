import { allowScan, mergeFieldTypes, outboxFieldTypes, outboxIndexes, type FieldTypes, type IndexSpec, type ScanAllowance } from "@vulnscan/kit";

/** Collections of the `auth` database. */
export const Collections = {
  organizations: "organizations",
  users: "users",
  sessions: "sessions",
  apiKeys: "api_keys",
  signingKeys: "signing_keys",
  loginAttempts: "login_attempts",
} as const;

/** Collections whose documents carry pending events (the outbox relay scans these). */
export const outboxCollections = [Collections.users, Collections.sessions, Collections.apiKeys, Collections.organizations];

export const authIndexes: IndexSpec[] = [
  { collection: Collections.organizations, key: { name: 1 }, options: { name: "name" } },
  // Emails are login names: unique across organizations.
  { collection: Collections.users, key: { email: 1 }, options: { name: "email_unique", unique: true } },
  { collection: Collections.users, key: { org_id: 1 }, options: { name: "org" } },
  ...outboxIndexes(Collections.users),
  // GetAuthState: disabled users (few) by equality.
  { collection: Collections.users, key: { disabled: 1 }, options: { name: "disabled" } },
  ...outboxIndexes(Collections.sessions),
  ...outboxIndexes(Collections.apiKeys),
  ...outboxIndexes(Collections.organizations),
  // GetAuthState: sessions revoked within a token lifetime, revoked keys (a range on revoked_at).
  { collection: Collections.sessions, key: { revoked_at: 1 }, options: { name: "revoked_at" } },
  { collection: Collections.apiKeys, key: { revoked_at: 1 }, options: { name: "revoked_at" } },
  // Ids sort by creation time, so this serves "the user's sessions, newest first".
  { collection: Collections.sessions, key: { org_id: 1, user_id: 1, _id: -1 }, options: { name: "org_user_newest" } },
  { collection: Collections.sessions, key: { expires_at: 1 }, options: { name: "expires_at" } },
  { collection: Collections.apiKeys, key: { key_hash: 1 }, options: { name: "key_hash_unique", unique: true } },
  { collection: Collections.apiKeys, key: { org_id: 1, _id: -1 }, options: { name: "org_newest" } },
  // One key per generation: replicas racing to create the next key get exactly one winner.
  { collection: Collections.signingKeys, key: { generation: 1 }, options: { name: "generation_unique", unique: true } },
  // Attempt counters (one per key and window, by `_id`): expiry for the housekeeping purge, key for reset.
  { collection: Collections.loginAttempts, key: { expires_at: 1 } },
  { collection: Collections.loginAttempts, key: { key: 1 } },
];

/**
 * The type class of every field the queries and indexes above use (field-types.ts), as the
 * repositories write them: ids are strings (`_id: org.id` …), times are Dates, `revoked_at`
 * is a Date or null, `disabled` is absent until first set, then a boolean.
 */
export const authFields: FieldTypes = mergeFieldTypes(
  {
    [Collections.organizations]: { _id: "string", name: "string" },
    [Collections.users]: {
      _id: "string",
      org_id: "string",
      email: "string",
      disabled: "bool",
      mfa_enabled: "bool",
      mfa_recovery_codes: "string[]",
      mfa_pending_secret: "string",
      mfa_last_step: "number",
    },
    [Collections.sessions]: { _id: "string", org_id: "string", user_id: "string", revoked_at: "date", expires_at: "date", token_id: "string" },
    [Collections.apiKeys]: { _id: "string", org_id: "string", key_hash: "string", revoked_at: "date", expires_at: "date" },
    [Collections.signingKeys]: { _id: "string", generation: "number" },
    [Collections.loginAttempts]: { _id: "string", key: "string", expires_at: "date" },
  },
  ...outboxCollections.map((c) => outboxFieldTypes(c)),
);

/** Queries that scan on purpose (the index-coverage test accepts exactly these). */
export const authScanAllowances: ScanAllowance[] = [
  allowScan(
    Collections.organizations,
    {},
    "total of the operators' organization listing (ListOrganizations): an admin call, not a customer request path, counting one document per customer",
  ),
];
