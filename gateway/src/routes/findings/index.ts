import type { Client } from "@connectrpc/connect";
import type { FindingService } from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import type { RetestService } from "@vulnscan/proto/vulnscan/findings/v1/retest_service_pb.js";
import type { ScanDiffService } from "@vulnscan/proto/vulnscan/findings/v1/scan_diff_service_pb.js";
import type { ScanService } from "@vulnscan/proto/vulnscan/scans/v1/scans_service_pb.js";
import type { FastifyPluginAsync } from "fastify";
import { typed } from "../typed.js";
import { diffHandlers } from "./diff-handlers.js";
import * as diffSchema from "./diff-schemas.js";
import { findingHandlers } from "./handlers.js";
import { policyHandlers } from "./policy-handlers.js";
import { retestHandlers } from "./retest-handlers.js";
import * as retestSchema from "./retest-schemas.js";
import * as policySchema from "./policy-schemas.js";
import * as schema from "./schemas.js";

const read = { permission: "read:findings" } as const;
const write = { permission: "write:findings" } as const;

/**
 * Findings (spec "Findings") and a scan's findings, served by the findings service. When the
 * scans client is given, `GET /api/v1/scans/{scan_id}/findings` first checks the scan exists in
 * the caller's organization (404 otherwise).
 */
export const findingsRoutes =
  (
    findings: Client<typeof FindingService>,
    opts: {
      scans?: Pick<Client<typeof ScanService>, "getScan"> & Partial<Pick<Client<typeof ScanService>, "listScans">>;
      retests?: Client<typeof RetestService>;
      diffs?: Client<typeof ScanDiffService>;
    } = {},
  ): FastifyPluginAsync =>
  async (fastify) => {
    const app = typed(fastify);
    const h = findingHandlers(findings, opts.scans);
    app.get("/api/v1/findings", { config: read, schema: schema.listFindings }, h.listFindings);
    app.get("/api/v1/findings/stats", { config: read, schema: schema.findingStats }, h.findingStats);
    const pol = policyHandlers(findings);
    app.get("/api/v1/findings/policy", { config: read, schema: policySchema.getPolicy }, pol.getPolicy);
    app.put("/api/v1/findings/policy", { config: write, schema: policySchema.putPolicy }, pol.putPolicy);
    app.post("/api/v1/findings/:finding_id/acceptance/decision", { config: write, schema: policySchema.decideAcceptance }, pol.decideAcceptance);
    app.get("/api/v1/findings/export", { config: read, schema: schema.exportFindings }, h.exportFindings);
    app.post("/api/v1/findings/bulk", { config: write, schema: schema.bulkUpdate }, h.bulkUpdate);
    app.get("/api/v1/findings/:finding_id", { config: read, schema: schema.getFinding }, h.getFinding);
    app.patch("/api/v1/findings/:finding_id", { config: write, schema: schema.updateFinding }, h.updateFinding);
    app.post("/api/v1/findings/:finding_id/comments", { config: write, schema: schema.addComment }, h.addComment);
    app.get("/api/v1/findings/:finding_id/ai-analysis", { config: read, schema: schema.aiAnalysis }, h.aiAnalysis);
    // Retest of one finding (issue 28): RetestService of the findings deployable.
    const rt = retestHandlers(opts.retests ?? ({} as Client<typeof RetestService>));
    app.post("/api/v1/findings/:finding_id/retest", { config: write, schema: retestSchema.requestRetest }, rt.requestRetest);
    app.get("/api/v1/findings/:finding_id/retests", { config: read, schema: retestSchema.listRetests }, rt.listRetests);
    app.get("/api/v1/scans/:scan_id/findings", { config: read, schema: schema.scanFindings }, h.scanFindings);
    // Scan comparison (issue 28): the scans from scan-orchestrator, the comparison from findings' ScanDiffService.
    // Like the retest routes, always declared (the document lists them); the clients are the app's.
    const dh = diffHandlers(
      (opts.scans ?? {}) as Pick<Client<typeof ScanService>, "getScan" | "listScans">,
      opts.diffs ?? ({} as Client<typeof ScanDiffService>),
    );
    app.get("/api/v1/scans/:scan_id/diff", { config: read, schema: diffSchema.scanDiff }, dh.scanDiff);
  };
