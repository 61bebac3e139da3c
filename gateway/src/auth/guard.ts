import type { Client } from "@connectrpc/connect";
import type { AuthService } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { HttpError } from "../errors.js";
import type { PlanCache } from "../plans.js";
import type { RateDecision, RateLimits } from "../rate-limit.js";
import { PERMISSIONS, type Permission, type Principal } from "./principal.js";
import { invalidToken, type TokenVerifier } from "./token-verifier.js";

declare module "fastify" {
  interface FastifyRequest {
    principal?: Principal;
  }
  interface FastifyContextConfig {
    /** Served without authentication (token endpoint, health). */
    public?: boolean;
    /** The API-key permission the route needs; bearer tokens carry every permission of their user. */
    permission?: Permission;
    /** Only a bearer token will do (authentication, session and key management). */
    bearerOnly?: boolean;
  }
}

export interface GuardDeps {
  verifier: TokenVerifier;
  auth: Client<typeof AuthService>;
  plans: PlanCache;
  limiter: { hit(orgId: string, limits: RateLimits): Promise<RateDecision | undefined> };
}

const notAuthenticated = () =>
  new HttpError(401, "NOT_AUTHENTICATED", "Not authenticated", undefined, { "www-authenticate": "Bearer" });

async function authenticate(req: FastifyRequest, deps: GuardDeps): Promise<Principal> {
  const authorization = req.headers.authorization;
  if (typeof authorization === "string" && authorization.trim() !== "") {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) throw invalidToken();
    const token = match[1]!;
    const claims = await deps.verifier.verify(token);
    // Revocation must bite at once on every replica, so the session is checked on every request.
    const session = await deps.auth.checkSession({ orgId: claims.orgId, sessionId: claims.sessionId });
    if (!session.active || session.userId !== claims.userId) throw invalidToken();
    return { kind: "user", orgId: claims.orgId, userId: claims.userId, sessionId: claims.sessionId, email: claims.email, token };
  }
  const apiKey = req.headers["x-api-key"];
  if (typeof apiKey === "string" && apiKey.trim() !== "") {
    const key = await deps.auth.verifyApiKey({ key: apiKey.trim() });
    const permissions = key.permissions.filter((p): p is Permission => (PERMISSIONS as readonly string[]).includes(p));
    return { kind: "api_key", orgId: key.orgId, apiKeyId: key.apiKeyId, name: key.name, permissions };
  }
  throw notAuthenticated();
}

/**
 * Authentication, rate limiting and permission checks, before the body is even parsed.
 * Every authenticated request counts against the organization's limits, refused ones too.
 */
export function registerGuard(app: FastifyInstance, deps: GuardDeps): void {
  app.decorateRequest("principal", undefined);
  app.addHook("onRequest", async (req, reply) => {
    const config = req.routeOptions.config;
    if (req.is404 || config.public) return;
    const principal = await authenticate(req, deps);
    req.principal = principal;

    const decision = await deps.limiter.hit(principal.orgId, await deps.plans.rateLimits(principal.orgId));
    if (decision) {
      reply.header("x-ratelimit-limit", decision.limit);
      reply.header("x-ratelimit-remaining", decision.remaining);
      reply.header("x-ratelimit-reset", decision.reset);
      if (!decision.allowed) {
        throw new HttpError(
          429,
          "RATE_LIMIT_EXCEEDED",
          `Rate limit exceeded; retry in ${decision.retryAfterSeconds} seconds`,
          undefined,
          { "retry-after": String(decision.retryAfterSeconds) },
        );
      }
    }

    if (config.bearerOnly && principal.kind !== "user") {
      throw new HttpError(403, "FORBIDDEN", "This endpoint requires a bearer token");
    }
    if (config.permission && principal.kind === "api_key" && !principal.permissions.includes(config.permission)) {
      throw new HttpError(403, "FORBIDDEN", `This API key lacks the ${config.permission} permission`);
    }
  });
}

/** The principal of a guarded route (the guard ran, so it is set). */
export function principalOf(req: FastifyRequest): Principal {
  if (!req.principal) throw notAuthenticated();
  return req.principal;
}

export function userOf(req: FastifyRequest): Extract<Principal, { kind: "user" }> {
  const p = principalOf(req);
  if (p.kind !== "user") throw new HttpError(403, "FORBIDDEN", "This endpoint requires a bearer token");
  return p;
}
