import { ERROR_CODES, type ErrorCode } from "../schemas.js";

/**
 * The finishing pass over the generated OpenAPI document: what a reader needs that route schemas
 * do not carry by themselves — tags in reading order, one example per error code of each error
 * response, an example for every JSON body (the route's own `examples` when it gives one, else
 * one built from the schema with realistic values), and no "Default Response". The route schemas
 * stay what ajv validates; this only adds annotations (a copy of the document, never the routes').
 */

/** Tags in the order a new user meets them, each with what it covers. */
export const TAGS = [
  { name: "auth", description: "Tokens, sessions, your account (`/auth/me`), MFA and recovery codes. Start with `POST /api/v1/auth/token`." },
  { name: "scans", description: "Start scans, follow their progress, cancel them; the monthly quota." },
  {
    name: "targets",
    description:
      "Domains, addresses and ranges your organization proves it owns (DNS TXT, HTTP file, reverse DNS or the operator's attestation); scans outside the operator's own networks need one.",
  },
  { name: "findings", description: "What scans found: list, search, filter, triage, comment, export, AI guidance." },
  { name: "compliance", description: "Controls, evidence, framework scores and audit requests." },
  { name: "schedules", description: "Recurring scans (Professional and Enterprise)." },
  { name: "webhooks", description: "Signed HTTP callbacks for events (Professional and Enterprise); deliveries, tests and replays." },
  { name: "api-keys", description: "Keys for machines (Professional and Enterprise), with per-key permissions." },
  { name: "health", description: "Liveness of the API and its services; public." },
] as const;

/** Descriptions of success statuses a route did not describe itself. */
const SUCCESS: Record<string, string> = {
  "200": "Success",
  "201": "Created",
  "202": "Accepted: the work runs in the background",
  "204": "Done; no body",
};

type Json = Record<string, unknown>;
type Schema = Json & {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: unknown[];
  examples?: unknown[];
  example?: unknown;
  default?: unknown;
  format?: string;
  description?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  additionalProperties?: boolean | Schema;
  anyOf?: Schema[];
  $ref?: string;
};

const WHEN = "2026-11-27T09:30:00.000Z";

/** Realistic values by field name, for examples built from a schema. */
const VALUES: Record<string, unknown> = {
  access_token: "eyJhbGciOiJFUzI1NiIsImtpZCI6ImtleV8xIn0.eyJzdWIiOiJ1c2VyXzAxSkQ4TjNRIn0.c2lnbmF0dXJl",
  email: "alice@acme.example",
  username: "alice@acme.example",
  password: "correct horse battery staple",
  mfa_code: "123456",
  code: "123456",
  secret: "JBSWY3DPEHPK3PXP",
  otpauth_uri: "otpauth://totp/vulnscan:alice%40acme.example?secret=JBSWY3DPEHPK3PXP&issuer=vulnscan",
  target: "app.acme.example",
  ports: "22,80,443,8000-8100",
  timezone: "Europe/Berlin",
  hour: 3,
  day_of_week: 1,
  day_of_month: 1,
  title: "Redis reachable without authentication",
  affected_component: "redis://app.acme.example:6379",
  tool: "nuclei",
  template_id: "redis-unauth",
  cvss_score: 9.8,
  epss_score: 0.42,
  cvss_vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H",
  cve_ids: ["CVE-2022-0543"],
  cwe_ids: ["CWE-306"],
  cve: "CVE-2022-0543",
  description: "The Redis server accepts commands without a password.",
  impact: "Anyone who can reach the port can read and change every key, and often run commands on the host.",
  text: "Firewall rule requested in CHG-1042.",
  notes: "Owner agreed to close the port by Friday.",
  assignee: "dev@acme.example",
  user: "alice@acme.example",
  name: "Production hooks",
  url: "https://hooks.acme.example/vulnscan",
  events: ["scan.completed", "vulnerability.critical"],
  event: "scan.completed",
  response_code: 200,
  response_time_ms: 84,
  attempts: 1,
  permissions: ["read:scans", "read:findings"],
  prefix: "vsk_3f9a",
  key: "vsk_3f9a6c1d0e4b8a7f2c5d9e1b3a6f8c0d",
  ip: "203.0.113.7",
  user_agent: "Mozilla/5.0 (X11; Linux x86_64)",
  progress: 45,
  phase: "vulnerability_scanning",
  current_tool: "nuclei",
  estimated_duration: 420,
  vulnerabilities_found: 12,
  critical_count: 1,
  high_count: 3,
  medium_count: 5,
  low_count: 2,
  info_count: 1,
  frameworks: ["soc2", "pci_dss"],
  framework: "soc2",
  total: 1,
  page: 1,
  per_page: 20,
  pages: 1,
  next_cursor: null,
  version: "1.4.0",
  owner: "security@acme.example",
  score: 82,
  filename: "firewall-policy.pdf",
  content_type: "application/pdf",
  size_bytes: 48213,
  sha256: "9f2b5c0e8d7a6b1c4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d",
  message: "Done",
  revoked: 0,
  updated: 2,
  scheduled: 3,
  expires_in: 3600,
  control_id: "ctrl_01JD8N3Q7WX4K2",
  control_ids: ["ctrl_01JD8N3Q7WX4K2"],
  control_ref: "CC6.1",
  uploaded_by: "alice@acme.example",
  requested_by: "auditor@audit-firm.example",
  // The same name in another resource (the resource is the form of its `id`: `webhook_<id>`).
  "webhook.name": "Production alerts",
  "apikey.name": "CI pipeline",
  "apikey.revoked": false,
  "ctrl.name": "Logical access security",
  "ctrl.requirement": "Restrict logical access to production systems to authorised people, with access reviewed every quarter.",
  "evidence.name": "access-review-2026-q4.pdf",
  "evidence.title": "Access review Q4 2026",
  "evidence.description": "Quarterly review of production access, signed by the CISO.",
  "audit.title": "Access reviews for Q4",
  "audit.description": "Show the quarterly access review of production systems.",
  "audit.requested_by": "auditor@audit-firm.example",
  "audit.answer": "Reviews are done quarterly; the Q4 review is attached.",
  "audit.answered_by": "alice@acme.example",
  "session.id": "session_01JD8N3Q7WX4K2",
  "scan.status": "running",
  "scan.phases_completed": ["discovery", "enumeration"],
  "scan.phases_remaining": ["vulnerability_scanning", "web_analysis", "reporting"],
  "delivery.status": "success",
};

