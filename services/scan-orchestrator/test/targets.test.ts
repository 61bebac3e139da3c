import http from "node:http";
import type { AddressInfo } from "node:net";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { createMongo, type MongoHandle } from "@vulnscan/kit";
import { ScheduleFrequency } from "@vulnscan/proto/vulnscan/scans/v1/scans_service_pb.js";
import { TargetService } from "@vulnscan/proto/vulnscan/scans/v1/targets_service_pb.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDns, type TestDns } from "../../../test/support/dns-server.js";
import { unique } from "../../../test/support/names.js";
import { Collector, eventually, orchestratorEnv, plans, rpcError, startAuthStub, startOrchestrator, type AuthStub, type Orchestrator } from "./harness.js";

/*
 * Verified targets (issue 29) against real MongoDB and Kafka: a DNS server and an HTTP server of
 * the test's own on loopback prove each method. 203.0.113.0/24 is the operator's
 * SCAN_VERIFIED_NETWORKS here; everything else a scan names must be proved.
 */

let auth: AuthStub;
let kafka: Collector;
let dns: TestDns;
let web: http.Server;
let web2: http.Server;
/** Host → the body of /.well-known/vulnscan-verification.txt (404 when absent). */
const files = new Map<string, string>();
let orch: Orchestrator;
let targets: Client<typeof TargetService>;
let mongo: MongoHandle;

const org = (plan: keyof typeof plans) => {
  const id = unique(`org_${plan}`);
  auth.set(id, plans[plan]);
  return id;
};
const proof = (token: string) => `vulnscan-verification=${token}`;

beforeAll(async () => {
  auth = await startAuthStub();
  kafka = new Collector();
  await kafka.start();
  dns = await startTestDns();
  const serve: http.RequestListener = (req, res) => {
    const host = (req.headers.host ?? "").replace(/:\d+$/, "");
    const body = req.url === "/.well-known/vulnscan-verification.txt" ? files.get(host) : undefined;
    if (body === undefined) res.writeHead(404).end("not here");
    else res.writeHead(200, { "content-type": "text/plain" }).end(body);
  };
  // The same port on two loopback addresses: the verification look-up has one port for every host.
  web = http.createServer(serve);
  await new Promise<void>((r) => web.listen(0, "127.0.0.1", r));
  web2 = http.createServer(serve);
  await new Promise<void>((r) => web2.listen((web.address() as AddressInfo).port, "127.0.0.2", r));
  const env = orchestratorEnv(auth, {
    DNS_SERVERS: dns.server,
    SCAN_ALLOWED_NETWORKS: "127.0.0.0/8,192.0.2.0/24,198.51.100.0/24,203.0.113.0/24",
    SCAN_VERIFIED_NETWORKS: "203.0.113.0/24",
    WEBHOOK_ALLOW_PRIVATE_URLS: "true",
    WEBHOOK_ALLOWED_NETWORKS: "127.0.0.0/8",
    VERIFICATION_HTTPS_PORT: "0",
    VERIFICATION_HTTP_PORT: String((web.address() as AddressInfo).port),
    TARGET_RECHECK_INTERVAL_MS: "200",
    SCHEDULER_INTERVAL_MS: "150",
  });
  orch = await startOrchestrator(env);
  targets = createClient(TargetService, createGrpcTransport({ baseUrl: `http://127.0.0.1:${orch.running.rpcPort}` }));
  mongo = createMongo(env.MONGO_URL!, env.MONGO_DB!, "targets-test");
}, 120_000);

afterAll(async () => {
  await mongo?.close();
  await orch?.stop();
  await new Promise((r) => web?.close(r));
  await new Promise((r) => web2?.close(r));
  await dns?.close();
  await kafka?.stop();
  await auth?.close();
});

const scan = (orgId: string, target: string) => orch.client.createScan({ orgId, target, authorized: true });

