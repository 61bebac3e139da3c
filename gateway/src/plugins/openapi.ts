import fs from "node:fs";
import { createRequire } from "node:module";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { errorBodySchema } from "../schemas.js";

const require = createRequire(import.meta.url);

const description = `Vulnerability scanning and compliance tracking API.

Authenticate with \`Authorization: Bearer <token>\` (from \`POST /api/v1/auth/token\`) or, on the
Professional and Enterprise plans, \`X-API-Key: <key>\` with the permission each endpoint names.
Errors have the shape \`{detail, error_code, field?}\`. Every authenticated response carries
\`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\` (Unix time).`;

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
    transform: ({ schema, url, route }) => ({
      schema: route.config?.permission && schema ? ({ ...schema, "x-permission": route.config.permission } as typeof schema) : schema,
      url,
    }),
  });
  await app.register(swaggerUi, { routePrefix: "/docs", staticCSP: true });

  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());

  const redocJs = fs.readFileSync(require.resolve("redoc/bundles/redoc.standalone.js"));
  app.get("/redoc/redoc.standalone.js", { schema: { hide: true } }, async (_req, reply) =>
    reply.type("application/javascript").header("cache-control", "private, max-age=86400").send(redocJs),
  );
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