/** The resource an object schema describes, from the form of its `id` (`scan_<id>` → scan). */
function kindOf(schema: Schema): string | undefined {
  const id = schema.properties?.id;
  return id?.description ? ID_FORM.exec(id.description)?.[1] : undefined;
}

/** Optional fields that only appear in some states (a failure's error, a finished scan's end): left out of examples. */
const CONDITIONAL = new Set([
  "threat",
  "error",
  "disabled_reason",
  "completed_at",
  "delivered_at",
  "next_retry",
  "deferred_until",
  "answered_at",
  "answered_by",
  "answer",
]);

/** `scan_<id>` in a field's description gives the id's form. */
const ID_FORM = /`([a-z]+)_<id>`/;

function firstType(s: Schema): string | undefined {
  const types = [s.type].flat().filter((t) => t !== undefined && t !== "null") as string[];
  return types[0];
}

function stringExample(s: Schema, name: string): unknown {
  const known = VALUES[name];
  if (typeof known === "string") return known;
  if (s.format === "date-time") return WHEN;
  if (s.format === "date") return WHEN.slice(0, 10);
  if (s.format === "email") return "alice@acme.example";
  if (s.format === "uri") return "https://hooks.acme.example/vulnscan";
  const form = s.description ? ID_FORM.exec(s.description) : null;
  if (form) return `${form[1]}_01JD8N3Q7WX4K2`;
  if (name === "id" || name.endsWith("_id")) return `${name === "id" ? "res" : name.slice(0, -3)}_01JD8N3Q7WX4K2`;
  if (name.endsWith("_at")) return WHEN;
  return name ? name.replace(/_/g, " ") : "text";
}

function numberExample(s: Schema, name: string, integer: boolean): number {
  const known = VALUES[name];
  let n = typeof known === "number" ? known : integer ? 1 : 7.5;
  if (s.minimum !== undefined && n < s.minimum) n = s.minimum;
  if (s.maximum !== undefined && n > s.maximum) n = s.maximum;
  return n;
}

/** An example value of a schema: its own example when it has one, else one built from field names. */
export function exampleOf(schema: Schema | undefined, name = "", depth = 0, kind?: string): unknown {
  if (!schema || depth > 12) return undefined;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  const known = kind && `${kind}.${name}` in VALUES ? VALUES[`${kind}.${name}`] : VALUES[name];
  if (known === null && [schema.type].flat().includes("null")) return null;
  if (schema.enum) {
    const options = schema.enum.filter((v) => v !== null);
    return (options as unknown[]).includes(known) ? known : options[0];
  }
  if (schema.default !== undefined) return schema.default;
  if (schema.anyOf?.[0]) return exampleOf({ ...schema.anyOf[0], type: schema.type } as Schema, name, depth + 1, kind);
  switch (firstType(schema)) {
    case "object": {
      const out: Json = {};
      const own = kindOf(schema) ?? kind;
      const required = new Set((schema.required as string[] | undefined) ?? []);
      for (const [key, prop] of Object.entries(schema.properties ?? {})) {
        if (!required.has(key) && CONDITIONAL.has(key)) continue;
        const v = exampleOf(prop, key, depth + 1, own);
        if (v !== undefined) out[key] = v;
      }
      const extra = schema.additionalProperties;
      if (extra && typeof extra === "object" && !schema.properties) {
        const value = exampleOf(extra, "", depth + 1);
        if (name === "by_tool") return { nuclei: 9, nmap: 3 };
        if (name === "services") return { auth: value, "scan-orchestrator": value, findings: value };
        return { example: value };
      }
      return out;
    }
    case "array": {
      if (Array.isArray(known) && schema.items && firstType(schema.items) === "string" && !schema.items.enum) return known;
      if (Array.isArray(known) && schema.items?.enum && known.every((v) => schema.items!.enum!.includes(v))) return known;
      const item = exampleOf(schema.items, name.replace(/s$/, ""), depth + 1, kind);
      return item === undefined ? [] : [item];
    }
    case "string":
      if (schema.format === "binary") return undefined;
      return typeof known === "string" ? known : stringExample(schema, name);
    case "integer":
      return numberExample(schema, name, true);
    case "number":
      return numberExample(schema, name, false);
    case "boolean":
      return typeof known === "boolean" ? known : true;
    case undefined:
      return undefined;
    default:
      return undefined;
  }
}

