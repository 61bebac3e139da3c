import { describeApi } from "../../gateway/src/describe.js";
import { unique } from "../support/names.js";

/*
 * Every operation of the OpenAPI document, as the gateway generates it from its route schemas,
 * and one way to call each successfully with an organization's real resources. The
 * authorization matrix (test/e2e/authz-matrix.test.ts) and the injection and input-size
 * regressions (test/security/) iterate over the same list, so a new route is covered by both.
 */

export const PERMISSIONS = ["read:scans", "write:scans", "read:findings", "write:findings", "read:grc", "write:grc"] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Path parameters of the document, each a real resource of organization 1. */
export const PARAMS = [
  "scan_id",
  "schedule_id",
  "finding_id",
  "webhook_id",
  "delivery_id",
  "control_id",
  "evidence_id",
  "audit_request_id",
  "session_id",
  "api_key_id",
  "target_id",
] as const;
export type Param = (typeof PARAMS)[number];
export type Ids = Record<Param, string>;

export interface Entry {
  /**
   * The owner's outcome: the documented success, or (MFA codes) the domain's answer, which
   * proves the guard let it through. Several when the document gives several (health: 503 degraded).
   */
  ok: number | number[];
  query?: string;
  body?: (ids: Ids) => unknown;
  form?: Record<string, string>;
  multipart?: true;
  /** Side-effecting on the resource: every case expected to succeed gets a new one, so fixtures survive. */
  fresh?: Param[];
  /** Ends every session of the caller: runs after all other operations, the owner's case last. */
  endsSessions?: true;
}

export const scanBody = { target: "127.0.0.1", scan_type: "quick", ports: "9", authorized: true };
/** A target nobody else has: an address of loopback (the local stack's verified networks), so creating it needs no DNS. */
export const targetBody = () => ({
  target: `127.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250) + 1}`,
});
export const webhookBody = () => ({ name: unique("hook"), url: "https://127.0.0.1:9/hook", events: ["scan.completed"] });

