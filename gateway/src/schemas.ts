import { isoOf } from "@vulnscan/kit";

/** One field error of a 422: the field (absent when the body as a whole is wrong), the problem in plain words, the code. */
export const fieldErrorSchema = {
  type: "object",
  // `field` is optional: a body that is not an object at all names no field. Required, the reply
  // serializer refused such an error and the gateway answered 500 (found by test:fuzz).
  required: ["detail", "error_code"],
  properties: {
    field: { type: "string", description: "The request field at fault, as a dotted path (`update.status`, `finding_ids.3`)" },
    detail: { type: "string", description: "What is wrong with it, in plain words" },
    error_code: { type: "string", description: "VALIDATION_ERROR" },
  },
} as const;

/** The spec's error body, shared by every route's error responses. */
export const errorBodySchema = {
  $id: "ErrorBody",
  type: "object",
  description:
    "The spec's error body. `detail`, `error_code` and (for validation errors) `field` are the contract; a 422 from request validation also lists every field error in `errors`, the first of them repeated in `detail` and `field`.",
  required: ["detail", "error_code"],
  properties: {
    detail: { type: "string", description: "What went wrong, in plain words" },
    error_code: { type: "string", description: "Machine-readable code, e.g. VALIDATION_ERROR (each operation lists the codes it can answer)" },
    field: { type: "string", description: "The request field at fault (validation errors)" },
    errors: { type: "array", items: fieldErrorSchema, description: "Every field error of the request (422 VALIDATION_ERROR from request validation)" },
  },
} as const;

/**
 * Every error code the API answers, once: its HTTP status, when it happens and a sample body.
 * Routes name the codes (or statuses) they can answer with `errorResponses(...)`; the OpenAPI
 * document then shows, per status, a description listing those codes and one example per code.
 */