/** A sample error body of one code; a validation error names `field` (the operation's first input). */
export function errorExample(code: ErrorCode, field = "target"): Json {
  const { detail } = ERROR_CODES[code];
  if (code !== "VALIDATION_ERROR") return { detail, error_code: code };
  const first = `${field.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase())} is required.`;
  return { detail: first, error_code: code, field, errors: [{ field, detail: first, error_code: code }] };
}

type Media = { schema?: Schema; example?: unknown; examples?: Record<string, unknown> };
type Operation = Json & {
  description?: string;
  parameters?: { in: string; name: string; schema?: Schema; example?: unknown }[];
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, { description?: string; content?: Record<string, Media> }>;
  "x-error-codes"?: Record<string, ErrorCode[]>;
};

/** The first field a client sends to an operation: what a sample validation error names. */
function firstInput(op: Operation): string {
  const body = Object.values(op.requestBody?.content ?? {})[0]?.schema;
  const required = (body?.required as string[] | undefined)?.[0];
  return required ?? Object.keys(body?.properties ?? {})[0] ?? op.parameters?.find((p) => p.in === "query")?.name ?? "per_page";
}

function finishOperation(op: Operation): void {
  const field = firstInput(op);
  for (const media of Object.values(op.requestBody?.content ?? {})) {
    if (media.example === undefined && !media.examples && media.schema) {
      const example = exampleOf(media.schema);
      if (example !== undefined) media.example = example;
    }
  }
  for (const param of op.parameters ?? []) {
    if (param.in === "path" && param.example === undefined) param.example = stringExample(param.schema ?? {}, param.name);
  }
  const codes = op["x-error-codes"] ?? {};
  for (const [status, response] of Object.entries(op.responses ?? {})) {
    const listed = codes[status];
    if (listed) {
      response.description = listed.map((c) => `\`${c}\`: ${ERROR_CODES[c].when}`).join("; ");
      // Errors are JSON whatever the operation produces on success (a file, CSV).
      const examples = Object.fromEntries(listed.map((c) => [c, { summary: c, value: errorExample(c, field) }]));
      response.content = { "application/json": { schema: { $ref: "#/components/schemas/ErrorBody" }, examples } };
      continue;
    }
    if (!response.description || response.description === "Default Response") response.description = SUCCESS[status] ?? "Success";
    for (const media of Object.values(response.content ?? {})) {
      if (media.schema?.description === response.description) delete media.schema.description;
      if (media.example === undefined && !media.examples && media.schema && media.schema.format !== "binary") {
        const example = exampleOf(media.schema);
        if (example !== undefined) media.example = example;
      }
    }
  }
  delete op["x-error-codes"];
}

/** The served document, finished (a copy). */
export function finishDocument<T>(doc: T): T {
  const copy = structuredClone(doc) as Json & { paths?: Record<string, Record<string, Operation>>; tags?: unknown };
  copy.tags = TAGS.map((t) => ({ ...t }));
  for (const item of Object.values(copy.paths ?? {})) for (const op of Object.values(item)) finishOperation(op);
  return copy as T;
}

/**
 * The route-level half (fastify-swagger's `transform`): the error codes of each response, which
 * the conversion to OpenAPI drops from a `$ref` response, lifted to the operation as
 * `x-error-codes` for finishDocument. Operations of paid-plan features (`x-plans`) also answer
 * PLAN_UPGRADE_REQUIRED.
 */
export function liftErrorCodes<S extends Json>(schema: S): S {
  const response = schema.response as Record<string, Json> | undefined;
  if (!response) return schema;
  const codes: Record<string, ErrorCode[]> = {};
  for (const [status, r] of Object.entries(response)) {
    const listed = r["x-error-codes"] as ErrorCode[] | undefined;
    if (!listed) continue;
    codes[status] = status === "403" && schema["x-plans"] && !listed.includes("PLAN_UPGRADE_REQUIRED") ? [...listed, "PLAN_UPGRADE_REQUIRED"] : listed;
  }
  return Object.keys(codes).length > 0 ? { ...schema, "x-error-codes": codes } : schema;
}
