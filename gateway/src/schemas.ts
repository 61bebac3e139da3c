import { isoOf } from "@vulnscan/kit";

/** The spec's error body, shared by every route's error responses. */
export const errorBodySchema = {
  $id: "ErrorBody",
  type: "object",
  required: ["detail", "error_code"],
  properties: {
    detail: { type: "string", description: "Human-readable message" },
    error_code: { type: "string", description: "Machine-readable code, e.g. VALIDATION_ERROR" },
    field: { type: "string", description: "The request field at fault (validation errors)" },
  },
} as const;

const errorDescriptions: Record<number, string> = {
  400: "Malformed request (BAD_REQUEST) or invalid state (INVALID_STATE)",
  401: "NOT_AUTHENTICATED, INVALID_TOKEN, TOKEN_EXPIRED, INVALID_CREDENTIALS or MFA_REQUIRED",
  403: "FORBIDDEN (missing API-key permission, bearer token required) or PLAN_UPGRADE_REQUIRED",
  404: "NOT_FOUND (also for resources of another organization)",
  409: "CONFLICT",
  422: "VALIDATION_ERROR, with `field`",
  429: "RATE_LIMIT_EXCEEDED (with Retry-After) or a quota error code",
  503: "SERVICE_UNAVAILABLE (with Retry-After)",
};

/** Error responses for a route's OpenAPI description: the common ones plus any given. */
export function errorResponses(...statuses: number[]) {
  const all = [...new Set([400, 401, 429, 503, ...statuses])].sort();
  return Object.fromEntries(all.map((s) => [s, { description: errorDescriptions[s] ?? "Error", $ref: "ErrorBody#" }]));
}

export const timestamp = { type: "string", format: "date-time" } as const;

/** A timestamp as ISO 8601 (the kit's, shared with the findings exports). */
export const iso = isoOf;

/**
 * Marks an operation the Startup plan cannot use (403 PLAN_UPGRADE_REQUIRED, enforced by the
 * service that owns the resource): the OpenAPI document states it as `x-plans`, and the
 * authorization matrix (test/e2e/authz-matrix.test.ts) expects Startup's 403 exactly there.
 */
export const paidPlansOnly = { "x-plans": ["professional", "enterprise"] } as const;

/** Bearer-only routes and routes that take either credential, for the OpenAPI security field. */
export const bearerSecurity: { [scheme: string]: string[] }[] = [{ bearerAuth: [] }];
export const anySecurity: { [scheme: string]: string[] }[] = [{ bearerAuth: [] }, { apiKeyAuth: [] }];

/**
 * The routes of one area share their OpenAPI tags and security: `const op = operation({ tags, security })`,
 * then `op(summary, { params, body, response, … })` is one route's schema. The `const` type parameters
 * keep every literal type, as `as const` would, so json-schema-to-ts derives the handler's request
 * types from the result exactly as from a literal written out in full.
 */
export function operation<const D extends { tags: readonly string[]; security: readonly object[] }>(defaults: D) {
  return <const S extends object>(summary: string, schema: S) => ({ ...defaults, summary, ...schema });
}

/**
 * A request body or query string that refuses unknown fields: `input(properties)`, or with keywords
 * such as `required` or `minProperties` as `input(properties, { required: ["name"] })`. The keywords
 * stand before `properties` in the object, as the OpenAPI document shows them.
 */
export function input<const P extends object, const K extends object = Record<never, never>>(properties: P, keywords?: K) {
  return { type: "object", additionalProperties: false, ...(keywords as K), properties } as const;
}

/** Path parameters of a route that names one resource by its id, e.g. `idParams("scan_id")`. */
export function idParams<const N extends string>(name: N) {
  const id = { type: "string", minLength: 1, maxLength: 128 } as const;
  return { type: "object", required: [name], properties: { [name]: id } as { [K in N]: typeof id } } as const;
}

/** A query bound that takes a whole day or an instant (RFC 3339 `2026-01-31` or date-time). */
export const dateOrTimestamp = { type: "string", anyOf: [{ format: "date" }, { format: "date-time" }] } as const;
