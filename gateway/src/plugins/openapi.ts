import fs from "node:fs";
import { createRequire } from "node:module";
import swagger from "@fastify/swagger";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { errorBody } from "../errors.js";
import { errorBodySchema } from "../schemas.js";
import { docsRequestInterceptor, registerDocsAccess } from "./docs-access.js";
import { finishDocument, liftErrorCodes } from "./openapi-document.js";
import { nameOperations } from "./operation-ids.js";

const require = createRequire(import.meta.url);

const description = `Vulnerability scanning and compliance tracking API.

**Sign in.** \`POST /api/v1/auth/token\` with form fields \`username\` (email) and \`password\` (plus
\`mfa_code\` when MFA is on) answers an access token; send it as \`Authorization: Bearer <token>\`.
On the Professional and Enterprise plans, machines can use \`X-API-Key: <key>\` instead, with the
permission each operation names (\`x-permission\`). In this page, "Try it out" uses your console
session when you are signed in to the console, or the token you paste under "Authorize".

**Errors** have the shape \`{detail, error_code, field?}\`; each operation lists the codes it can
answer under each status, with an example of each. A 422 VALIDATION_ERROR from request validation
also carries \`errors\`: every field error of the request at once (\`{field, detail, error_code}\`),
the first repeated in \`detail\` and \`field\`.

**Text rules.** No string anywhere in a request (path, query string or body) may hold the
NUL character (\`\\u0000\` in JSON, \`%00\` in a URL): it is refused with 422 VALIDATION_ERROR naming
the field, for every operation, so the rule is stated here once rather than on every field.

**Limits.** Every authenticated response carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\`
and \`X-RateLimit-Reset\` (Unix time); over the limit answers 429 with \`Retry-After\`.
Lists answer \`{items, total, page, per_page, pages}\`; ids name their kind (\`scan_…\`, \`finding_…\`).`;

/**
 * /openapi.json (OpenAPI 3.1, generated from the route schemas, so it cannot drift from what
 * is validated), Swagger UI at /docs and ReDoc at /redoc — all behind authentication, as the
 * spec says.
 */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  app.addSchema(errorBodySchema);
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: { title: "vulnscan API", version, description },
      components: {
        securitySchemes: {
          bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
          apiKeyAuth: { type: "apiKey", in: "header", name: "X-API-Key" },
        },
      },
      security: [{ bearerAuth: [] }, { apiKeyAuth: [] }],
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
    // The API-key permission the guard enforces, stated per operation from the same route config,
    // so the document cannot drift from the check (test/e2e/authz-matrix.test.ts reads it).
    transform: ({ schema, url, route }) => {
      const permitted = route.config?.permission && schema ? ({ ...schema, "x-permission": route.config.permission } as typeof schema) : schema;
      // A deprecated operation says so in the document too (plugins/deprecation.ts sends the headers).
      const stated = route.config?.deprecation && permitted ? ({ ...permitted, deprecated: true } as typeof schema) : permitted;
      return { schema: stated ? (liftErrorCodes(stated as Record<string, unknown>) as typeof schema) : stated, url };
    },
    // Tags in reading order, examples for every body and error code (openapi-document.ts).
    // Each operation's operationId from one table (operation-ids.ts): the client libraries' names.
    transformObject: (doc) => ("openapiObject" in doc ? nameOperations(finishDocument(doc.openapiObject)) : doc.swaggerObject),
  });
  registerSwaggerUi(app);
  registerDocsAccess(app);

  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());

  // Read on the first request: a megabyte every replica would otherwise hold from its start
  // for a page a few readers open.
  let redocJs: Buffer | undefined;
  app.get("/redoc/redoc.standalone.js", { schema: { hide: true } }, async (_req, reply) => {
    redocJs ??= await fs.promises.readFile(require.resolve("redoc/bundles/redoc.standalone.js"));
    return reply.type("application/javascript").header("cache-control", "private, max-age=86400").send(redocJs);
  });
  app.get("/redoc", { schema: { hide: true } }, async (_req, reply) =>
    reply.type("text/html").send(`<!doctype html>
<html><head><meta charset="utf-8"><title>vulnscan API — ReDoc</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><div id="redoc"></div>
<script src="/redoc/redoc.standalone.js"></script>
<script>
  // The spec sits behind authentication; fetch it with the same credentials this page was opened with.
  fetch("/openapi.json", { credentials: "same-origin" }).then(function (r) { return r.json(); })
    .then(function (spec) { Redoc.init(spec, {}, document.getElementById("redoc")); });
</script></body></html>`),
  );
}

/** Request headers Swagger UI's static files answer to (caching and ranges); credentials stay with the gateway. */
const FORWARDED = ["accept", "accept-encoding", "if-none-match", "if-modified-since", "range"] as const;
/** Set by the gateway's own reply, or wrong once the body is re-sent. */
const NOT_COPIED = new Set(["content-length", "transfer-encoding", "connection", "date", "keep-alive"]);

/**
 * Swagger UI at /docs, answered by a Fastify instance of its own that is built at the first /docs
 * request: @fastify/swagger-ui, @fastify/static and their modules held about 3 MiB in every
 * replica from its start, for a page few readers open (docs/decisions.md, "Compiled
 * deployables"). The gateway's /docs routes keep the guard, the docs cookie and the error shape;
 * the instance serves the gateway's own document.
 */
function registerSwaggerUi(app: FastifyInstance): void {
  let ui: Promise<FastifyInstance> | undefined;
  const build = async () => {
    const { default: swaggerUi } = await import("@fastify/swagger-ui");
    const docs = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
    // Named as the plugin it stands for, which Swagger UI declares as its dependency.
    await docs.register(
      fp(
        async (instance) => {
          instance.decorate("swagger", app.swagger);
        },
        { name: "@fastify/swagger" },
      ),
    );
    // "Try it out" calls the API as the signed-in reader (docs-access.ts).
    await docs.register(swaggerUi, { routePrefix: "/docs", staticCSP: true, uiConfig: { requestInterceptor: docsRequestInterceptor } });
    await docs.ready();
    return docs;
  };
  const forward = async (req: FastifyRequest, reply: FastifyReply) => {
    ui ??= build().catch((err: unknown) => {
      ui = undefined;
      throw err;
    });
    const headers = Object.fromEntries(FORWARDED.flatMap((h) => (typeof req.headers[h] === "string" ? [[h, req.headers[h]]] : [])));
    const res = await (await ui).inject({ method: req.method as "GET" | "HEAD", url: req.url, headers });
    // Not callNotFound(): the path matches /docs/*, which it would answer 405.
    if (res.statusCode === 404) return reply.code(404).send(errorBody("Not found", "NOT_FOUND"));
    if (res.statusCode >= 500) throw new Error(`Swagger UI answered ${res.statusCode} for ${req.url}`);
    for (const [name, value] of Object.entries(res.headers)) if (value !== undefined && !NOT_COPIED.has(name)) reply.header(name, value);
    return reply.code(res.statusCode).send(res.rawPayload);
  };
  app.get("/docs", { schema: { hide: true } }, forward);
  app.get("/docs/*", { schema: { hide: true } }, forward);
}
