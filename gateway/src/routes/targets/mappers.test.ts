import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { GetTargetCountsResponseSchema } from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import { TargetInventorySchema } from "@vulnscan/proto/vulnscan/scans/v1/targets_service_pb.js";
import { describe, expect, it } from "vitest";
import { inventoryJson } from "./mappers.js";

describe("target inventory JSON", () => {
  it("joins the orchestrator's summary with findings' counts; the total is the sum of the severities", () => {
    const at = (h: number) => timestampFromDate(new Date(Date.UTC(2026, 10, 27, h)));
    const inv = create(TargetInventorySchema, {
      lastScan: { scanId: "scan_1", status: "failed", endedAt: at(3) },
      ports: [
        {
          host: "db.lab.test",
          address: "10.0.0.5",
          port: 6379,
          transport: "tcp",
          service: "redis",
          product: "",
          firstSeenAt: at(1),
          lastSeenAt: at(2),
          lastScanId: "scan_0",
        },
      ],
      hosts: ["10.0.0.0/24", "db.lab.test"],
    });
    const counts = create(GetTargetCountsResponseSchema, { open: { critical: 1, high: 0, medium: 2, low: 0, info: 4 }, slaBreached: 1 });
    expect(inventoryJson(inv, counts)).toEqual({
      last_scan: { scan_id: "scan_1", status: "failed", ended_at: "2026-11-27T03:00:00.000Z" },
      open_findings: { critical: 1, high: 0, medium: 2, low: 0, info: 4, total: 7 },
      sla_breaches: 1,
      ports: [
        {
          host: "db.lab.test",
          address: "10.0.0.5",
          port: 6379,
          transport: "tcp",
          service: "redis",
          product: "",
          first_seen_at: "2026-11-27T01:00:00.000Z",
          last_seen_at: "2026-11-27T02:00:00.000Z",
          last_scan_id: "scan_0",
        },
      ],
    });
  });

  it("is empty, with a null last scan, before any scan", () => {
    expect(inventoryJson(undefined, create(GetTargetCountsResponseSchema, {}))).toEqual({
      last_scan: null,
      open_findings: { critical: 0, high: 0, medium: 0, low: 0, info: 0, total: 0 },
      sla_breaches: 0,
      ports: [],
    });
  });
});