/** How to call each operation (keyed `METHOD /path/{param}` as in the document). */
export const ENTRIES: Record<string, Entry> = {
  "GET /api/health": { ok: [200, 503] },
  "POST /api/v1/auth/token": { ok: 200, form: {} },
  "POST /api/v1/auth/refresh": { ok: 200 },
  "GET /api/v1/auth/sessions": { ok: 200 },
  "DELETE /api/v1/auth/sessions/{session_id}": { ok: 200, fresh: ["session_id"] },
  "POST /api/v1/auth/logout-all": { ok: 200, endsSessions: true },
  "POST /api/v1/auth/mfa/setup": { ok: 200 },
  // A successful enable/disable needs a fresh TOTP step per call (auth.test.ts covers it); a
  // wrong code answers from the domain, after the guard.
  // Enable answers 400 INVALID_STATE without a setup pending (another case may have finished or
  // replaced it), else 422 on the wrong code.
  "POST /api/v1/auth/mfa/enable": { ok: [400, 422], body: () => ({ code: "000000" }) },
  "POST /api/v1/auth/mfa/disable": { ok: 400, body: () => ({ code: "000000" }) },
  // MFA is not on for the matrix's users: 400 INVALID_STATE from the domain, after the guard.
  "POST /api/v1/auth/mfa/recovery-codes": { ok: 400, body: () => ({ code: "000000" }) },
  "GET /api/v1/auth/me": { ok: 200 },
  "POST /api/v1/auth/api-keys": { ok: 201, body: () => ({ name: unique("key"), permissions: ["read:scans"] }) },
  "GET /api/v1/auth/api-keys": { ok: 200 },
  "DELETE /api/v1/auth/api-keys/{api_key_id}": { ok: 200, fresh: ["api_key_id"] },
  "POST /api/v1/auth/docs-cookie": { ok: 204 },
  "POST /api/v1/scans": { ok: 201, body: () => scanBody },
  "GET /api/v1/scans": { ok: 200 },
  "GET /api/v1/scans/quota": { ok: 200 },
  "POST /api/v1/scans/schedules": {
    ok: 201,
    body: () => ({ target: "127.0.0.1", scan_type: "quick", ports: "9", frequency: "daily", hour: 3, timezone: "UTC" }),
  },
  "GET /api/v1/scans/schedules": { ok: 200 },
  "DELETE /api/v1/scans/schedules/{schedule_id}": { ok: 200, fresh: ["schedule_id"] },
  "GET /api/v1/scans/{scan_id}": { ok: 200 },
  "DELETE /api/v1/scans/{scan_id}": { ok: 200, fresh: ["scan_id"] },
  // Streams until the scan ends: the matrix's scan of a closed port ends within seconds.
  "GET /api/v1/scans/{scan_id}/events": { ok: 200 },
  "GET /api/v1/scans/{scan_id}/findings": { ok: 200 },
  // The matrix's scan may still run, or have no earlier completed scan of its target: the domain's
  // 400 INVALID_STATE proves the guard let the call through as well as a comparison does.
  "GET /api/v1/scans/{scan_id}/diff": { ok: [200, 400] },
  "POST /api/v1/targets": { ok: 201, body: targetBody },
  "GET /api/v1/targets": { ok: 200 },
  "GET /api/v1/targets/{target_id}": { ok: 200 },
  "DELETE /api/v1/targets/{target_id}": { ok: 200, fresh: ["target_id"] },
  // Reverse DNS without a verified domain fails at once, without a look-up: the check's answer (200, failed) is the domain's.
  "POST /api/v1/targets/{target_id}/verify": { ok: 200, body: () => ({ method: "reverse_dns" }) },
  "GET /api/v1/findings": { ok: 200 },
  "GET /api/v1/findings/stats": { ok: 200 },
  "GET /api/v1/findings/export": { ok: 200, query: "format=csv" },
  "POST /api/v1/findings/bulk": { ok: 200, body: (ids) => ({ finding_ids: [ids.finding_id], update: { status: "open" } }) },
  "GET /api/v1/findings/{finding_id}": { ok: 200 },
  "PATCH /api/v1/findings/{finding_id}": { ok: 200, body: () => ({ status: "in_progress" }) },
  "POST /api/v1/findings/{finding_id}/comments": { ok: 201, body: () => ({ text: "matrix" }) },
  "GET /api/v1/findings/{finding_id}/ai-analysis": { ok: 200 },
  // One retest runs per finding: a later allowed caller is answered by the domain (400 INVALID_STATE) until it ends.
  "POST /api/v1/findings/{finding_id}/retest": { ok: [202, 400], body: () => ({}) },
  "GET /api/v1/findings/{finding_id}/retests": { ok: 200 },
  "GET /api/v1/findings/policy": { ok: 200 },
  "PUT /api/v1/findings/policy": {
    ok: 200,
    body: () => ({ sla_days: { critical: 7, high: 30, medium: 90, low: 180, info: null }, require_acceptance_approval: false }),
  },
  // The matrix's finding has no acceptance waiting: a caller allowed this far is answered by the domain (409).
  "POST /api/v1/findings/{finding_id}/acceptance/decision": { ok: 409, body: () => ({ decision: "approve" }) },
  "POST /api/v1/webhooks": { ok: 201, body: webhookBody },
  "GET /api/v1/webhooks": { ok: 200 },
  "GET /api/v1/webhooks/{webhook_id}": { ok: 200 },
  "PATCH /api/v1/webhooks/{webhook_id}": { ok: 200, body: () => ({ name: unique("renamed") }) },
  "DELETE /api/v1/webhooks/{webhook_id}": { ok: 204, fresh: ["webhook_id"] },
  "POST /api/v1/webhooks/{webhook_id}/test": { ok: 200 },
  "GET /api/v1/webhooks/{webhook_id}/deliveries": { ok: 200 },
  "POST /api/v1/webhooks/{webhook_id}/deliveries/replay": { ok: 202, body: () => ({}) },
  "POST /api/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/retry": { ok: 200 },
  "GET /api/v1/controls": { ok: 200 },
  "GET /api/v1/controls/{control_id}": { ok: 200 },
  "PATCH /api/v1/controls/{control_id}": { ok: 200, body: () => ({ notes: "matrix" }) },
  "POST /api/v1/controls/{control_id}/evidence": { ok: 201, multipart: true },
  "GET /api/v1/evidence": { ok: 200 },
  "GET /api/v1/evidence/{evidence_id}": { ok: 200 },
  "GET /api/v1/evidence/{evidence_id}/download": { ok: 200 },
  "DELETE /api/v1/evidence/{evidence_id}": { ok: 204, fresh: ["evidence_id"] },
  "GET /api/v1/frameworks": { ok: 200 },
  "POST /api/v1/audit-requests": { ok: 201, body: () => ({ framework: "soc2", title: "Matrix" }) },
  "GET /api/v1/audit-requests": { ok: 200 },
  "GET /api/v1/audit-requests/{audit_request_id}": { ok: 200 },
  "POST /api/v1/audit-requests/{audit_request_id}/answer": { ok: 200, body: () => ({ answer: "See the evidence", status: "in_progress" }) },
};

