import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { errorInfoOf, errorInterceptor } from "@vulnscan/kit/errors";
import { createLogger } from "@vulnscan/kit/logger";
import { GrcService } from "@vulnscan/proto/vulnscan/grc/v1/grc_service_pb.js";
import { describe, expect, it } from "vitest";
import { controlIdOf } from "../domain/view.js";
import { EICAR, testGrc } from "../testing.js";
import { GrcRpcService } from "./grc-service.js";
import { grcRoutes } from "./routes.js";

async function rpcFor() {
  const t = await testGrc();
  const logger = createLogger("grc-rpc-test", "silent");
  const transport = createRouterTransport(grcRoutes(new GrcRpcService(t)), { router: { interceptors: [errorInterceptor(logger)] } });
  return { t, rpc: createClient(GrcService, transport) };
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

const ORG = "org_a";
const actor = { userId: "user_1", displayName: "ana@example.com" };

describe("GrcService mapping (in-memory transport)", () => {
  it("lists controls with filters and page info, gets and updates one", async () => {
    const { rpc } = await rpcFor();
    const list = await rpc.listControls({ orgId: ORG, framework: "hipaa", pagination: { page: 2, perPage: 50 } });
    expect(list.pageInfo).toMatchObject({ total: 51, page: 2, perPage: 50, pages: 2 });
    expect(list.controls).toHaveLength(1);
    const id = controlIdOf(ORG, "hipaa:164.308(a)(1)(ii)(A)");
    const updated = await rpc.updateControl({ orgId: ORG, controlId: id, status: "implemented", owner: "ana", actor });
    expect(updated.control).toMatchObject({
      id,
      status: "implemented",
      owner: "ana",
      frameworks: ["hipaa"],
      frameworkRefs: [{ framework: "hipaa", controlRef: "164.308(a)(1)(ii)(A)" }],
    });
    const frameworks = await rpc.listFrameworks({ orgId: ORG });
    expect(frameworks.frameworks.find((f) => f.id === "hipaa")).toMatchObject({ controlsImplemented: 1, controlsTotal: 51, score: 2 });
    expect(await failure(rpc.getControl({ orgId: "org_b", controlId: id }))).toMatchObject({ code: Code.NotFound, errorCode: "NOT_FOUND" });
    expect(await failure(rpc.listControls({ orgId: ORG, status: "done" }))).toMatchObject({ code: Code.InvalidArgument, field: "status" });
    expect(await failure(rpc.listControls({ orgId: "" }))).toMatchObject({ field: "org_id" });
  });

  it("uploads, lists, downloads and deletes evidence; a quarantined file is refused", async () => {
    const { rpc } = await rpcFor();
    const controlId = controlIdOf(ORG, "soc2:CC7.1");
    const file = new TextEncoder().encode("scan report");
    const { evidence } = await rpc.uploadEvidence({ orgId: ORG, controlId, name: "r.txt", contentType: "text/plain", file, actor });
    expect(evidence).toMatchObject({ status: "clean", sizeBytes: 11, uploadedBy: "ana@example.com", controlIds: [controlId] });
    const got = await rpc.downloadEvidence({ orgId: ORG, evidenceId: evidence!.id });
    expect(new TextDecoder().decode(got.content)).toBe("scan report");
    const bad = await rpc.uploadEvidence({ orgId: ORG, controlId, name: "x.com", file: new TextEncoder().encode(EICAR), actor });
    expect(bad.evidence).toMatchObject({ status: "quarantined", threat: "Eicar-Test-Signature" });
    expect(await failure(rpc.downloadEvidence({ orgId: ORG, evidenceId: bad.evidence!.id }))).toMatchObject({ errorCode: "INVALID_STATE" });
    expect((await rpc.listEvidence({ orgId: ORG, controlId })).pageInfo).toMatchObject({ total: 2 });
    await rpc.deleteEvidence({ orgId: ORG, evidenceId: evidence!.id, actor });
    expect(await failure(rpc.getEvidence({ orgId: ORG, evidenceId: evidence!.id }))).toMatchObject({ code: Code.NotFound });
  });

  it("opens, lists and answers audit requests", async () => {
    const { rpc } = await rpcFor();
    const { auditRequest } = await rpc.createAuditRequest({ orgId: ORG, framework: "gdpr", title: "DPIA", actor });
    expect(auditRequest).toMatchObject({ status: "open", requestedBy: "ana@example.com" });
    const answered = await rpc.answerAuditRequest({ orgId: ORG, auditRequestId: auditRequest!.id, answer: "Attached", status: "in_progress", actor });
    expect(answered.auditRequest).toMatchObject({ status: "in_progress", answer: "Attached", answeredBy: "ana@example.com" });
    expect((await rpc.listAuditRequests({ orgId: ORG, status: "in_progress" })).auditRequests).toHaveLength(1);
    expect(await failure(rpc.getAuditRequest({ orgId: "org_b", auditRequestId: auditRequest!.id }))).toMatchObject({ code: Code.NotFound });
  });
});