describe("targets", () => {
  it("a pending target carries its token and what to publish per method; duplicates, bad input and other organizations are refused", async () => {
    const o = org("professional");
    dns.set("pending.example.test", "A", ["198.51.100.1"]);
    const t = (await targets.createTarget({ orgId: o, target: "Pending.Example.Test" })).target!;
    expect(t.id).toMatch(/^target_/);
    expect(t).toMatchObject({ target: "pending.example.test", kind: "domain" });
    expect(t.verification?.status).toBe("pending");
    const token = t.verification!.token;
    expect(token.length).toBeGreaterThanOrEqual(20);
    expect(t.verification!.challenges.map((c) => c.method)).toEqual(["dns_txt", "http_file"]);
    expect(t.verification!.challenges[0]).toMatchObject({ location: "_vulnscan-challenge.pending.example.test", value: proof(token) });

    expect(await rpcError(targets.createTarget({ orgId: o, target: "pending.example.test" }))).toMatchObject({ errorCode: "CONFLICT" });
    expect(await rpcError(targets.createTarget({ orgId: o, target: "not a host" }))).toMatchObject({ errorCode: "VALIDATION_ERROR", field: "target" });
    // The operator's target policy applies as to a scan: outside SCAN_ALLOWED_NETWORKS is refused.
    expect(await rpcError(targets.createTarget({ orgId: o, target: "8.8.8.8" }))).toMatchObject({ errorCode: "VALIDATION_ERROR", field: "target" });

    const ranges = (await targets.createTarget({ orgId: o, target: "192.0.2.64/30" })).target!;
    expect(ranges.verification!.challenges.map((c) => c.method)).toEqual(["reverse_dns", "http_file", "attestation"]);

    const list = await targets.listTargets({ orgId: o, pagination: { perPage: 1 } });
    expect(list.pageInfo).toMatchObject({ total: 2, pages: 2, perPage: 1 });
    expect(list.targets[0]?.id).toBe(ranges.id); // newest first
    expect((await targets.listTargets({ orgId: o, kind: "domain" })).targets.map((x) => x.id)).toEqual([t.id]);
    expect((await targets.listTargets({ orgId: o, status: "verified" })).targets).toEqual([]);
    expect(await rpcError(targets.listTargets({ orgId: o, status: "done" }))).toMatchObject({ errorCode: "VALIDATION_ERROR", field: "status" });

    const other = org("professional");
    for (const call of [
      () => targets.getTarget({ orgId: other, targetId: t.id }),
      () => targets.verifyTarget({ orgId: other, targetId: t.id }),
      () => targets.deleteTarget({ orgId: other, targetId: t.id }),
      () => targets.attestTarget({ orgId: other, targetId: ranges.id, reason: "x", operator: "ops" }),
    ]) {
      expect(await rpcError(call())).toMatchObject({ code: "NotFound", errorCode: "NOT_FOUND" });
    }
    expect((await targets.listTargets({ orgId: other })).targets).toEqual([]);
    await targets.deleteTarget({ orgId: o, targetId: t.id });
    expect(await rpcError(targets.getTarget({ orgId: o, targetId: t.id }))).toMatchObject({ errorCode: "NOT_FOUND" });
  });

  it("DNS TXT: a wrong token fails with what was found, the right one verifies; the name alone does not make its unverified address scannable", async () => {
    const o = org("professional");
    dns.set("shop.example.test", "A", ["198.51.100.7"]);
    const t = (await targets.createTarget({ orgId: o, target: "shop.example.test", actor: { userId: "user_1", displayName: "ann@example.test" } })).target!;
    const record = "_vulnscan-challenge.shop.example.test";

    dns.set(record, "TXT", [proof("not-the-token")]);
    const failed = (await targets.verifyTarget({ orgId: o, targetId: t.id, method: "dns_txt", actor: { userId: "user_1", displayName: "ann@example.test" } }))
      .target!;
    expect(failed.verification).toMatchObject({
      status: "failed",
      lastError: expect.stringMatching(/no TXT record at _vulnscan-challenge.shop.example.test holds/),
    });
    expect(failed.attempts[0]).toMatchObject({ method: "dns_txt", ok: false, source: "api", answer: expect.stringContaining("not-the-token") });
    expect(failed.attempts[0]?.actor?.displayName).toBe("ann@example.test");

    dns.set(record, "TXT", ["unrelated=1", `${proof(t.verification!.token)} include-subdomains`]);
    const ok = (await targets.verifyTarget({ orgId: o, targetId: t.id })).target!;
    expect(ok.verification).toMatchObject({ status: "verified", method: "dns_txt", includeSubdomains: true, lastError: "" });
    const next = timestampDate(ok.verification!.nextCheckAt!).getTime() - timestampDate(ok.verification!.verifiedAt!).getTime();
    expect(next).toBe(30 * 86_400_000);
    expect(ok.attempts.map((a) => a.ok)).toEqual([true, false]);

    // shop.example.test resolves to 198.51.100.7, which nothing proves: refused, naming the address.
    const refused = await rpcError(scan(o, "shop.example.test"));
    expect(refused).toMatchObject({ code: "PermissionDenied", errorCode: "TARGET_NOT_VERIFIED" });
    expect(refused.message).toContain("198.51.100.7");
    // A subdomain (covered by include-subdomains) resolving into the operator's networks is fine;
    // a name nobody verified, resolving to an unverified address, is not.
    dns.set("lab.shop.example.test", "A", ["203.0.113.40"]);
    expect((await scan(o, "lab.shop.example.test")).scan?.status).toBeDefined();
    dns.set("elsewhere.example.test", "A", ["198.51.100.8"]);
    const unknown = await rpcError(scan(o, "elsewhere.example.test"));
    expect(unknown).toMatchObject({ errorCode: "TARGET_NOT_VERIFIED" });
    expect(unknown.message).toMatch(/_vulnscan-challenge\.elsewhere\.example\.test/);
  });

  it("HTTP file: proves the name and every address it served from; a name that later resolves to an unverified address is refused at scan time", async () => {
    const o = org("professional");
    dns.set("www.example.test", "A", ["127.0.0.1"]);
    const t = (await targets.createTarget({ orgId: o, target: "www.example.test" })).target!;
    const missing = (await targets.verifyTarget({ orgId: o, targetId: t.id, method: "http_file" })).target!;
    expect(missing.verification?.status).toBe("failed");
    expect(missing.verification?.lastError).toMatch(/not served by 127\.0\.0\.1 \(.*HTTP 404/);

    files.set("www.example.test", `${proof(t.verification!.token)}\n`);
    const ok = (await targets.verifyTarget({ orgId: o, targetId: t.id, method: "http_file" })).target!;
    expect(ok.verification).toMatchObject({ status: "verified", method: "http_file", provenAddresses: ["127.0.0.1"] });
    expect((await scan(o, "www.example.test")).scan?.target).toBe("www.example.test");

    dns.set("www.example.test", "A", ["127.0.0.1", "198.51.100.9"]);
    const refused = await rpcError(scan(o, "www.example.test"));
    expect(refused).toMatchObject({ errorCode: "TARGET_NOT_VERIFIED" });
    expect(refused.message).toContain("198.51.100.9");
    expect(refused.message).not.toContain("127.0.0.1,");
  });

  it("HTTP file on an address, under the webhooks' egress rules: an address outside WEBHOOK_ALLOWED_NETWORKS is never contacted", async () => {
    const o = org("professional");
    const t = (await targets.createTarget({ orgId: o, target: "127.0.0.1" })).target!;
    files.set("127.0.0.1", proof(t.verification!.token));
    expect((await targets.verifyTarget({ orgId: o, targetId: t.id, method: "http_file" })).target?.verification?.status).toBe("verified");
    expect((await scan(o, "127.0.0.1")).scan).toBeDefined();

    const outside = (await targets.createTarget({ orgId: o, target: "198.51.100.20" })).target!;
    const refused = (await targets.verifyTarget({ orgId: o, targetId: outside.id, method: "http_file" })).target!;
    expect(refused.verification?.lastError).toMatch(/outside WEBHOOK_ALLOWED_NETWORKS/);
    expect(await rpcError(targets.verifyTarget({ orgId: o, targetId: outside.id, method: "dns_txt" }))).toMatchObject({
      errorCode: "VALIDATION_ERROR",
      field: "method",
    });
  });

  it("reverse DNS: every address of the range must name a host under a verified domain", async () => {
    const o = org("enterprise");
    dns.set("corp.example.test", "A", ["203.0.113.1"]);
    const domain = (await targets.createTarget({ orgId: o, target: "corp.example.test" })).target!;
    const range = (await targets.createTarget({ orgId: o, target: "198.51.100.16/30" })).target!;
    // Before any domain is verified, reverse DNS proves nothing.
    expect((await targets.verifyTarget({ orgId: o, targetId: range.id, method: "reverse_dns" })).target?.verification?.lastError).toMatch(/no verified domain/);

    dns.set("_vulnscan-challenge.corp.example.test", "TXT", [proof(domain.verification!.token)]);
    expect((await targets.verifyTarget({ orgId: o, targetId: domain.id })).target?.verification?.status).toBe("verified");
    for (const i of [16, 17, 18]) dns.set(dns.reverseName(`198.51.100.${i}`), "PTR", [`host${i}.corp.example.test`]);
    dns.set(dns.reverseName("198.51.100.19"), "PTR", ["someone.else.test"]);
    const failed = (await targets.verifyTarget({ orgId: o, targetId: range.id, method: "reverse_dns" })).target!;
    expect(failed.verification?.lastError).toMatch(/reverse DNS of 198\.51\.100\.19 \(someone\.else\.test\)/);

    dns.set(dns.reverseName("198.51.100.19"), "PTR", ["host19.corp.example.test."]);
    expect((await targets.verifyTarget({ orgId: o, targetId: range.id, method: "reverse_dns" })).target?.verification).toMatchObject({
      status: "verified",
      method: "reverse_dns",
    });
    expect((await scan(o, "198.51.100.16/30")).scan).toBeDefined();
    expect((await scan(o, "198.51.100.18")).scan).toBeDefined();
  });

  it("a range partly covered is refused, listing the uncovered addresses; the operator's attestation covers a range; other organizations are not covered", async () => {
    const o = org("enterprise");
    const t = (await targets.createTarget({ orgId: o, target: "192.0.2.0/29" })).target!;
    expect(await rpcError(targets.attestTarget({ orgId: o, targetId: t.id, reason: " ", operator: "ops" }))).toMatchObject({ field: "reason" });
    const attested = (await targets.attestTarget({ orgId: o, targetId: t.id, reason: "customer contract #42", operator: "ops@vulnscan" })).target!;
    expect(attested.verification).toMatchObject({ status: "verified", method: "attestation" });
    expect(attested.verification?.nextCheckAt).toBeUndefined();
    expect(attested.attempts[0]).toMatchObject({ method: "attestation", source: "operator", ok: true, answer: "customer contract #42" });
    expect(attested.attempts[0]?.actor?.displayName).toBe("ops@vulnscan");

    expect((await scan(o, "192.0.2.0/29")).scan).toBeDefined();
    expect((await scan(o, "192.0.2.5")).scan).toBeDefined();
    const partly = await rpcError(scan(o, "192.0.2.0/28"));
    expect(partly).toMatchObject({ code: "PermissionDenied", errorCode: "TARGET_NOT_VERIFIED" });
    const uncovered = Array.from({ length: 8 }, (_, i) => `192.0.2.${i + 8}`);
    expect(partly.message).toContain(uncovered.join(", "));
    expect(partly.message).not.toContain("192.0.2.7,");

    // A schedule is refused the same way, at creation.
    expect(
      await rpcError(orch.client.createSchedule({ orgId: o, target: "192.0.2.0/28", authorized: true, frequency: ScheduleFrequency.DAILY, hour: 3 })),
    ).toMatchObject({ errorCode: "TARGET_NOT_VERIFIED" });
    // Another organization's proof covers nothing of this one's.
    const other = org("enterprise");
    expect(await rpcError(scan(other, "192.0.2.5"))).toMatchObject({ errorCode: "TARGET_NOT_VERIFIED" });
    // The operator's networks need no target.
    expect((await scan(other, "203.0.113.0/28")).scan).toBeDefined();
    // A domain cannot be attested: it proves itself.
    dns.set("attest.example.test", "A", ["203.0.113.2"]);
    const d = (await targets.createTarget({ orgId: o, target: "attest.example.test" })).target!;
    expect(await rpcError(targets.attestTarget({ orgId: o, targetId: d.id, reason: "x", operator: "ops" }))).toMatchObject({ field: "target" });
  });

  it("a removed record expires the target before the next scheduled scan (stale proof), which fails with TARGET_VERIFICATION_EXPIRED; target.verification_expired goes out", async () => {
    const o = org("professional");
    const t = (await targets.createTarget({ orgId: o, target: "127.0.0.2" })).target!;
    files.set("127.0.0.2", proof(t.verification!.token));
    expect((await targets.verifyTarget({ orgId: o, targetId: t.id, method: "http_file" })).target?.verification?.status).toBe("verified");
    const schedule = (await orch.client.createSchedule({ orgId: o, target: "127.0.0.2", authorized: true, frequency: ScheduleFrequency.DAILY, hour: 3 }))
      .schedule!;

    files.delete("127.0.0.2");
    // 31 days later (the clock moved, as far as the stored times say), the schedule is due.
    const monthAgo = new Date(Date.now() - 31 * 86_400_000);
    await mongo.db
      .collection("targets")
      .updateOne({ _id: t.id } as never, { $set: { checked_at: monthAgo, verified_at: monthAgo, next_check_at: new Date(Date.now() + 86_400_000) } });
    await mongo.db.collection("schedules").updateOne({ _id: schedule.id } as never, { $set: { next_run_at: new Date(Date.now() - 1000) } });

    const stored = await eventually("the scheduled run", async () => {
      const s = await mongo.db.collection("schedules").findOne({ _id: schedule.id } as never);
      return s?.last_run_at ? s : undefined;
    });
    expect(stored.last_error).toMatch(/^TARGET_VERIFICATION_EXPIRED: /);
    expect(stored.last_scan_id).toBe("");
    const after = (await targets.getTarget({ orgId: o, targetId: t.id })).target!;
    expect(after.verification).toMatchObject({ status: "expired", method: "http_file", lastError: expect.stringMatching(/HTTP 404/) });
    expect(after.verification?.expiredAt).toBeDefined();
    expect(after.attempts[0]).toMatchObject({ source: "schedule", ok: false });

    const event = await eventually("target.verification_expired on Kafka", () =>
      kafka.events.find((e) => e.type === "target.verification_expired" && (e.payload.value as { targetId?: string }).targetId === t.id),
    );
    expect(event.orgId).toBe(o);
    expect(event.payload.value).toMatchObject({ target: "127.0.0.2", method: "http_file", status: "expired" });
    expect(await rpcError(scan(o, "127.0.0.2"))).toMatchObject({ code: "PermissionDenied", errorCode: "TARGET_VERIFICATION_EXPIRED" });

    // Publishing again and checking brings it back.
    files.set("127.0.0.2", proof(t.verification!.token));
    expect((await targets.verifyTarget({ orgId: o, targetId: t.id })).target?.verification?.status).toBe("verified");
    expect((await scan(o, "127.0.0.2")).scan).toBeDefined();
  });

  it("the re-check loop expires a target whose TXT record is gone once its re-check is due", async () => {
    const o = org("professional");
    dns.set("gone.example.test", "A", ["203.0.113.9"]);
    const t = (await targets.createTarget({ orgId: o, target: "gone.example.test" })).target!;
    dns.set("_vulnscan-challenge.gone.example.test", "TXT", [proof(t.verification!.token)]);
    expect((await targets.verifyTarget({ orgId: o, targetId: t.id })).target?.verification?.status).toBe("verified");
    dns.remove("_vulnscan-challenge.gone.example.test");
    await mongo.db.collection("targets").updateOne({ _id: t.id } as never, { $set: { next_check_at: new Date(Date.now() - 1000) } });
    const expired = await eventually("expiry by the re-check loop", async () => {
      const got = (await targets.getTarget({ orgId: o, targetId: t.id })).target!;
      return got.verification?.status === "expired" ? got : undefined;
    });
    expect(expired.verification?.lastError).toMatch(/no TXT record at _vulnscan-challenge\.gone\.example\.test/);
    expect(expired.attempts[0]).toMatchObject({ source: "recheck", ok: false });
    expect((await targets.listTargets({ orgId: o, status: "expired" })).targets.map((x) => x.id)).toEqual([t.id]);
  });
});
