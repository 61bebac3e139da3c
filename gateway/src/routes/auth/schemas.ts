import { PERMISSIONS } from "../../auth/principal.js";
import { bearerSecurity, errorResponses, timestamp, idParams, operation, paidPlansOnly, input } from "../../schemas.js";

/** The auth routes' schemas: what ajv validates, what the handlers' types derive from, what OpenAPI shows. */

const authOp = operation({ tags: ["auth"], security: bearerSecurity });
const keyOp = operation({ tags: ["api-keys"], security: bearerSecurity });

const tokenResponse = {
  type: "object",
  required: ["access_token", "token_type", "expires_in"],
  properties: {
    access_token: { type: "string", description: "JWT (ES256); send as `Authorization: Bearer <token>`" },
    token_type: { type: "string", enum: ["bearer"] },
    expires_in: { type: "integer", description: "Seconds until expiry (3600)" },
  },
} as const;

const sessionSchema = {
  type: "object",
  required: ["id", "created_at", "last_used_at", "expires_at", "ip", "user_agent", "current"],
  properties: {
    id: { type: "string", description: "`session_<id>`" },
    created_at: timestamp,
    last_used_at: timestamp,
    expires_at: timestamp,
    ip: { type: "string" },
    user_agent: { type: "string" },
    current: { type: "boolean", description: "true for the session of the token making this request" },
  },
} as const;

const apiKeySchema = {
  type: "object",
  required: ["id", "name", "permissions", "created_at", "revoked", "prefix"],
  properties: {
    id: { type: "string", description: "`apikey_<id>`" },
    name: { type: "string" },
    prefix: { type: "string", description: "First characters of the key, to recognise it" },
    permissions: { type: "array", items: { type: "string", enum: [...PERMISSIONS] } },
    created_at: timestamp,
    expires_at: { type: ["string", "null"], format: "date-time" },
    last_used_at: { type: ["string", "null"], format: "date-time" },
    revoked: { type: "boolean" },
  },
} as const;

/** `{items, total}` of a list that is never paged. */
const listOf = (item: object) =>
  ({ type: "object", required: ["items", "total"], properties: { items: { type: "array", items: item }, total: { type: "integer" } } }) as const;

export const issueToken = authOp("Obtain an access token", {
  description:
    "OAuth2 password flow: form-urlencoded `username` (email) and `password`, plus `mfa_code` when MFA is on — the authenticator's 6-digit code, or one of the account's recovery codes (each works once). The token lasts one hour (`expires_in`); refresh it before then with `POST /api/v1/auth/refresh`.",
  // Public, like the health check: the document says so instead of inheriting the global bearer/key requirement.
  security: [],
  consumes: ["application/x-www-form-urlencoded"],
  body: input(
    {
      username: { type: "string", minLength: 1, maxLength: 320 },
      password: { type: "string", minLength: 1, maxLength: 1024 },
      mfa_code: { type: "string", maxLength: 32, description: "6-digit TOTP code, or an unused recovery code (`xxxx-xxxx-xxxx-xxxx`)" },
      // Standard OAuth2 password-flow clients send these; accepted and ignored.
      grant_type: { type: "string", enum: ["password"] },
      scope: { type: "string" },
      client_id: { type: "string" },
      client_secret: { type: "string" },
    },
    { required: ["username", "password"], examples: [{ username: "alice@acme.example", password: "correct horse battery staple" }] },
  ),
  response: {
    200: tokenResponse,
    ...errorResponses(422, "INVALID_CREDENTIALS", "MFA_REQUIRED", "INVALID_MFA_CODE", "TOO_MANY_ATTEMPTS"),
  },
});

export const refreshToken = authOp("Refresh the access token (same session)", {
  description:
    "Send the current, still valid token; the answer is a new one-hour token of the same session. An expired token answers 401 TOKEN_EXPIRED: sign in again.",
  response: { 200: tokenResponse, ...errorResponses(403) },
});

export const listSessions = authOp("List your active sessions", {
  description: "Every signed-in browser or client of your account that has not been revoked or expired; `current` marks the one making this request.",
  response: { 200: listOf(sessionSchema), ...errorResponses(403) },
});

