import { ScanStatus } from "@vulnscan/proto/vulnscan/scans/v1/scans_service_pb.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unique } from "../../../test/support/names.js";
import { orchestratorEnv, plans, rpcError, startAuthStub, startOrchestrator, type AuthStub, type Orchestrator } from "./harness.js";

/*
 * Two replicas on one database, both keeping scan details and list pages in memory (LIST_CACHE_MS
 * long enough that only the organization's version can make them read again): what one writes,
 * the other answers at once (docs/decisions.md, Performance).
 */
let auth: AuthStub;
let a: Orchestrator;
let b: Orchestrator;

beforeAll(async () => {
  auth = await startAuthStub();
  const env = orchestratorEnv(auth, { LIST_CACHE_MS: "60000" });
  [a, b] = await Promise.all([startOrchestrator(env), startOrchestrator(env)]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await auth?.close();
});

describe("kept scans across replicas", () => {
  it("a scan's detail and the list are fresh on another replica right after a write; another organization's id stays NOT_FOUND", async () => {
    const orgId = unique("org");
    const other = unique("org");
    auth.set(orgId, plans.enterprise);
    auth.set(other, plans.enterprise);
    const scan = (await a.client.createScan({ orgId, target: "192.0.2.10", authorized: true })).scan!;
    // Read (and kept) on B.
    expect((await b.client.getScan({ orgId, scanId: scan.id })).scan!.status).toBe(ScanStatus.PENDING);
    expect((await b.client.getScan({ orgId, scanId: scan.id })).scan!.status).toBe(ScanStatus.PENDING);
    expect((await b.client.listScans({ orgId })).scans.map((s) => s.status)).toEqual([ScanStatus.PENDING]);

    // Cancelled on A: B answers the change, not what it kept.
    await a.client.cancelScan({ orgId, scanId: scan.id });
    expect((await b.client.getScan({ orgId, scanId: scan.id })).scan!.status).toBe(ScanStatus.CANCELLED);
    expect((await b.client.listScans({ orgId })).scans.map((s) => s.status)).toEqual([ScanStatus.CANCELLED]);

    // Another organization asking for it, before and after it has a scan of its own.
    for (const r of [a, b]) expect((await rpcError(r.client.getScan({ orgId: other, scanId: scan.id }))).errorCode).toBe("NOT_FOUND");
    await b.client.createScan({ orgId: other, target: "192.0.2.11", authorized: true });
    expect((await rpcError(b.client.getScan({ orgId: other, scanId: scan.id }))).errorCode).toBe("NOT_FOUND");
  });
});
