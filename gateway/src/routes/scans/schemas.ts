import { FULL_PHASES as PHASES, SCAN_TYPES } from "@vulnscan/scan-contract";
import { CURSOR_DESCRIPTION, cursorEnvelopeSchema, cursorQueryProp, envelopeSchema, pageQueryProperties } from "../../rest.js";
import { anySecurity, errorResponses, timestamp, idParams, operation, paidPlansOnly, input } from "../../schemas.js";

/** The scans routes' schemas: what ajv validates, what the handlers' types derive from, what OpenAPI shows. */

const FRAMEWORKS = ["soc2", "iso27001", "pci_dss", "hipaa", "gdpr", "nist_csf", "nist_800_53", "cis_controls"] as const;
const SCAN_STATUSES = ["pending", "running", "completed", "failed", "cancelled"] as const;

const countProps = {
  vulnerabilities_found: { type: "integer" },
  critical_count: { type: "integer" },
  high_count: { type: "integer" },
  medium_count: { type: "integer" },
  low_count: { type: "integer" },
} as const;

const scanListItem = {
  type: "object",
  required: ["id", "target", "scan_type", "status", "progress", "phase", "created_at", ...Object.keys(countProps)],
  properties: {
    id: { type: "string", description: "`scan_<id>`" },
    target: { type: "string" },
    scan_type: { type: "string", enum: SCAN_TYPES },
    status: { type: "string", enum: SCAN_STATUSES },
    progress: { type: "integer", minimum: 0, maximum: 100 },
    phase: { type: "string", description: "Current phase; `complete` when finished; empty while pending" },
    created_at: timestamp,
    completed_at: { ...timestamp, description: "Present once completed" },
    ...countProps,
  },
} as const;

const scanDetail = {
  type: "object",
  required: [...scanListItem.required, "current_tool", "phases_completed", "phases_remaining"],
  properties: {
    ...scanListItem.properties,
    current_tool: { type: "string" },
    started_at: timestamp,
    phases_completed: { type: "array", items: { type: "string", enum: PHASES } },
    phases_remaining: { type: "array", items: { type: "string", enum: PHASES } },
    info_count: { type: "integer" },
    frameworks: { type: "array", items: { type: "string" } },
    ports: { type: "string" },
    estimated_duration: { type: "integer", description: "Seconds, estimated at creation" },
    error: { type: "string", description: "Why the scan failed or was cancelled" },
  },
} as const;

const scheduleSchema = {
  type: "object",
  required: ["id", "target", "scan_type", "frequency", "hour", "timezone", "next_run_at", "created_at"],
  properties: {
    id: { type: "string", description: "`schedule_<id>`" },
    target: { type: "string" },
    scan_type: { type: "string", enum: SCAN_TYPES },
    frequency: { type: "string", enum: ["daily", "weekly", "monthly"] },
    day_of_week: { type: "integer", minimum: 0, maximum: 6, description: "Weekly only; 0 = Sunday" },
    day_of_month: { type: "integer", minimum: 1, maximum: 28, description: "Monthly only" },
    hour: { type: "integer", minimum: 0, maximum: 23 },
    timezone: { type: "string", description: "IANA time zone name" },
    frameworks: { type: "array", items: { type: "string" } },
    ports: { type: "string" },
    next_run_at: timestamp,
    last_scan_id: { type: "string" },
    created_at: timestamp,
  },
} as const;

const op = operation({ tags: ["scans"], security: anySecurity });
const scheduleOp = operation({ tags: ["schedules"], security: anySecurity });

const scanIdParams = idParams("scan_id");
const targetProp = { type: "string", minLength: 1, maxLength: 253, description: "Domain, IPv4/IPv6 address or CIDR range" } as const;
const portsProp = { type: "string", maxLength: 1024, description: 'Ports and ranges, e.g. "22,80,443,8000-8100"; default: common ports' } as const;
const frameworksProp = { type: "array", maxItems: 8, uniqueItems: true, items: { type: "string", enum: FRAMEWORKS } } as const;

/** The answer of a DELETE: the id, the new status, a message. */
const statusAnswer = (status: string) =>
  ({
    type: "object",
    required: ["id", "status", "message"],
    properties: { id: { type: "string" }, status: { type: "string", enum: [status] }, message: { type: "string" } },
  }) as const;