export const ERROR_CODES = {
  BAD_REQUEST: { status: 400, when: "the body or URL cannot be read (malformed JSON, form or multipart)", detail: "Malformed request body" },
  INVALID_STATE: { status: 400, when: "the resource is not in a state that allows this", detail: "Only a pending or running scan can be cancelled" },
  NOT_AUTHENTICATED: { status: 401, when: "no bearer token or API key was sent", detail: "Not authenticated" },
  INVALID_TOKEN: { status: 401, when: "the token or API key is not valid (revoked, signed by another key, unknown)", detail: "Could not validate credentials" },
  TOKEN_EXPIRED: { status: 401, when: "the bearer token is past its lifetime (1 hour)", detail: "Token has expired" },
  INVALID_CREDENTIALS: { status: 401, when: "wrong email or password", detail: "Incorrect email or password" },
  MFA_REQUIRED: { status: 401, when: "MFA is on for the account and `mfa_code` is missing", detail: "MFA code required" },
  INVALID_MFA_CODE: {
    status: 401,
    when: "`mfa_code` is wrong, already used, or not a recovery code of the account",
    detail: "Invalid or already used MFA code",
  },
  FORBIDDEN: {
    status: 403,
    when: "the API key lacks the operation's permission, or the operation needs a bearer token",
    detail: "This API key lacks the read:scans permission",
  },
  PLAN_UPGRADE_REQUIRED: {
    status: 403,
    when: "the organization's plan does not include the feature",
    detail: "Webhooks require the Professional or Enterprise plan",
  },
  TARGET_NOT_VERIFIED: {
    status: 403,
    when: "the scan or schedule would touch addresses no verified target of the organization covers (outside the operator's own networks); the detail says what to publish and, for a range, which addresses are not covered",
    detail:
      "Target 203.0.113.0/28 is not verified for your organization. Addresses of the range not covered: 203.0.113.8, 203.0.113.9, 203.0.113.10, 203.0.113.11, 203.0.113.12, 203.0.113.13, 203.0.113.14, 203.0.113.15. Add them as a target (POST /api/v1/targets) and prove them: reverse DNS under a verified domain, the file /.well-known/vulnscan-verification.txt served on each address, or the operator's attestation.",
  },
  TARGET_VERIFICATION_EXPIRED: {
    status: 403,
    when: "the verified target that covered the scan lost its proof at a re-check (every 30 days, and before a scheduled scan)",
    detail:
      "The verification of shop.example.com (no TXT record at _vulnscan-challenge.shop.example.com) expired: publish the proof again and ask for a check (POST /api/v1/targets/{target_id}/verify) before scanning shop.example.com",
  },
  NOT_FOUND: { status: 404, when: "no such resource in your organization (another organization's ids answer the same)", detail: "Scan not found" },
  CONFLICT: { status: 409, when: "the change conflicts with the resource's current state", detail: "The resource was changed meanwhile" },
  PAYLOAD_TOO_LARGE: { status: 413, when: "the body is larger than the API accepts", detail: "Request body too large" },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, when: "the body's Content-Type is not one the operation reads", detail: "Unsupported content type" },
  VALIDATION_ERROR: {
    status: 422,
    when: "a request field is invalid; `field` names the first, `errors` lists all",
    detail: "Enter a target: a domain name, an IP address or a CIDR range",
  },
  RATE_LIMIT_EXCEEDED: {
    status: 429,
    when: "the plan's hourly or daily request limit is used up (see Retry-After)",
    detail: "Rate limit exceeded: 100 requests per hour",
  },
  TOO_MANY_ATTEMPTS: {
    status: 429,
    when: "too many failed sign-in or MFA attempts; retry after Retry-After seconds",
    detail: "Too many failed attempts; try again in a few minutes",
  },
  SCAN_QUOTA_EXCEEDED: {
    status: 429,
    when: "the plan's scans of this month are used up",
    detail: "Monthly scan quota exhausted: your plan allows 25 scans per month; it resets at 2026-12-01T00:00:00.000Z",
  },
  CONCURRENT_SCAN_LIMIT: {
    status: 429,
    when: "the plan's concurrent scans are all pending or running",
    detail: "Concurrent scan limit reached: your plan allows 1 pending or running scan at a time",
  },
  RETEST_QUOTA_EXCEEDED: {
    status: 429,
    when: "the plan's retests of this month are used up (ten per monthly scan of the plan)",
    detail: "Monthly retests used up (250); they reset on 2026-12-01",
  },
  AI_QUOTA_EXCEEDED: {
    status: 429,
    when: "the plan's AI credits of this month are used up",
    detail: "AI analysis credits for 2026-11 are used up (50 per month on this plan)",
  },
  API_KEY_LIMIT_EXCEEDED: {
    status: 429,
    when: "the organization has as many active API keys as allowed",
    detail: "An organization can have at most 50 active API keys; revoke unused ones first",
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    when: "a service this operation needs is down; retry after Retry-After seconds",
    detail: "A required service is unavailable; retry shortly",
  },
  UPSTREAM_TIMEOUT: { status: 504, when: "a service this operation needs did not answer in time", detail: "A required service did not answer in time" },
} as const satisfies Record<string, { status: number; when: string; detail: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The codes a status stands for when a route names the status alone. */
const CODES_OF_STATUS: Record<number, ErrorCode[]> = {
  400: ["BAD_REQUEST"],
  401: ["NOT_AUTHENTICATED", "INVALID_TOKEN", "TOKEN_EXPIRED"],
  403: ["FORBIDDEN"],
  404: ["NOT_FOUND"],
  409: ["CONFLICT"],
  413: ["PAYLOAD_TOO_LARGE"],
  415: ["UNSUPPORTED_MEDIA_TYPE"],
  422: ["VALIDATION_ERROR"],
  429: ["RATE_LIMIT_EXCEEDED"],
  503: ["SERVICE_UNAVAILABLE"],
  504: ["UPSTREAM_TIMEOUT"],
};

/** What any authenticated operation can answer: unreadable request, credentials, rate limit, a service down or slow. */
const COMMON: readonly number[] = [400, 401, 429, 503, 504];

/**
 * A route's error responses from the codes (or statuses) it can answer, on top of the common
 * ones: `errorResponses(404, 422)`, `errorResponses("NOT_FOUND", "SCAN_QUOTA_EXCEEDED")`. A status
 * stands for its usual codes (CODES_OF_STATUS). Each response names its codes in `x-error-codes`,
 * which plugins/openapi.ts turns into the description and one example per code.
 */
export function errorResponses(...answers: (number | ErrorCode)[]) {
  const codes = new Set<ErrorCode>();
  for (const a of [...COMMON, ...answers]) for (const c of typeof a === "number" ? (CODES_OF_STATUS[a] ?? []) : [a]) codes.add(c);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const c of codes) byStatus.set(ERROR_CODES[c].status, [...(byStatus.get(ERROR_CODES[c].status) ?? []), c]);
  return Object.fromEntries(
    [...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, list]) => [status, { description: list.join(", "), $ref: "ErrorBody#", "x-error-codes": list }]),
  );
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
