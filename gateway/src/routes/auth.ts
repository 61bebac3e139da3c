import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import type { ApiKey, AuthService, Session } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { userOf } from "../auth/guard.js";
import { PERMISSIONS } from "../auth/principal.js";
import { HttpError } from "../errors.js";
import { bearerSecurity, errorResponses, iso, timestamp } from "../schemas.js";

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

const codeBody = {
  type: "object",
  additionalProperties: false,
  required: ["code"],
  properties: { code: { type: "string", pattern: "^[0-9]{6}$", description: "Current 6-digit TOTP code" } },
} as const;

function sessionJson(s: Session) {
  return {
    id: s.id,
    created_at: iso(s.createdAt),
    last_used_at: iso(s.lastUsedAt),
    expires_at: iso(s.expiresAt),
    ip: s.ip,
    user_agent: s.userAgent,
    current: s.current,
  };
}

function apiKeyJson(k: ApiKey) {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    permissions: k.permissions,
    created_at: iso(k.createdAt),
    expires_at: iso(k.expiresAt) ?? null,
    last_used_at: iso(k.lastUsedAt) ?? null,
    revoked: k.revoked,
  };
}

const client = (req: FastifyRequest) => ({ ip: req.ip, userAgent: String(req.headers["user-agent"] ?? "").slice(0, 512) });

