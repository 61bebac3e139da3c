import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { errorInfoOf, errorInterceptor } from "@vulnscan/kit/errors";
import { createLogger } from "@vulnscan/kit/logger";
import {
  Confidence,
  ExportFormat,
  FindingService,
  FindingSortField,
  FindingStatus,
  Severity,
  SortOrder,
} from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import { describe, expect, it } from "vitest";
import { detection } from "../domain/test-fixtures.js";
import { testFindings } from "../testing.js";
import { FindingRpcService } from "./finding-service.js";
import { findingRoutes } from "./routes.js";

function rpcFor() {
  const t = testFindings();
  const logger = createLogger("findings-rpc-test", "silent");
  const transport = createRouterTransport(findingRoutes(new FindingRpcService(t, logger)), { router: { interceptors: [errorInterceptor(logger)] } });
  return { t, rpc: createClient(FindingService, transport) };
}

async function failure(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    const ce = ConnectError.from(err);
    return { code: ce.code, ...errorInfoOf(ce) };
  }
  throw new Error("expected a failure");
}

describe("FindingService mapping (in-memory transport)", () => {
  it("lists with enum filters and sort, and gets, updates and comments one finding", async () => {
    const { t, rpc } = rpcFor();
    const high = await t.ingestion.ingest(detection({ detection_id: "d1", severity: "high", cvss_score: 7 }));
    await t.ingestion.ingest(detection({ detection_id: "d2", template_id: "other", severity: "critical", cvss_score: 9.8 }));
    const list = await rpc.listFindings({ orgId: "org_a", sort: FindingSortField.CVSS_SCORE, order: SortOrder.ASC });
    expect(list.findings.map((f) => f.cvssScore)).toEqual([7, 9.8]);
    expect(list.pageInfo).toMatchObject({ total: 2, page: 1, perPage: 20, pages: 1 });
    const filtered = await rpc.listFindings({ orgId: "org_a", filter: { severity: Severity.HIGH } });
    expect(filtered.findings.map((f) => f.id)).toEqual([high.findingId]);
    const updated = await rpc.updateFinding({
      orgId: "org_a",
      findingId: high.findingId,
      status: FindingStatus.IN_PROGRESS,
      actor: { userId: "u1", displayName: "Ana" },
    });
    expect(updated.finding).toMatchObject({ status: FindingStatus.IN_PROGRESS });
    const { comment } = await rpc.addComment({ orgId: "org_a", findingId: high.findingId, text: "on it", actor: { userId: "u1", displayName: "Ana" } });
    expect(comment).toMatchObject({ findingId: high.findingId, user: "Ana", text: "on it" });
    const { finding } = await rpc.getFinding({ orgId: "org_a", findingId: high.findingId });
    expect(finding!.comments.map((c) => c.text)).toEqual(["on it"]);
    expect(finding!.history.map((h) => h.action)).toContain("status_changed");
  });

  it("refuses bad input with the field named, and answers NotFound for another organization's finding", async () => {
    const { t, rpc } = rpcFor();
    const { findingId } = await t.ingestion.ingest(detection({ detection_id: "d1" }));
    expect(await failure(rpc.listFindings({ orgId: "org_a", filter: { severity: Severity.UNSPECIFIED } }))).toEqual({
      code: Code.InvalidArgument,
      errorCode: "VALIDATION_ERROR",
      field: "severity",
    });
    expect(await failure(rpc.getFinding({ orgId: "", findingId }))).toMatchObject({ code: Code.InvalidArgument, field: "org_id" });
    expect(await failure(rpc.getFinding({ orgId: "org_b", findingId }))).toMatchObject({ code: Code.NotFound, errorCode: "NOT_FOUND" });
    expect(await failure(rpc.updateFinding({ orgId: "org_b", findingId, status: FindingStatus.RESOLVED }))).toMatchObject({ code: Code.NotFound });
    expect((await rpc.getFinding({ orgId: "org_a", findingId })).finding!.status).toBe(FindingStatus.OPEN);
  });

  it("keeps each finding's confidence, filters on it, and exports it", async () => {
    const { t, rpc } = rpcFor();
    const sure = await t.ingestion.ingest(detection({ detection_id: "d1", confidence: "confirmed" }));
    const guess = await t.ingestion.ingest(
      detection({ detection_id: "d2", template_id: "cve:CVE-2024-6387", confidence: "version_match_unverified_backport" }),
    );
    const old = await t.ingestion.ingest(detection({ detection_id: "d3", template_id: "from-an-older-scanner" }));
    const byId = new Map((await rpc.listFindings({ orgId: "org_a" })).findings.map((f) => [f.id, f.confidence]));
    expect([byId.get(sure.findingId), byId.get(guess.findingId), byId.get(old.findingId)]).toEqual([
      Confidence.CONFIRMED,
      Confidence.VERSION_MATCH_UNVERIFIED_BACKPORT,
      Confidence.UNSPECIFIED,
    ]);
    const filtered = await rpc.listFindings({ orgId: "org_a", filter: { confidence: Confidence.VERSION_MATCH_UNVERIFIED_BACKPORT } });
    expect(filtered.findings.map((f) => f.id)).toEqual([guess.findingId]);
    expect(filtered.pageInfo?.total).toBe(1);
    expect(await failure(rpc.listFindings({ orgId: "org_a", filter: { confidence: Confidence.UNSPECIFIED } }))).toMatchObject({ field: "confidence" });
    const parts = [];
    for await (const m of rpc.exportFindings({ orgId: "org_a", format: ExportFormat.CSV, filter: { confidence: Confidence.CONFIRMED } })) parts.push(m);
    const lines = Buffer.concat(parts.slice(1).map((p) => Buffer.from(p.chunk)))
      .toString()
      .trim()
      .split("\r\n");
    expect(lines[0]!.split(",").at(-1)).toBe("confidence");
    expect(lines.slice(1).map((l) => l.split(",").at(-1))).toEqual(["confirmed"]);
  });

  it("streams a CSV export with its metadata first", async () => {
    const { t, rpc } = rpcFor();
    await t.ingestion.ingest(detection({ detection_id: "d1", title: "=1+1" }));
    const parts = [];
    for await (const m of rpc.exportFindings({ orgId: "org_a", format: ExportFormat.CSV })) parts.push(m);
    expect(parts[0]).toMatchObject({ contentType: "text/csv" });
    const body = Buffer.concat(parts.slice(1).map((p) => Buffer.from(p.chunk))).toString();
    expect(body.split("\r\n")[1]).toContain(",'=1+1,");
  });
});