export const revokeSession = authOp("Revoke one of your sessions", {
  description: "Its tokens stop working at once, on every gateway. Revoking the current session signs this client out.",
  params: idParams("session_id"),
  response: {
    200: {
      type: "object",
      required: ["id", "status", "message"],
      properties: { id: { type: "string" }, status: { type: "string", enum: ["revoked"] }, message: { type: "string" } },
    },
    ...errorResponses(403, 404),
  },
});

export const logoutAll = authOp("Revoke all your sessions (including this one)", {
  description: "Signs your account out everywhere, this client included; API keys are not affected.",
  response: {
    200: { type: "object", required: ["revoked", "message"], properties: { revoked: { type: "integer" }, message: { type: "string" } } },
    ...errorResponses(403),
  },
});

export const setupMfa = authOp("Start MFA enrolment (TOTP)", {
  description:
    "Answers a new TOTP secret (RFC 6238: SHA-1, 6 digits, 30 s) and its `otpauth://` URI for a QR code. MFA is not on until `POST /api/v1/auth/mfa/enable` confirms a code from it. MFA already on: 400 INVALID_STATE.",
  response: {
    200: {
      type: "object",
      required: ["secret", "otpauth_uri"],
      properties: { secret: { type: "string", description: "Base32 TOTP secret" }, otpauth_uri: { type: "string" } },
    },
    ...errorResponses(403, "INVALID_STATE"),
  },
});

/** MFA on or off: both take a current TOTP code and answer the new state. */
const mfaSwitch = (summary: string, description: string) =>
  authOp(summary, {
    description,
    body: input({ code: { type: "string", pattern: "^[0-9]{6}$", description: "Current 6-digit TOTP code" } }, { required: ["code"] }),
    response: {
      200: { type: "object", required: ["mfa_enabled"], properties: { mfa_enabled: { type: "boolean" } } },
      ...errorResponses(403, 422, "INVALID_STATE", "TOO_MANY_ATTEMPTS"),
    },
  });

export const enableMfa = mfaSwitch(
  "Confirm a TOTP code and turn MFA on",
  "Confirms a current code of the secret from `POST /api/v1/auth/mfa/setup`; from then on signing in needs `mfa_code`. No setup first, or MFA already on: 400 INVALID_STATE; a wrong or reused code: 422 on `code`.",
);
export const disableMfa = mfaSwitch(
  "Turn MFA off (needs a current code)",
  "Needs a current code that has not been used before, so a stolen token alone cannot turn MFA off. Emits user.mfa_disabled. MFA not on: 400 INVALID_STATE.",
);

export const createApiKey = keyOp("Create an API key (Professional and Enterprise)", {
  ...paidPlansOnly,
  description:
    "The key value (`key`) is in this response only; store it now. Without `expires_at` the key expires after the server's default (90 days in the shipped configuration); at most 2 years.",
  body: input(
    {
      name: { type: "string", minLength: 1, maxLength: 100 },
      permissions: { type: "array", minItems: 1, uniqueItems: true, items: { type: "string", enum: [...PERMISSIONS] } },
      expires_at: { ...timestamp, description: "Optional expiry, in the future" },
    },
    {
      required: ["name", "permissions"],
      examples: [{ name: "CI pipeline", permissions: ["read:scans", "write:scans", "read:findings"], expires_at: "2027-06-30T00:00:00Z" }],
    },
  ),
  response: {
    201: { ...apiKeySchema, required: [...apiKeySchema.required, "key"], properties: { ...apiKeySchema.properties, key: { type: "string" } } },
    ...errorResponses(403, 422, "API_KEY_LIMIT_EXCEEDED"),
  },
});

export const listApiKeys = keyOp("List the organization's API keys (never their values)", {
  description: "Every key of your organization, revoked and expired ones included, with its prefix to recognise it and when it was last used.",
  response: { 200: listOf(apiKeySchema), ...errorResponses(403) },
});

export const revokeApiKey = keyOp("Revoke an API key", {
  description: "The key stops working at once, on every gateway; the answer is the key as it is now (`revoked: true`).",
  params: idParams("api_key_id"),
  response: { 200: apiKeySchema, ...errorResponses(403, 404) },
});
