import { envelopeSchema, pageQueryProperties } from "../../rest.js";
import { anySecurity, errorResponses, idParams, input, operation, timestamp } from "../../schemas.js";

/** The targets routes' schemas (issue 29): what ajv validates, what the handlers' types derive from, what OpenAPI shows. */

const STATUSES = ["pending", "verified", "expired", "failed"] as const;
const KINDS = ["domain", "ip", "cidr"] as const;
const METHODS = ["dns_txt", "http_file", "reverse_dns", "attestation"] as const;
const CHECKS = ["dns_txt", "http_file", "reverse_dns"] as const;

const challenge = {
  type: "object",
  required: ["method", "location", "value", "instructions"],
  properties: {
    method: { type: "string", enum: METHODS },
    location: { type: "string", description: "Where to publish: the TXT record's name or the file's URL; empty for reverse_dns and attestation" },
    value: { type: "string", description: "What to publish (the TXT value or the file's content); empty for reverse_dns and attestation" },
    instructions: { type: "string" },
  },
} as const;

const verification = {
  type: "object",
  required: ["status", "token", "challenges", "include_subdomains", "proven_addresses"],
  properties: {
    status: { type: "string", enum: STATUSES, description: "pending → verified | failed; verified → expired when a re-check no longer finds the proof" },
    token: { type: "string", description: "The challenge token; `vulnscan-verification=<token>` is what is published" },
    challenges: { type: "array", items: challenge, description: "What to publish, per method this kind of target allows" },
    method: { type: "string", enum: METHODS, description: "The method that proved it (verified, expired)" },
    verified_at: { ...timestamp, description: "When it was proved (verified, expired)" },
    next_check_at: { ...timestamp, description: "Next re-check (every 30 days; none for an operator's attestation)" },
    expired_at: { ...timestamp, description: "When a re-check found the proof gone (expired)" },
    last_error: { type: "string", description: "Why the last check failed (failed, expired; also a verified target's failed check now)" },
    include_subdomains: { type: "boolean", description: "A verified domain covers its subdomains too (the TXT record said `include-subdomains`)" },
    proven_addresses: { type: "array", items: { type: "string" }, description: "Addresses proved with a domain: each served the HTTP file" },
  },
} as const;

const attempt = {
  type: "object",
  required: ["method", "at", "source", "ok", "answer"],
  properties: {
    method: { type: "string", enum: METHODS },
    at: timestamp,
    by: { type: "string", description: "Who asked (email or API key name, the operator for an attestation); absent for re-checks" },
    source: { type: "string", enum: ["api", "recheck", "schedule", "operator"] },
    ok: { type: "boolean" },
    answer: { type: "string", description: "What the look-up found (TXT values, file content, PTR names), shortened" },
    error: { type: "string", description: "Why it failed" },
  },
} as const;

const SEVERITIES = ["critical", "high", "medium", "low", "info"] as const;

const seenPort = {
  type: "object",
  required: ["host", "address", "port", "transport", "service", "product", "first_seen_at", "last_seen_at", "last_scan_id"],
  properties: {
    host: { type: "string", description: "The host as findings name it: its name, else its address" },
    address: { type: "string" },
    port: { type: "integer", minimum: 1, maximum: 65535 },
    transport: { type: "string", enum: ["tcp", "tls"], description: "tls when the service spoke TLS" },
    service: { type: "string", description: "Service as identified (ssh, http, redis…), `unknown` when not" },
    product: { type: "string", description: "Product and version when identified, else empty" },
    first_seen_at: { ...timestamp, description: "When a scan first found it open" },
    last_seen_at: { ...timestamp, description: "When a scan last found it open" },
    last_scan_id: { type: "string", description: "The scan that last found it open" },
  },
} as const;

const inventory = {
  type: "object",
  required: ["last_scan", "open_findings", "sla_breaches", "ports"],
  description:
    "What scans saw of the target, from summaries kept up to date as scans end, ports are reported and findings change (never counted on request). Findings count when their target (host) is the target itself or a host scans reported for it.",
  properties: {
    last_scan: {
      type: ["object", "null"],
      required: ["scan_id", "status", "ended_at"],
      description: "The latest scan that ended whose target overlaps this one; null when none has",
      properties: { scan_id: { type: "string" }, status: { type: "string", enum: ["completed", "failed"] }, ended_at: timestamp },
    },
    open_findings: {
      type: "object",
      required: [...SEVERITIES, "total"],
      description: "Open and in-progress findings by severity",
      properties: Object.fromEntries([...SEVERITIES, "total"].map((k) => [k, { type: "integer", minimum: 0 }])) as Record<
        (typeof SEVERITIES)[number] | "total",
        { type: "integer"; minimum: 0 }
      >,
    },
    sla_breaches: {
      type: "integer",
      minimum: 0,
      description: "Open and in-progress findings past their due date, counted once the breach is announced (finding.sla_breached)",
    },
    ports: { type: "array", items: seenPort, description: "Open ports by address and port, with first and last seen (at most 1000)" },
  },
} as const;

const target = {
  type: "object",
  required: ["id", "target", "kind", "verification", "created_at"],
  properties: {
    id: { type: "string", description: "`target_<id>`" },
    target: { type: "string", description: "Domain (lowercased), IP address or CIDR range" },
    kind: { type: "string", enum: KINDS },
    verification,
    created_at: timestamp,
    attempts: { type: "array", items: attempt, description: "The 20 most recent verification attempts, newest first (one target and verify only)" },
  },
} as const;

