import type { FastifySwaggerUiOptions } from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { DOCS_SIGN_IN_SCRIPT } from "../auth/docs-sign-in.js";
import { userOf } from "../auth/guard.js";

/*
 * The API reference is "available once authenticated" (the spec), and a browser cannot put a
 * bearer token on a navigation. So:
 * - a signed-in console hands the docs pages a cookie of their own (routes/console/docs-cookie.ts);
 * - Swagger UI's "Try it out" sends API calls with `Authorization`, which that cookie cannot
 *   give: the page asks `GET /docs/session` (under /docs, so the cookie goes along) for the
 *   session's token and puts it on each call the reader has not authorized otherwise;
 * - a browser with neither gets a page that says how to sign in, or takes a pasted token,
 *   instead of a JSON 401 (auth/docs-sign-in.ts, answered by the guard).
 * The token handed to the docs page is the one the console already holds in its tab; a page of
 * another origin cannot read it (SameSite=Strict cookie, no CORS).
 */

type SwaggerRequest = Parameters<NonNullable<NonNullable<FastifySwaggerUiOptions["uiConfig"]>["requestInterceptor"]>>[0];

/** Swagger UI's request interceptor, serialized into its initializer script: it runs in the browser and must be self-contained. */
export const docsRequestInterceptor = async (req: SwaggerRequest): Promise<SwaggerRequest> => {
  const path = new URL(req.url, (globalThis as unknown as { location: { href: string } }).location.href).pathname;
  if (!path.startsWith("/api/") || req.headers.Authorization || req.headers["X-API-Key"]) return req;
  const res = await fetch("/docs/session", { credentials: "same-origin" });
  if (res.ok) req.headers.Authorization = `Bearer ${((await res.json()) as { access_token: string }).access_token}`;
  return req;
};

export function registerDocsAccess(app: FastifyInstance): void {
  app.get("/docs/session", { config: { bearerOnly: true }, schema: { hide: true } }, async (req, reply) =>
    reply.header("cache-control", "no-store").send({ access_token: userOf(req).token }),
  );
  app.get("/docs-sign-in.js", { config: { public: true }, schema: { hide: true } }, async (_req, reply) =>
    reply.header("cache-control", "no-cache").type("application/javascript; charset=utf-8").send(DOCS_SIGN_IN_SCRIPT),
  );
}
