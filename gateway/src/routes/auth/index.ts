import type { Client } from "@connectrpc/connect";
import type { AuthService } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import type { FastifyPluginAsync } from "fastify";
import { typed } from "../typed.js";
import { authHandlers } from "./handlers.js";
import * as schema from "./schemas.js";

const bearer = { bearerOnly: true } as const;

/** Authentication and sessions (spec) plus MFA enrolment and API keys (DESIGN.md §3). */
export const authRoutes =
  (auth: Client<typeof AuthService>): FastifyPluginAsync =>
  async (fastify) => {
    const app = typed(fastify);
    const h = authHandlers(auth);
    // Tokens, API key values, MFA secrets and session lists: no cache (browser, proxy) may keep
    // any answer of these routes (RFC 6749 5.1). Scoped to this plugin's routes.
    fastify.addHook("onRequest", async (_req, reply) => {
      reply.header("cache-control", "no-store").header("pragma", "no-cache");
    });
    app.post("/api/v1/auth/token", { config: { public: true }, schema: schema.issueToken }, h.issueToken);
    app.post("/api/v1/auth/refresh", { config: bearer, schema: schema.refreshToken }, h.refreshToken);
    app.get("/api/v1/auth/sessions", { config: bearer, schema: schema.listSessions }, h.listSessions);
    app.delete("/api/v1/auth/sessions/:session_id", { config: bearer, schema: schema.revokeSession }, h.revokeSession);
    app.post("/api/v1/auth/logout-all", { config: bearer, schema: schema.logoutAll }, h.logoutAll);
    app.post("/api/v1/auth/mfa/setup", { config: bearer, schema: schema.setupMfa }, h.setupMfa);
    app.post("/api/v1/auth/mfa/enable", { config: bearer, schema: schema.enableMfa }, h.enableMfa);
    app.post("/api/v1/auth/mfa/disable", { config: bearer, schema: schema.disableMfa }, h.disableMfa);
    app.post("/api/v1/auth/mfa/recovery-codes", { config: bearer, schema: schema.regenerateRecoveryCodes }, h.regenerateRecoveryCodes);
    app.get("/api/v1/auth/me", { config: bearer, schema: schema.getMe }, h.getMe);
    app.post("/api/v1/auth/api-keys", { config: bearer, schema: schema.createApiKey }, h.createApiKey);
    app.get("/api/v1/auth/api-keys", { config: bearer, schema: schema.listApiKeys }, h.listApiKeys);
    app.delete("/api/v1/auth/api-keys/:api_key_id", { config: bearer, schema: schema.revokeApiKey }, h.revokeApiKey);
  };
