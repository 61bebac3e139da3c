import type { FastifyInstance, FastifyRequest } from "fastify";
import { HttpError } from "../errors.js";
import { answerDocsSignIn } from "./docs-sign-in.js";
import { docsToken, isDocsRequest } from "../routes/console/docs-cookie.js";
import type { PlanCache } from "../plans.js";
import type { RateDecision, RateLimits } from "../rate-limit.js";
import type { Authenticator } from "./authenticator.js";
import type { Permission, Principal } from "./principal.js";

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
  /** Credentials to principal, from memory (tokens, keys, the AuthView). */
  authenticator: Pick<Authenticator, "authenticate">;
  plans: Pick<PlanCache, "rateLimits">;
  limiter: { hit(orgId: string, limits: RateLimits): Promise<RateDecision | undefined> };
}

const notAuthenticated = () => new HttpError(401, "NOT_AUTHENTICATED", "Not authenticated", undefined, { "www-authenticate": "Bearer" });

/**
 * Authentication, rate limiting and permission checks, before the body is even parsed.
 * Every authenticated request counts against the organization's limits, refused ones too.
 */
export function registerGuard(app: FastifyInstance, deps: GuardDeps): void {
  app.decorateRequest("principal", undefined);
  app.addHook("onRequest", async (req, reply) => {
    const config = req.routeOptions.config;
    if (req.is404 || config.public) return;
    let principal: Principal;
    try {
      principal = await deps.authenticator.authenticate(credentialsOf(req));
    } catch (err) {
      // A person opening the API docs without credentials is told how to sign in, not shown a JSON 401.
      if (err instanceof HttpError && err.status === 401 && answerDocsSignIn(req, reply)) return reply;
      throw err;
    }
    req.principal = principal;

    const decision = await deps.limiter.hit(principal.orgId, await deps.plans.rateLimits(principal.orgId));
    if (decision) {
      reply.header("x-ratelimit-limit", decision.limit);
      reply.header("x-ratelimit-remaining", decision.remaining);
      reply.header("x-ratelimit-reset", decision.reset);
      if (!decision.allowed) {
        throw new HttpError(429, "RATE_LIMIT_EXCEEDED", `Rate limit exceeded; retry in ${decision.retryAfterSeconds} seconds`, undefined, {
          "retry-after": String(decision.retryAfterSeconds),
        });
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

/** The request's credentials: its headers, or for the API docs in a browser the console's docs cookie. */
function credentialsOf(req: FastifyRequest): { authorization?: string; "x-api-key"?: string | string[] } {
  const h = req.headers;
  if (!h.authorization && !h["x-api-key"] && isDocsRequest(req.method, req.url)) {
    const token = docsToken(h.cookie);
    if (token) return { authorization: `Bearer ${token}` };
  }
  return h;
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
