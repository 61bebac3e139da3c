import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startSystem, type RunningSystem } from "../../scripts/system.js";
import { admin, Api } from "../support/api.js";
import { startTestDns, type TestDns } from "../support/dns-server.js";
import { unique } from "../support/names.js";

/*
 * Verified targets through the gateway (issue 29), on the whole system: the REST shapes, the API
 * key permissions, other organizations' 404s, the operator's attestation through the admin CLI,
 * and the local stack's default that loopback and the lab need no verification. Names come from
 * a DNS server of the test's own on loopback. 198.51.100.0/24 (documentation) is allowed but
 * not verified: every scan of it here is refused, so nothing is ever sent there.
 */

const PASSWORD = "correct horse battery staple";
let system: RunningSystem;
let dns: TestDns;
let prefix: string;

interface Account {
  orgId: string;
  api: Api;
}

async function account(plan: string): Promise<Account> {
  const env = { MONGO_URL: inject("mongoUrl"), MONGO_DB: `${prefix}auth` };
  const org = admin(["create-org", "--name", `${plan} ${unique("org")}`, "--plan", plan], env);
  const email = `${unique(plan)}@example.test`.toLowerCase();
  admin(["create-user", "--org", org.id, "--email", email, "--password", PASSWORD], env);
  const api = new Api(system.gatewayUrl);
  const res = await api.token(email, PASSWORD);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { orgId: org.id, api: api.withToken(res.body.access_token) };
}

let one: Account;
let two: Account;

beforeAll(async () => {
  prefix = `${unique("e2etargets")}_`;
  dns = await startTestDns();
  system = await startSystem({
    kafkaBrokers: inject("kafkaBrokers"),
    mongoUrl: inject("mongoUrl"),
    dbPrefix: prefix,
    topicPrefix: prefix,
    logDir: fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-e2e-targets-")),
    logLevel: "warn",
    // SCAN_VERIFIED_NETWORKS is left to the local stack's default (loopback and the lab).
    env: { DNS_SERVERS: dns.server, SCAN_ALLOWED_NETWORKS: "127.0.0.0/8,10.231.0.0/16,198.51.100.0/24" },
  });
  one = await account("enterprise");
  two = await account("enterprise");
}, 240_000);

afterAll(async () => {
  await system?.stop();
  await dns?.close();
});