const token = "Yq3nX0c2l9VbR7wK4mP1sA8e";
const pendingExample = {
  id: "target_01JD8P2M4W",
  target: "shop.example.com",
  kind: "domain",
  verification: {
    status: "pending",
    token,
    challenges: [
      {
        method: "dns_txt",
        location: "_vulnscan-challenge.shop.example.com",
        value: `vulnscan-verification=${token}`,
        instructions: `Publish a DNS TXT record at _vulnscan-challenge.shop.example.com with the value "vulnscan-verification=${token}". To cover every subdomain of shop.example.com too, publish "vulnscan-verification=${token} include-subdomains". Then ask for a check.`,
      },
      {
        method: "http_file",
        location: "https://shop.example.com/.well-known/vulnscan-verification.txt",
        value: `vulnscan-verification=${token}`,
        instructions: `Serve a file at /.well-known/vulnscan-verification.txt on shop.example.com (HTTPS, or HTTP) whose content is "vulnscan-verification=${token}". Redirects are not followed. Then ask for a check.`,
      },
    ],
    last_error: "",
    include_subdomains: false,
    proven_addresses: [],
  },
  created_at: "2026-11-27T09:30:00.000Z",
};
const verifiedExample = {
  ...pendingExample,
  verification: {
    ...pendingExample.verification,
    status: "verified",
    method: "http_file",
    verified_at: "2026-11-27T09:41:12.000Z",
    next_check_at: "2026-12-27T09:41:12.000Z",
    proven_addresses: ["203.0.113.10"],
  },
  attempts: [
    {
      method: "http_file",
      at: "2026-11-27T09:41:12.000Z",
      by: "ann@example.com",
      source: "api",
      ok: true,
      answer: `203.0.113.10: "vulnscan-verification=${token}\\n"`,
    },
    {
      method: "dns_txt",
      at: "2026-11-27T09:35:02.000Z",
      by: "ann@example.com",
      source: "api",
      ok: false,
      answer: "(no TXT record)",
      error: "no TXT record at _vulnscan-challenge.shop.example.com",
    },
  ],
};
const inventoryExample = {
  ...verifiedExample,
  inventory: {
    last_scan: { scan_id: "scan_01JD8Q7T2C", status: "completed", ended_at: "2026-11-27T10:12:40.000Z" },
    open_findings: { critical: 0, high: 2, medium: 1, low: 0, info: 1, total: 4 },
    sla_breaches: 1,
    ports: [
      {
        host: "shop.example.com",
        address: "203.0.113.10",
        port: 443,
        transport: "tls",
        service: "http",
        product: "nginx 1.18.0",
        first_seen_at: "2026-11-27T09:58:03.000Z",
        last_seen_at: "2026-11-27T10:05:51.000Z",
        last_scan_id: "scan_01JD8Q7T2C",
      },
    ],
  },
};

const op = operation({ tags: ["targets"], security: anySecurity });
const targetIdParams = idParams("target_id");

export const createTarget = op("Add a target to verify", {
  description:
    "A domain, IP address or CIDR range your organization will prove it owns before scanning it (the same syntax and operator policy as a scan's target). The answer carries the challenge token and what to publish for each method. Scans and schedules of anything outside the operator's own networks answer 403 TARGET_NOT_VERIFIED until a target covering every address they would touch is verified.",
  body: input({ target: { type: "string", minLength: 1, maxLength: 253, description: "Domain, IPv4/IPv6 address or CIDR range" } }, { required: ["target"] }),
  response: { 201: { ...target, examples: [pendingExample] }, ...errorResponses(403, 409, 422) },
});

export const listTargets = op("List targets, newest first", {
  description: "The organization's targets with their verification state; filter by `status` and `kind` (combined with AND).",
  querystring: input({ ...pageQueryProperties, status: { type: "string", enum: STATUSES }, kind: { type: "string", enum: KINDS } }),
  response: {
    200: { ...envelopeSchema(target), examples: [{ items: [pendingExample], total: 1, page: 1, per_page: 20, pages: 1 }] },
    ...errorResponses(403, 422),
  },
});

export const getTarget = op("One target with its verification, recent attempts and inventory", {
  description:
    "The verification state (what to publish while pending; method, time and next re-check once verified; the reason when failed or expired), the 20 most recent attempts (who asked, when, which method, what was found) and the inventory: the last scan, open findings by severity, SLA breaches, and the open ports and services scans found with when each was first and last seen.",
  params: targetIdParams,
  response: {
    200: {
      ...target,
      required: [...target.required, "inventory"],
      properties: { ...target.properties, inventory },
      examples: [inventoryExample],
    },
    ...errorResponses(403, 404),
  },
});

export const deleteTarget = op("Delete a target", {
  description: "Scans it allowed are kept; later scans of what only it covered are refused.",
  params: targetIdParams,
  response: {
    200: {
      type: "object",
      required: ["id", "status", "message"],
      properties: { id: { type: "string" }, status: { type: "string", enum: ["deleted"] }, message: { type: "string" } },
      examples: [{ id: "target_01JD8P2M4W", status: "deleted", message: "Target deleted" }],
    },
    ...errorResponses(403, 404),
  },
});

export const verifyTarget = op("Check a target's proof now", {
  description:
    "Looks for the proof with `method`, or with each method the target allows, and records every attempt. DNS answers come from the installation's resolver; HTTP look-ups follow the webhooks' egress rules (public addresses only unless the operator allows more; redirects are not followed). A domain is verified by `dns_txt` (the name only) or `http_file` (the name and every address it served the file from); an IP or range by `reverse_dns` (every address's PTR under a verified domain), `http_file` on every address, or the operator's attestation. The answer is the target after the check: `verified`, or `failed` with `last_error`.",
  params: targetIdParams,
  body: input({ method: { type: "string", enum: CHECKS, description: "One method; absent tries each the target allows" } }),
  response: { 200: { ...target, examples: [verifiedExample] }, ...errorResponses(403, 404, 409, 422) },
});
