import path from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyPluginAsync } from "fastify";
import { userOf } from "../../auth/guard.js";
import { bearerSecurity, errorResponses } from "../../schemas.js";
import { docsCookies } from "./docs-cookie.js";
import { bodyOf, cacheControl, loadConsole, SECURITY_HEADERS } from "./static.js";

/** Where `npm run build -w web` puts the console; the gateway's WEB_DIST_DIR setting overrides it (container images). */
export const DEFAULT_WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../web/dist");

const docsCookieSchema = {
  tags: ["auth"],
  summary: "Open the API docs in this browser",
  description:
    "Sets an HttpOnly, SameSite=Strict cookie for /docs, /redoc, /openapi.json and the events catalogue (/asyncapi, /asyncapi.json) holding this session's token, so a browser can open them; it ends with the session.",
  security: bearerSecurity,
  response: { 204: { type: "null", description: "Cookie set" }, ...errorResponses(403) },
} as const;

/** The web console at / (static, public: it holds no data) and the docs cookie it asks for after sign-in. */
export const consoleRoutes =
  (opts: { distDir?: string } = {}): FastifyPluginAsync =>
  async (app) => {
    const files = loadConsole(opts.distDir ?? DEFAULT_WEB_DIST);
    const hidden = { config: { public: true }, schema: { hide: true } } as const;

    const serve = (rel: string) => async (_req: unknown, reply: import("fastify").FastifyReply) => {
      const file = files.get(rel);
      const body = file && (await bodyOf(file));
      if (!file || !body) {
        return reply
          .code(404)
          .headers(SECURITY_HEADERS)
          .type("text/plain; charset=utf-8")
          .send(rel === "index.html" ? "The web console is not built: run `npm run build -w web` (npm start does it)." : "Not found");
      }
      return reply.headers(SECURITY_HEADERS).header("cache-control", cacheControl(file)).type(file.type).send(body);
    };

    app.get("/", hidden, serve("index.html"));
    app.get("/index.html", hidden, serve("index.html"));
    app.get<{ Params: { "*": string } }>("/assets/*", hidden, (req, reply) => serve(`assets/${req.params["*"]}`)(req, reply));

    app.post("/api/v1/auth/docs-cookie", { config: { bearerOnly: true }, schema: docsCookieSchema }, async (req, reply) => {
      const user = userOf(req);
      return reply
        .header("set-cookie", docsCookies(user.token, req.protocol === "https"))
        .code(204)
        .send();
    });
  };
