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

const totpCode = { type: "string", pattern: "^[0-9]{6}$", description: "Current 6-digit TOTP code" } as const;
/** A TOTP code, or a recovery code (any case; dashes and spaces ignored). */
const mfaCode = {
  type: "string",
  minLength: 6,
  maxLength: 32,
  description: "A current 6-digit TOTP code, or one of your unused recovery codes (`xxxx-xxxx-xxxx-xxxx`)",
} as const;
const recoveryCodes = {
  type: "array",
  items: { type: "string" },
  description: "Recovery codes, shown in this response only: each signs in once instead of a TOTP code. Store them somewhere safe.",
} as const;
const SAMPLE_CODES = [
  "k7q2-m9xd-4tfp-w3ha",
  "p2vn-x6ce-r5ub-7jqs",
  "d3hw-y4nk-q7ra-m2fe",
  "t6bz-c2xu-h5pn-w4dq",
  "a5mr-j3yf-v7kc-e2np",
  "x2gq-w6ts-b4fe-n3hk",
  "r7cy-d5pa-m2zv-k6uj",
  "f4nx-t3hq-w7eb-y2md",
  "s6kd-q2rc-x5wf-h3ap",
  "u3ev-n7mb-z4ty-c6gx",
];

export const enableMfa = authOp("Confirm a TOTP code and turn MFA on", {
  description:
    "Confirms a current code of the secret from `POST /api/v1/auth/mfa/setup`; from then on signing in needs `mfa_code`. The answer carries 10 recovery codes, once: each can stand in for a TOTP code (sign-in, turning MFA off, new recovery codes) one time; only their hashes are kept. No setup first, or MFA already on: 400 INVALID_STATE; a wrong or reused code: 422 on `code`.",
  body: input({ code: totpCode }, { required: ["code"], examples: [{ code: "123456" }] }),
  response: {
    200: {
      type: "object",
      required: ["mfa_enabled", "recovery_codes"],
      properties: { mfa_enabled: { type: "boolean" }, recovery_codes: recoveryCodes },
      examples: [{ mfa_enabled: true, recovery_codes: SAMPLE_CODES }],
    },
    ...errorResponses(403, 422, "INVALID_STATE", "TOO_MANY_ATTEMPTS"),
  },
});

export const disableMfa = authOp("Turn MFA off (needs a current code)", {
  description:
    "Needs a current TOTP code that has not been used before, or an unused recovery code (for whoever lost the authenticator), so a stolen token alone cannot turn MFA off. The recovery codes are deleted. Emits user.mfa_disabled. MFA not on: 400 INVALID_STATE.",
  body: input({ code: mfaCode }, { required: ["code"], examples: [{ code: "123456" }] }),
  response: {
    200: { type: "object", required: ["mfa_enabled"], properties: { mfa_enabled: { type: "boolean" } }, examples: [{ mfa_enabled: false }] },
    ...errorResponses(403, 422, "INVALID_STATE", "TOO_MANY_ATTEMPTS"),
  },
});

export const regenerateRecoveryCodes = authOp("Replace your MFA recovery codes", {
  description:
    "Makes 10 new recovery codes (in this response only) after a current TOTP code or an unused recovery code; every earlier code stops working. MFA not on: 400 INVALID_STATE; a wrong or used code: 422 on `code`.",
  body: input({ code: mfaCode }, { required: ["code"], examples: [{ code: "123456" }] }),
  response: {
    200: {
      type: "object",
      required: ["recovery_codes", "recovery_codes_remaining"],
      properties: { recovery_codes: recoveryCodes, recovery_codes_remaining: { type: "integer" } },
      examples: [{ recovery_codes: SAMPLE_CODES, recovery_codes_remaining: 10 }],
    },
    ...errorResponses(403, 422, "INVALID_STATE", "TOO_MANY_ATTEMPTS"),
  },
});

export const getMe = authOp("Your account: user, organization, MFA state", {
  description:
    "Who the token belongs to: the user, whether MFA is on and how many recovery codes are left, and the organization with its plan. A bearer token's route (API keys belong to no user).",
  response: {
    200: {
      type: "object",
      required: ["id", "email", "mfa_enabled", "recovery_codes_remaining", "created_at", "last_login_at", "organization"],
      properties: {
        id: { type: "string", description: "`user_<id>`" },
        email: { type: "string" },
        mfa_enabled: { type: "boolean" },
        recovery_codes_remaining: { type: "integer", description: "Unused recovery codes; 0 while MFA is off" },
        created_at: timestamp,
        last_login_at: { type: ["string", "null"], format: "date-time" },
        organization: {
          type: "object",
          required: ["id", "name", "plan"],
          properties: {
            id: { type: "string", description: "`org_<id>`" },
            name: { type: "string" },
            plan: { type: "string", enum: ["startup", "professional", "enterprise"] },
          },
        },
      },
      examples: [
        {
          id: "user_01JD8N3Q7WX4K2",
          email: "alice@acme.example",
          mfa_enabled: true,
          recovery_codes_remaining: 8,
          created_at: "2026-11-01T09:00:00.000Z",
          last_login_at: "2026-11-27T08:55:00.000Z",
          organization: { id: "org_01JD8N2V5K3P9Q", name: "Acme Corp", plan: "professional" },
        },
      ],
    },
    ...errorResponses(403, 404),
  },
});

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