export const createScan = op("Start a scan", {
  description:
    "Queues a scan of a domain, IP address or CIDR range you are authorized to test (`authorized: true`). Targets must lie inside the deployment's scan allowlist and the plan's range cap (else 422 on `target`). " +
    "The scan starts `pending`; follow it with `GET /api/v1/scans/{scan_id}` or the scan.* webhooks. Counts against the monthly quota and the plan's concurrent scans (429). " +
    "`estimated_duration` (seconds) comes from your organization's recent completed scans of the same type, or a default per type when there are none yet.",
  body: input(
    {
      target: targetProp,
      scan_type: { type: "string", enum: SCAN_TYPES, default: "full" },
      frameworks: frameworksProp,
      ports: portsProp,
      // Only `true` is acceptable, so the schema says so (a `false` is refused with 422 on `authorized`).
      authorized: { type: "boolean", enum: [true], description: "Attestation that you are authorized to scan the target; must be true" },
    },
    { required: ["target", "authorized"], examples: [{ target: "app.acme.example", scan_type: "quick", ports: "22,80,443", authorized: true }] },
  ),
  response: {
    201: {
      type: "object",
      required: ["id", "target", "scan_type", "status", "created_at", "estimated_duration"],
      properties: {
        id: { type: "string" },
        target: { type: "string" },
        scan_type: { type: "string", enum: SCAN_TYPES },
        status: { type: "string", enum: ["pending"] },
        created_at: timestamp,
        estimated_duration: {
          type: "integer",
          description: "Seconds: the median of your organization's recent completed scans of this type, or the type's default",
        },
      },
      examples: [
        {
          id: "scan_01JD8N3Q7WX4K2",
          target: "app.acme.example",
          scan_type: "quick",
          status: "pending",
          created_at: "2026-11-27T09:30:00.000Z",
          estimated_duration: 45,
        },
      ],
    },
    ...errorResponses(403, 422, "SCAN_QUOTA_EXCEEDED", "CONCURRENT_SCAN_LIMIT", "TARGET_NOT_VERIFIED", "TARGET_VERIFICATION_EXPIRED"),
  },
});

export const listScans = op("List scans, newest first", {
  description: `Filters combine with AND; ties in created_at are ordered by id. ${CURSOR_DESCRIPTION}`,
  querystring: input({
    ...pageQueryProperties,
    status: { type: "string", enum: SCAN_STATUSES },
    target: { type: "string", maxLength: 253 },
    from_date: { ...timestamp, description: "Scans created at or after" },
    to_date: { ...timestamp, description: "Scans created before" },
    cursor: cursorQueryProp,
  }),
  response: { 200: cursorEnvelopeSchema(scanListItem), ...errorResponses(403, 422) },
});

export const getQuota = op("Scan quota of the current month", {
  description:
    "Scans created this calendar month (UTC) against the plan's monthly limit, and when it resets. On an unlimited plan `unlimited` is true and `monthly_limit` and `remaining` are null.",
  response: {
    200: {
      type: "object",
      required: ["plan", "monthly_limit", "used_this_month", "remaining", "resets_at"],
      properties: {
        plan: { type: "string", enum: ["startup", "professional", "enterprise"] },
        monthly_limit: { type: ["integer", "null"], description: "null when the plan is unlimited" },
        used_this_month: { type: "integer" },
        remaining: { type: ["integer", "null"], description: "null when the plan is unlimited" },
        resets_at: timestamp,
        unlimited: { type: "boolean" },
      },
      examples: [{ plan: "professional", monthly_limit: 150, used_this_month: 37, remaining: 113, resets_at: "2026-12-01T00:00:00.000Z", unlimited: false }],
    },
    ...errorResponses(403),
  },
});

export const createSchedule = scheduleOp("Create a recurring scan (Professional and Enterprise)", {
  ...paidPlansOnly,
  description:
    "Runs a scan of `target` daily, weekly (`day_of_week`) or monthly (`day_of_month`) at `hour` in `timezone`. Each run is an ordinary scan: it counts against the quota and is skipped, not queued, when a limit is reached.",
  body: input(
    {
      target: targetProp,
      scan_type: { type: "string", enum: SCAN_TYPES, default: "full" },
      frequency: { type: "string", enum: ["daily", "weekly", "monthly"] },
      day_of_week: { type: "integer", minimum: 0, maximum: 6, description: "Required for weekly; 0 = Sunday" },
      day_of_month: { type: "integer", minimum: 1, maximum: 28, description: "Required for monthly" },
      hour: { type: "integer", minimum: 0, maximum: 23 },
      timezone: { type: "string", minLength: 1, maxLength: 64, description: "IANA name, e.g. Europe/Berlin" },
      frameworks: frameworksProp,
      ports: portsProp,
      authorized: { type: "boolean", enum: [true], default: true, description: "Attestation recorded for every run; must be true" },
    },
    {
      required: ["target", "frequency", "hour", "timezone"],
      examples: [{ target: "app.acme.example", scan_type: "full", frequency: "weekly", day_of_week: 1, hour: 3, timezone: "Europe/Berlin", authorized: true }],
    },
  ),
  response: { 201: scheduleSchema, ...errorResponses(403, 422, "PLAN_UPGRADE_REQUIRED", "TARGET_NOT_VERIFIED", "TARGET_VERIFICATION_EXPIRED") },
});

