import fs from "node:fs";
import { createRequire } from "node:module";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { errorBodySchema } from "../schemas.js";
import { docsRequestInterceptor, registerDocsAccess } from "./docs-access.js";

const require = createRequire(import.meta.url);

/** plugins/no-nul.ts refuses NUL in every request string; the document says so on each one. */
export const NO_NUL_PATTERN = "^[^\\u0000]*$";

function addNoNul(schema: unknown): void {
  if (!schema || typeof schema !== "object") return;
  const s = schema as Record<string, unknown>;
  const types = [s.type].flat();
  if (types.includes("string") && s.pattern === undefined && s.enum === undefined && s.format !== "binary") s.pattern = NO_NUL_PATTERN;
  if (s.properties && typeof s.properties === "object") Object.values(s.properties).forEach(addNoNul);
  addNoNul(s.items);
  for (const key of ["anyOf", "oneOf", "allOf"]) if (Array.isArray(s[key])) (s[key] as unknown[]).forEach(addNoNul);
}

/** The document with the no-NUL rule on every request parameter and body string (a copy: route schemas stay as they are). */
function statingNoNul<T>(doc: T): T {
  const copy = structuredClone(doc) as { paths?: Record<string, Record<string, unknown>> };
  for (const item of Object.values(copy.paths ?? {})) {
    for (const op of Object.values(item) as { parameters?: { schema?: unknown }[]; requestBody?: { content?: Record<string, { schema?: unknown }> } }[]) {
      for (const param of op?.parameters ?? []) addNoNul(param.schema);
      for (const media of Object.values(op?.requestBody?.content ?? {})) addNoNul(media.schema);
    }
  }
  return copy as T;
}

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
    transformObject: (doc) => ("openapiObject" in doc ? statingNoNul(doc.openapiObject) : doc.swaggerObject),
  });
  // "Try it out" calls the API as the signed-in reader (docs-access.ts).
  await app.register(swaggerUi, { routePrefix: "/docs", staticCSP: true, uiConfig: { requestInterceptor: docsRequestInterceptor } });
  registerDocsAccess(app);

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