/** Authentication and sessions (spec) plus MFA enrolment and API keys (DESIGN.md §3). */
export const authRoutes =
  (auth: Client<typeof AuthService>): FastifyPluginAsync =>
  async (app) => {
    app.post(
      "/api/v1/auth/token",
      {
        config: { public: true },
        schema: {
          tags: ["auth"],
          summary: "Obtain an access token",
          description: "OAuth2 password flow: form-urlencoded `username` (email) and `password`, plus `mfa_code` when MFA is on.",
          consumes: ["application/x-www-form-urlencoded"],
          body: {
            type: "object",
            additionalProperties: false,
            required: ["username", "password"],
            properties: {
              username: { type: "string", minLength: 1, maxLength: 320 },
              password: { type: "string", minLength: 1, maxLength: 1024 },
              mfa_code: { type: "string", maxLength: 16 },
              // Standard OAuth2 password-flow clients send these; accepted and ignored.
              grant_type: { type: "string", enum: ["password"] },
              scope: { type: "string" },
              client_id: { type: "string" },
              client_secret: { type: "string" },
            },
          },
          response: { 200: tokenResponse, ...errorResponses(400, 401, 422) },
        },
      },
      async (req) => {
        const body = req.body as { username: string; password: string; mfa_code?: string };
        const res = await auth.issueToken({
          username: body.username,
          password: body.password,
          mfaCode: body.mfa_code ?? "",
          ...client(req),
        });
        return { access_token: res.accessToken, token_type: "bearer", expires_in: res.expiresIn };
      },
    );

    app.post(
      "/api/v1/auth/refresh",
      {
        config: { bearerOnly: true },
        schema: {
          tags: ["auth"],
          summary: "Refresh the access token (same session)",
          security: bearerSecurity,
          response: { 200: tokenResponse, ...errorResponses(403) },
        },
      },
      async (req) => {
        const user = userOf(req);
        const res = await auth.refreshToken({ orgId: user.orgId, accessToken: user.token, ...client(req) });
        return { access_token: res.accessToken, token_type: "bearer", expires_in: res.expiresIn };
      },
    );

    app.get(
      "/api/v1/auth/sessions",
      {
        config: { bearerOnly: true },
        schema: {
          tags: ["auth"],
          summary: "List your active sessions",
          security: bearerSecurity,
          response: {
            200: { type: "object", required: ["items", "total"], properties: { items: { type: "array", items: sessionSchema }, total: { type: "integer" } } },
            ...errorResponses(403),
          },
        },
      },
      async (req) => {
        const user = userOf(req);
        const res = await auth.listSessions({ orgId: user.orgId, userId: user.userId, currentSessionId: user.sessionId });
        return { items: res.sessions.map(sessionJson), total: res.sessions.length };
      },
    );

    app.delete(
      "/api/v1/auth/sessions/:session_id",
      {
        config: { bearerOnly: true },
        schema: {
          tags: ["auth"],
          summary: "Revoke one of your sessions",
          security: bearerSecurity,
          params: { type: "object", required: ["session_id"], properties: { session_id: { type: "string", maxLength: 128 } } },
          response: {
            200: {
              type: "object",
              required: ["id", "status", "message"],
              properties: { id: { type: "string" }, status: { type: "string", enum: ["revoked"] }, message: { type: "string" } },
            },
            ...errorResponses(403, 404),
          },
        },
      },
      async (req) => {
        const user = userOf(req);
        const { session_id } = req.params as { session_id: string };
        const res = await auth.revokeSession({ orgId: user.orgId, userId: user.userId, sessionId: session_id });
        return { id: res.sessionId, status: "revoked", message: "Session revoked; its tokens no longer work" };
      },
    );

    app.post(
      "/api/v1/auth/logout-all",
      {
        config: { bearerOnly: true },
        schema: {
          tags: ["auth"],
          summary: "Revoke all your sessions (including this one)",
          security: bearerSecurity,
          response: {
            200: {
              type: "object",
              required: ["revoked", "message"],
              properties: { revoked: { type: "integer" }, message: { type: "string" } },
            },
            ...errorResponses(403),
          },
        },
      },
      async (req) => {
        const user = userOf(req);
        const res = await auth.revokeAllSessions({ orgId: user.orgId, userId: user.userId });
        return { revoked: res.revokedCount, message: "All sessions revoked" };
      },
    );

    app.post(
      "/api/v1/auth/mfa/setup",
      {
        config: { bearerOnly: true },
        schema: {
          tags: ["auth"],
          summary: "Start MFA enrolment (TOTP)",
          security: bearerSecurity,
          response: {
            200: {
              type: "object",
              required: ["secret", "otpauth_uri"],
              properties: { secret: { type: "string", description: "Base32 TOTP secret" }, otpauth_uri: { type: "string" } },
            },
            ...errorResponses(400, 403),
          },
        },
      },
      async (req) => {
        const user = userOf(req);
        const res = await auth.setupMfa({ orgId: user.orgId, userId: user.userId });
        return { secret: res.secret, otpauth_uri: res.otpauthUri };
      },
    );

    for (const action of ["enable", "disable"] as const) {
      app.post(
        `/api/v1/auth/mfa/${action}`,
        {
          config: { bearerOnly: true },
          schema: {
            tags: ["auth"],
            summary: action === "enable" ? "Confirm a TOTP code and turn MFA on" : "Turn MFA off (needs a current code)",
            security: bearerSecurity,
            body: codeBody,
            response: {
              200: { type: "object", required: ["mfa_enabled"], properties: { mfa_enabled: { type: "boolean" } } },
              ...errorResponses(400, 403, 422),
            },
          },
        },
        async (req) => {
          const user = userOf(req);
          const { code } = req.body as { code: string };
          const res =
            action === "enable"
              ? await auth.enableMfa({ orgId: user.orgId, userId: user.userId, code })
              : await auth.disableMfa({ orgId: user.orgId, userId: user.userId, code, ...client(req) });
          return { mfa_enabled: res.mfaEnabled };
        },
      );
    }

    app.post(
      "/api/v1/auth/api-keys",
      {
        config: { bearerOnly: true },
        schema: {
          tags: ["api-keys"],
          summary: "Create an API key (Professional and Enterprise)",
          description: "The key value is in this response only; store it now.",
          security: bearerSecurity,
          body: {
            type: "object",
            additionalProperties: false,
            required: ["name", "permissions"],
            properties: {
              name: { type: "string", minLength: 1, maxLength: 100 },
              permissions: { type: "array", minItems: 1, uniqueItems: true, items: { type: "string", enum: [...PERMISSIONS] } },
              expires_at: { ...timestamp, description: "Optional expiry, in the future" },
            },
          },
          response: {
            201: { ...apiKeySchema, required: [...apiKeySchema.required, "key"], properties: { ...apiKeySchema.properties, key: { type: "string" } } },
            ...errorResponses(403, 422),
          },
        },
      },
      async (req, reply) => {
        const user = userOf(req);
        const body = req.body as { name: string; permissions: string[]; expires_at?: string };
        let expiresAt: Date | undefined;
        if (body.expires_at !== undefined) {
          expiresAt = new Date(body.expires_at);
          if (Number.isNaN(expiresAt.getTime())) throw new HttpError(422, "VALIDATION_ERROR", "expires_at must be an ISO 8601 timestamp", "expires_at");
        }
        const res = await auth.createApiKey({
          orgId: user.orgId,
          userId: user.userId,
          name: body.name,
          permissions: body.permissions,
          expiresAt: expiresAt ? timestampFromDate(expiresAt) : undefined,
        });
        return reply.code(201).send({ ...apiKeyJson(res.apiKey!), key: res.key });
      },
    );

    app.get(
      "/api/v1/auth/api-keys",
      {
        config: { bearerOnly: true },
        schema: {
          tags: ["api-keys"],
          summary: "List the organization's API keys (never their values)",
          security: bearerSecurity,
          response: {
            200: { type: "object", required: ["items", "total"], properties: { items: { type: "array", items: apiKeySchema }, total: { type: "integer" } } },
            ...errorResponses(403),
          },
        },
      },
      async (req) => {
        const user = userOf(req);
        const res = await auth.listApiKeys({ orgId: user.orgId });
        return { items: res.apiKeys.map(apiKeyJson), total: res.apiKeys.length };
      },
    );

    app.delete(
      "/api/v1/auth/api-keys/:api_key_id",
      {
        config: { bearerOnly: true },
        schema: {
          tags: ["api-keys"],
          summary: "Revoke an API key",
          security: bearerSecurity,
          params: { type: "object", required: ["api_key_id"], properties: { api_key_id: { type: "string", maxLength: 128 } } },
          response: { 200: apiKeySchema, ...errorResponses(403, 404) },
        },
      },
      async (req) => {
        const user = userOf(req);
        const { api_key_id } = req.params as { api_key_id: string };
        const res = await auth.revokeApiKey({ orgId: user.orgId, apiKeyId: api_key_id });
        return apiKeyJson(res.apiKey!);
      },
    );
  };