export const listSchedules = scheduleOp("List schedules", {
  description: "Your organization's recurring scans with their next run.",
  querystring: input(pageQueryProperties),
  response: { 200: envelopeSchema(scheduleSchema), ...errorResponses(403, 422) },
});

export const deleteSchedule = scheduleOp("Delete a schedule (scans it created are kept)", {
  description: "No further runs are started; scans already created by it, and their findings, stay.",
  params: idParams("schedule_id"),
  response: { 200: statusAnswer("deleted"), ...errorResponses(403, 404) },
});

export const getScan = op("Scan detail with live progress", {
  description: "Status, progress (0–100), the phase and tool now running, the phases done and to come, and the counts per severity so far.",
  params: scanIdParams,
  response: { 200: scanDetail, ...errorResponses(403, 404) },
});

/** One SSE record: its `event` name and its `data` line, which is JSON of the schema named by contentSchema. */
const sseRecord = (event: string, description: string, data: object) =>
  ({
    type: "object",
    description,
    required: ["event", "data"],
    properties: {
      event: { type: "string", enum: [event] },
      data: { type: "string", contentMediaType: "application/json", contentSchema: data },
      id: { type: "string" },
      retry: { type: "integer" },
    },
  }) as const;

/*
 * The schema of each event of the stream (not of the whole body): OpenAPI 3.1 has a sequential
 * media type's `schema` describe one item (3.2 names it itemSchema), and tools such as
 * schemathesis check every record against it, `data` parsed as its contentMediaType.
 */
const scanEventSchema = {
  description: "One event of the stream; `retry:` and keep-alive comment lines carry no event.",
  oneOf: [
    sseRecord("scan", "The scan detail, when the stream opens and each time it changes", scanDetail),
    sseRecord("end", "The scan ended; the stream closes", {
      type: "object",
      required: ["status"],
      properties: { status: { type: "string", enum: ["completed", "failed", "cancelled"] } },
    }),
    sseRecord("error", "The scan could not be read; the stream closes and the client reconnects after `retry`", {
      type: "object",
      required: ["detail"],
      properties: { detail: { type: "string" } },
    }),
  ],
} as const;

export const scanEvents = op("Follow a scan's progress as server-sent events", {
  description:
    "A `text/event-stream` that sends the scan detail (the same JSON as `GET /api/v1/scans/{scan_id}`) as an `event: scan` at once and again each time it changes " +
    "(progress, phase, tool, counts), then `event: end` and closes when the scan is completed, failed or cancelled. " +
    "A comment line keeps the connection alive every 15 s; after 10 minutes the stream closes without `end` and the client reconnects (the `retry:` field says when). " +
    "The whole stream is one request against the hourly and daily rate limits, however long it lasts; " +
    "an unknown scan or another organization's answers 404 as JSON before any event is sent.",
  params: scanIdParams,
  produces: ["text/event-stream"],
  response: {
    200: {
      description: "Events until the scan ends",
      content: {
        "text/event-stream": {
          schema: scanEventSchema,
          example:
            'retry: 2000\n\nevent: scan\ndata: {"id":"scan_1","status":"running","progress":36,"phase":"vulnerability_scanning",…}\n\nevent: end\ndata: {"status":"completed"}\n\n',
        },
      },
    },
    ...errorResponses(403, 404),
  },
});

export const cancelScan = op("Cancel a pending or running scan", {
  description: "Stops the scan's tools; findings written so far are kept. A finished scan answers 400 INVALID_STATE.",
  params: scanIdParams,
  response: { 200: statusAnswer("cancelled"), ...errorResponses(403, 404, "INVALID_STATE") },
});
