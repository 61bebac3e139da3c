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
  description: "OAuth2 password flow: form-urlencoded `username` (email) and `password`, plus `mfa_code` when MFA is on.",
  // Public, like the health check: the document says so instead of inheriting the global bearer/key requirement.
  security: [],
  consumes: ["application/x-www-form-urlencoded"],
  body: input(
    {
      username: { type: "string", minLength: 1, maxLength: 320 },
      password: { type: "string", minLength: 1, maxLength: 1024 },
      mfa_code: { type: "string", maxLength: 16 },
      // Standard OAuth2 password-flow clients send these; accepted and ignored.
      grant_type: { type: "string", enum: ["password"] },
      scope: { type: "string" },
      client_id: { type: "string" },
      client_secret: { type: "string" },
    },
    { required: ["username", "password"] },
  ),
  response: { 200: tokenResponse, ...errorResponses(400, 401, 422) },
});

export const refreshToken = authOp("Refresh the access token (same session)", {
  response: { 200: tokenResponse, ...errorResponses(403) },
});

export const listSessions = authOp("List your active sessions", {
  response: { 200: listOf(sessionSchema), ...errorResponses(403) },
});

export const revokeSession = authOp("Revoke one of your sessions", {
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
  response: {
    200: { type: "object", required: ["revoked", "message"], properties: { revoked: { type: "integer" }, message: { type: "string" } } },
    ...errorResponses(403),
  },
});

export const setupMfa = authOp("Start MFA enrolment (TOTP)", {
  response: {
    200: {
      type: "object",
      required: ["secret", "otpauth_uri"],
      properties: { secret: { type: "string", description: "Base32 TOTP secret" }, otpauth_uri: { type: "string" } },
    },
    ...errorResponses(400, 403),
  },
});

/** MFA on or off: both take a current TOTP code and answer the new state. */
const mfaSwitch = (summary: string) =>
  authOp(summary, {
    body: input({ code: { type: "string", pattern: "^[0-9]{6}$", description: "Current 6-digit TOTP code" } }, { required: ["code"] }),
    response: {
      200: { type: "object", required: ["mfa_enabled"], properties: { mfa_enabled: { type: "boolean" } } },
      ...errorResponses(400, 403, 422),
    },
  });

export const enableMfa = mfaSwitch("Confirm a TOTP code and turn MFA on");
export const disableMfa = mfaSwitch("Turn MFA off (needs a current code)");

export const createApiKey = keyOp("Create an API key (Professional and Enterprise)", {
  ...paidPlansOnly,
  description: "The key value is in this response only; store it now.",
  body: input(
    {
      name: { type: "string", minLength: 1, maxLength: 100 },
      permissions: { type: "array", minItems: 1, uniqueItems: true, items: { type: "string", enum: [...PERMISSIONS] } },
      expires_at: { ...timestamp, description: "Optional expiry, in the future" },
    },
    { required: ["name", "permissions"] },
  ),
  response: {
    201: { ...apiKeySchema, required: [...apiKeySchema.required, "key"], properties: { ...apiKeySchema.properties, key: { type: "string" } } },
    ...errorResponses(403, 422),
  },
});

export const listApiKeys = keyOp("List the organization's API keys (never their values)", {
  response: { 200: listOf(apiKeySchema), ...errorResponses(403) },
});

export const revokeApiKey = keyOp("Revoke an API key", { params: idParams("api_key_id"), response: { 200: apiKeySchema, ...errorResponses(403, 404) } });
