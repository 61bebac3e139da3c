import { Readable } from "node:stream";
import type { Client } from "@connectrpc/connect";
import { ExportFormat, FindingStatus, Severity, type FindingService } from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import type { ScanService } from "@vulnscan/proto/vulnscan/scans/v1/scans_service_pb.js";
import { enumValue } from "@vulnscan/kit";
import { principalOf } from "../../auth/guard.js";
import { HttpError } from "../../errors.js";
import { actorOf, cursorEnvelope, dateParam } from "../../rest.js";
import type { ReplyOf, RequestOf } from "../typed.js";
import * as map from "./mappers.js";
import type * as schema from "./schemas.js";

/** An export streams for as long as it takes; the usual upstream deadline would cut it. */
const EXPORT_TIMEOUT_MS = 60 * 60_000;

/**
 * The findings routes' handlers: take the validated request, call one findings RPC, shape the
 * answer with the mappers. `scans`, when given, checks a scan exists in the caller's
 * organization before its findings are listed (404 otherwise), as findings_service.proto asks.
 */
export function findingHandlers(findings: Client<typeof FindingService>, scans?: Pick<Client<typeof ScanService>, "getScan">) {
  async function listFindings(req: RequestOf<typeof schema.listFindings>) {
    const q = req.query;
    const res = await findings.listFindings({
      orgId: principalOf(req).orgId,
      pagination: { page: q.page, perPage: q.per_page },
      filter: map.filterOf(q),
      ...map.sortOf(q),
      cursor: q.cursor ?? "",
    });
    return cursorEnvelope(res.findings.map(map.listItem), res.pageInfo, res.nextCursor);
  }

  async function findingStats(req: RequestOf<typeof schema.findingStats>) {
    const q = req.query;
    const stats = await findings.getStats({
      orgId: principalOf(req).orgId,
      fromDate: dateParam(q.from_date, "from_date"),
      toDate: dateParam(q.to_date, "to_date"),
      target: q.target,
    });
    return map.statsJson(stats);
  }

  async function exportFindings(req: RequestOf<typeof schema.exportFindings>, reply: ReplyOf<typeof schema.exportFindings>) {
    const q = req.query;
    const abort = new AbortController();
    reply.raw.on("close", () => {
      if (!reply.raw.writableFinished) abort.abort();
    });
    const stream = findings.exportFindings(
      { orgId: principalOf(req).orgId, format: enumValue(ExportFormat, q.format), filter: map.filterOf(q), ...map.sortOf(q) },
      { timeoutMs: EXPORT_TIMEOUT_MS, signal: abort.signal },
    );
    const it = stream[Symbol.asyncIterator]();
    // The first message carries the metadata; a refused export fails here, before any byte is sent.
    const first = await it.next();
    if (first.done) throw new HttpError(500, "INTERNAL_ERROR", "Internal server error");
    const head = first.value;
    async function* bytes() {
      if (head.chunk.length) yield Buffer.from(head.chunk);
      for (;;) {
        const next = await it.next();
        if (next.done) return;
        if (next.value.chunk.length) yield Buffer.from(next.value.chunk);
      }
    }
    return reply
      .header("content-type", head.contentType)
      .header("content-disposition", `attachment; filename="${head.filename.replace(/[^A-Za-z0-9._-]/g, "_")}"`)
      .send(Readable.from(bytes()));
  }

  async function bulkUpdate(req: RequestOf<typeof schema.bulkUpdate>) {
    const p = principalOf(req);
    const res = await findings.bulkUpdate(
      { orgId: p.orgId, findingIds: req.body.finding_ids, ...map.bulkChangesOf(req.body.update), actor: actorOf(p) },
      { timeoutMs: 120_000 },
    );
    return map.bulkJson(res);
  }

  async function getFinding(req: RequestOf<typeof schema.getFinding>) {
    const { finding } = await findings.getFinding({ orgId: principalOf(req).orgId, findingId: req.params.finding_id });
    return map.detail(finding!);
  }

  async function updateFinding(req: RequestOf<typeof schema.updateFinding>) {
    const p = principalOf(req);
    // A PATCH may come without a body: nothing to change, and the finding is answered as it is.
    const res = await findings.updateFinding({ orgId: p.orgId, findingId: req.params.finding_id, ...map.changesOf(req.body ?? {}), actor: actorOf(p) });
    return map.updated(res.finding!);
  }

  async function addComment(req: RequestOf<typeof schema.addComment>, reply: ReplyOf<typeof schema.addComment>) {
    const p = principalOf(req);
    const res = await findings.addComment({ orgId: p.orgId, findingId: req.params.finding_id, text: req.body.text, actor: actorOf(p) });
    return reply.code(201).send(map.commentJson(res.comment!));
  }

  async function aiAnalysis(req: RequestOf<typeof schema.aiAnalysis>) {
    const p = principalOf(req);
    const res = await findings.getAiAnalysis({ orgId: p.orgId, findingId: req.params.finding_id, actor: actorOf(p) }, { timeoutMs: 60_000 });
    return map.aiAnalysisJson(res);
  }

  async function scanFindings(req: RequestOf<typeof schema.scanFindings>) {
    const { scan_id } = req.params;
    const q = req.query;
    const orgId = principalOf(req).orgId;
    // The scan's existence (404 for an unknown or another organization's scan) is asked beside
    // the listing, which is scoped to the organization anyway: one round trip, not two.
    const [, res] = await Promise.all([
      scans?.getScan({ orgId, scanId: scan_id }),
      findings.listScanFindings({
        orgId,
        scanId: scan_id,
        ...(q.severity ? { severity: enumValue(Severity, q.severity) } : {}),
        ...(q.status ? { status: enumValue(FindingStatus, q.status) } : {}),
      }),
    ]);
    return { items: res.findings.map(map.scanFinding), total: res.total };
  }

  return { listFindings, findingStats, exportFindings, bulkUpdate, getFinding, updateFinding, addComment, aiAnalysis, scanFindings };
}