export interface Operation {
  method: string;
  path: string;
  key: string;
  /** "public" (security: []), "bearer" (bearer token only) or "any" (bearer or API key). */
  access: "public" | "bearer" | "any";
  permission?: Permission;
  gated: boolean;
  params: Param[];
  /** Query parameters (the filters) and the JSON body's top-level properties. */
  query: string[];
  bodyProperties: string[];
  /** The body's media type, when the operation takes one. */
  bodyType?: string;
}

/**
 * The operations of the document the gateway generates from its route schemas. It is built
 * in-process (no upstream is called to describe routes) so vitest can name one case per
 * operation before the system runs; the matrix checks it equals the served /openapi.json.
 */
export async function documentOperations(): Promise<{ doc: OpenApi; ops: Operation[] }> {
  const doc = (await describeApi()) as unknown as OpenApi;
  return { doc, ops: operationsOf(doc) };
}

/** The parts of an OpenAPI operation the tests read. */
export interface OpenApiOperation {
  security?: { [k: string]: string[] }[];
  "x-permission"?: string;
  "x-plans"?: string[];
  parameters?: { in: string; name: string; schema?: { type?: string | string[] } }[];
  requestBody?: { content: Record<string, { schema?: { properties?: Record<string, { type?: string | string[] }> } }> };
}

export interface OpenApi {
  info: { version: string };
  security: { [k: string]: string[] }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
}

export function operationsOf(doc: OpenApi): Operation[] {
  const ops: Operation[] = [];
  for (const [p, methods] of Object.entries(doc.paths)) {
    for (const [m, op] of Object.entries(methods)) {
      const security = op.security ?? doc.security;
      const schemes = new Set(security.flatMap((s) => Object.keys(s)));
      const access = security.length === 0 ? "public" : schemes.has("apiKeyAuth") ? "any" : "bearer";
      const params = [...p.matchAll(/\{(\w+)\}/g)].map((x) => x[1] as Param);
      ops.push({
        method: m.toUpperCase(),
        path: p,
        key: `${m.toUpperCase()} ${p}`,
        access,
        permission: op["x-permission"] as Permission | undefined,
        gated: (op["x-plans"] ?? []).length > 0 && !(op["x-plans"] ?? []).includes("startup"),
        params,
        query: (op.parameters ?? []).filter((x) => x.in === "query").map((x) => x.name),
        bodyProperties: Object.keys(Object.values(op.requestBody?.content ?? {})[0]?.schema?.properties ?? {}),
        bodyType: Object.keys(op.requestBody?.content ?? {})[0] ?? (ENTRIES[`${m.toUpperCase()} ${p}`]?.multipart ? "multipart/form-data" : undefined),
      });
    }
  }
  // Operations that end the caller's sessions run last (their owner case last of all).
  return ops.sort((a, b) => Number(!!ENTRIES[a.key]?.endsSessions) - Number(!!ENTRIES[b.key]?.endsSessions));
}