describe("targets through the gateway", () => {
  it("loopback needs no target (the local stack's SCAN_VERIFIED_NETWORKS); a name resolving to an unverified address is refused with what to publish", async () => {
    const lab = await one.api.post("/api/v1/scans", { target: "127.0.0.1", scan_type: "quick", ports: "9", authorized: true });
    expect(lab.status, JSON.stringify(lab.body)).toBe(201);

    dns.set("shop.e2e.test", "A", ["198.51.100.7"]);
    const refused = await one.api.post("/api/v1/scans", { target: "shop.e2e.test", authorized: true });
    expect(refused.status).toBe(403);
    expect(refused.body.error_code).toBe("TARGET_NOT_VERIFIED");
    expect(refused.body.detail).toContain("198.51.100.7");
    expect(refused.body.detail).toContain("_vulnscan-challenge.shop.e2e.test");
  });

  it("create, check with a wrong then the right TXT record, list with filters; still refused while the address is unproved", async () => {
    dns.set("app.e2e.test", "A", ["198.51.100.8"]);
    const created = await one.api.post("/api/v1/targets", { target: "app.e2e.test" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const t = created.body;
    expect(t).toMatchObject({ target: "app.e2e.test", kind: "domain", verification: { status: "pending", last_error: "" } });
    const dnsChallenge = t.verification.challenges.find((c: { method: string }) => c.method === "dns_txt");
    expect(dnsChallenge).toMatchObject({ location: "_vulnscan-challenge.app.e2e.test", value: `vulnscan-verification=${t.verification.token}` });

    dns.set("_vulnscan-challenge.app.e2e.test", "TXT", ["vulnscan-verification=wrong"]);
    const wrong = await one.api.post(`/api/v1/targets/${t.id}/verify`, { method: "dns_txt" });
    expect(wrong.status).toBe(200);
    expect(wrong.body.verification).toMatchObject({ status: "failed", last_error: expect.stringContaining("holds this target's token") });
    expect(wrong.body.attempts[0]).toMatchObject({ method: "dns_txt", ok: false, source: "api", by: expect.stringContaining("@example.test") });

    dns.set("_vulnscan-challenge.app.e2e.test", "TXT", [dnsChallenge.value]);
    const ok = await one.api.post(`/api/v1/targets/${t.id}/verify`, {});
    expect(ok.body.verification).toMatchObject({ status: "verified", method: "dns_txt" });
    expect(Date.parse(ok.body.verification.next_check_at) - Date.parse(ok.body.verification.verified_at)).toBe(30 * 86_400_000);
    expect(ok.body.attempts.map((a: { ok: boolean }) => a.ok)).toEqual([true, false]);

    const verified = await one.api.get("/api/v1/targets?status=verified&kind=domain");
    expect(verified.body).toMatchObject({ total: 1, page: 1, per_page: 20, pages: 1 });
    expect(verified.body.items[0].id).toBe(t.id);
    expect(verified.body.items[0].attempts).toBeUndefined();
    expect((await one.api.get("/api/v1/targets?status=bogus")).status).toBe(422);
    expect((await one.api.post(`/api/v1/targets/${t.id}/verify`, { method: "carrier_pigeon" })).status).toBe(422);
    expect((await one.api.post("/api/v1/targets", { target: "app.e2e.test" })).body.error_code).toBe("CONFLICT");

    // The TXT record proves the name; its address 198.51.100.8 is still unproved.
    const scan = await one.api.post("/api/v1/scans", { target: "app.e2e.test", authorized: true });
    expect(scan.status).toBe(403);
    expect(scan.body).toMatchObject({ error_code: "TARGET_NOT_VERIFIED", detail: expect.stringContaining("198.51.100.8") });
  });

  it("the operator's attestation (admin CLI) covers a range; a larger range is refused listing exactly the uncovered addresses", async () => {
    const t = (await one.api.post("/api/v1/targets", { target: "198.51.100.0/29" })).body;
    const env = { MONGO_URL: inject("mongoUrl"), MONGO_DB: `${prefix}auth` };
    const out = admin(["verify-target", "--org", one.orgId, "--target", t.id, "--reason", "contract #42", "--operator", "ops@vulnscan"], {
      ...env,
      MONGO_DB_SCANS: `${prefix}scans`,
    } as typeof env);
    expect(out).toMatchObject({ id: t.id, status: "verified", method: "attestation" });
    const got = (await one.api.get(`/api/v1/targets/${t.id}`)).body;
    expect(got.verification).toMatchObject({ status: "verified", method: "attestation" });
    expect(got.verification.next_check_at).toBeUndefined();
    expect(got.attempts[0]).toMatchObject({ method: "attestation", source: "operator", by: "ops@vulnscan", answer: "contract #42", ok: true });
    // Another organization's target is not found by the CLI either.
    expect(() =>
      admin(["verify-target", "--org", two.orgId, "--target", t.id, "--reason", "x"], { ...env, MONGO_DB_SCANS: `${prefix}scans` } as typeof env),
    ).toThrow(/not found/);

    const partly = await one.api.post("/api/v1/scans", { target: "198.51.100.0/28", authorized: true });
    expect(partly.status).toBe(403);
    expect(partly.body.error_code).toBe("TARGET_NOT_VERIFIED");
    const listed = Array.from({ length: 8 }, (_, i) => `198.51.100.${i + 8}`).join(", ");
    expect(partly.body.detail).toContain(`not covered: ${listed}.`);
    const schedule = await one.api.post("/api/v1/scans/schedules", {
      target: "198.51.100.0/28",
      frequency: "daily",
      hour: 2,
      timezone: "UTC",
      authorized: true,
    });
    expect(schedule.status).toBe(403);
    expect(schedule.body.error_code).toBe("TARGET_NOT_VERIFIED");
  });

  it("another organization's target is 404 on every route; API keys need read:scans to read and write:scans to change", async () => {
    const t = (await one.api.post("/api/v1/targets", { target: "127.0.0.5" })).body;
    for (const [method, p, body] of [
      ["GET", `/api/v1/targets/${t.id}`],
      ["DELETE", `/api/v1/targets/${t.id}`],
      ["POST", `/api/v1/targets/${t.id}/verify`, {}],
    ] as const) {
      const res = await two.api.request(method, p, body);
      expect(res.status, `${method} ${p}`).toBe(404);
      expect(res.body.error_code).toBe("NOT_FOUND");
    }
    expect((await two.api.get("/api/v1/targets")).body.total).toBe(0);

    const key = async (permissions: string[]) => (await one.api.post("/api/v1/auth/api-keys", { name: unique("key"), permissions })).body.key as string;
    const reader = one.api.withApiKey(await key(["read:scans"]));
    const writer = one.api.withApiKey(await key(["write:scans"]));
    expect((await reader.get("/api/v1/targets")).status).toBe(200);
    expect((await reader.get(`/api/v1/targets/${t.id}`)).status).toBe(200);
    for (const res of [
      await reader.post("/api/v1/targets", { target: "127.0.0.6" }),
      await reader.post(`/api/v1/targets/${t.id}/verify`, {}),
      await reader.delete(`/api/v1/targets/${t.id}`),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error_code).toBe("FORBIDDEN");
    }
    expect((await writer.get("/api/v1/targets")).status).toBe(403);
    expect((await writer.post("/api/v1/targets", { target: "127.0.0.6" })).status).toBe(201);
    expect((await writer.delete(`/api/v1/targets/${t.id}`)).body).toEqual({ id: t.id, status: "deleted", message: "Target deleted" });
    expect((await one.api.get(`/api/v1/targets/${t.id}`)).status).toBe(404);
  });
});
