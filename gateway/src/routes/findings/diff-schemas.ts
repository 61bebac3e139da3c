import { anySecurity, errorResponses, idParams, input, operation } from "../../schemas.js";

/** Route schema of comparing two scans (issue 28). */

export const NOT_COVERED_REASONS = ["host_down", "port_not_open", "no_answer", "check_not_run", "no_coverage"] as const;

const item = {
  type: "object",
  required: ["finding_id", "title", "severity", "status", "target", "affected_component", "template_id", "tool", "reason"],
  properties: {
    finding_id: { type: "string" },
    title: { type: "string" },
    severity: { type: "string", enum: ["critical", "high", "medium", "low", "info"] },
    status: { type: "string", description: "The finding's status now" },
    target: { type: "string" },
    affected_component: { type: "string" },
    template_id: { type: "string" },
    tool: { type: "string" },
    reason: {
      type: ["string", "null"],
      enum: [...NOT_COVERED_REASONS, null],
      description:
        "For `not_covered`, why the newer scan did not cover the check: `host_down` (the host did not answer), `port_not_open` (the port was closed, filtered or not in the scan's ports), `no_answer` (the port accepted connections and said nothing), `check_not_run` (the check was not run against the component: a phase skipped, cut short or not in the scan type, a check that failed), `no_coverage` (the scan recorded no coverage); null in the other buckets",
    },
  },
} as const;

const bucket = (description: string) =>
  ({
    type: "object",
    required: ["count", "items"],
    description,
    properties: {
      count: { type: "integer", description: "Findings in the bucket (all of them)" },
      items: { type: "array", items: item, description: "Up to `limit`, most severe first" },
    },
  }) as const;

const scanRef = {
  type: "object",
  required: ["id", "target", "status", "created_at"],
  properties: { id: { type: "string" }, target: { type: "string" }, status: { type: "string" }, created_at: { type: "string", format: "date-time" } },
} as const;

export const scanDiff = operation({ tags: ["scans", "findings"], security: anySecurity })("Compare a scan with an earlier one", {
  description:
    "The findings of the scan compared with those of `against` (same organization and target; by default the latest completed scan of the target created before it). `new`: detected now, not then; `regressed`: detected now after having been resolved; `unchanged`: detected in both; `fixed`: detected then, not now, although this scan ran the same check against the same component and the component answered; `not_covered`: detected then, not now, and this scan did not cover the check on that component (`reason` says why). Nothing is ever called fixed because it was merely absent. Needs `read:findings`, like the scan's findings list.",
  params: idParams("scan_id"),
  querystring: input({
    against: { type: "string", minLength: 1, maxLength: 128, description: "The scan to compare with (default: the previous completed scan of the target)" },
    limit: { type: "integer", minimum: 1, maximum: 500, default: 100, description: "Items listed per bucket at most (counts are always whole)" },
  }),
  response: {
    200: {
      type: "object",
      required: ["scan", "against", "coverage_recorded", "counts", "new", "fixed", "regressed", "unchanged", "not_covered"],
      properties: {
        scan: scanRef,
        against: scanRef,
        coverage_recorded: {
          type: "boolean",
          description: "The scan recorded its coverage; false (a scan from before coverage existed) puts every absent finding in not_covered",
        },
        counts: {
          type: "object",
          required: ["new", "fixed", "regressed", "unchanged", "not_covered"],
          properties: {
            new: { type: "integer" },
            fixed: { type: "integer" },
            regressed: { type: "integer" },
            unchanged: { type: "integer" },
            not_covered: { type: "integer" },
          },
        },
        new: bucket("Detected by this scan and not by `against`"),
        fixed: bucket("Detected by `against`; this scan covered the check on the component and it did not match"),
        regressed: bucket("Detected by this scan after having been resolved"),
        unchanged: bucket("Detected by both scans"),
        not_covered: bucket("Detected by `against`; this scan did not cover the check on the component"),
      },
      examples: [
        {
          scan: { id: "scan_01JD7Q3W6XK2M8S4B9ZC5T1V0E", target: "10.77.0.2", status: "completed", created_at: "2026-11-27T21:00:00.000Z" },
          against: { id: "scan_01JD7P9Y2F6G3H4J5K6L7M8N9P", target: "10.77.0.2", status: "completed", created_at: "2026-11-26T21:00:00.000Z" },
          coverage_recorded: true,
          counts: { new: 0, fixed: 1, regressed: 0, unchanged: 4, not_covered: 1 },
          new: { count: 0, items: [] },
          fixed: {
            count: 1,
            items: [
              {
                finding_id: "finding_01JD7P9Y2F6G3H4J5K6L7M8N9P",
                title: "Redis without authentication",
                severity: "critical",
                status: "open",
                target: "10.77.0.2",
                affected_component: "tcp://10.77.0.2:6379",
                template_id: "redis-unauth",
                tool: "templates",
                reason: null,
              },
            ],
          },
          regressed: { count: 0, items: [] },
          unchanged: { count: 4, items: [] },
          not_covered: {
            count: 1,
            items: [
              {
                finding_id: "finding_01JD7P9Y2F6G3H4J5K6L7M8N9Q",
                title: "Memcached exposed without authentication",
                severity: "high",
                status: "open",
                target: "10.77.0.2",
                affected_component: "tcp://10.77.0.2:11211",
                template_id: "memcached-unauth",
                tool: "templates",
                reason: "port_not_open",
              },
            ],
          },
        },
      ],
    },
    ...errorResponses(403, 404, 422, "INVALID_STATE"),
  },
});
