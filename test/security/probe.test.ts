import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startSystem, type RunningSystem } from "../../scripts/system.js";
import { admin, Api, type ApiResponse } from "../support/api.js";
import { unique } from "../support/names.js";

/*
 * The outside probe of issue 30, each reproduced case against the real system: forged cursors,
 * framework and socket error shapes, login timing of known and unknown accounts, password
 * spraying and lock-out, refresh rotation with reuse detection, and the smaller items. The
 * gateway trusts X-Forwarded-For here (TRUST_PROXY), so a test can speak from several source
 * addresses; the race grace of refresh is 1 s so the reuse case need not wait 10 s.
 * Gateway-only cases in more depth: test/security/unit/probe.test.ts.
 */

const PASSWORD = "correct horse battery staple";
const ALLOWED = "127.0.0.2";
const RACE_GRACE_MS = 1000;

let system: RunningSystem;
let api: Api;
let prefix: string;

interface Account {
  orgId: string;
  email: string;
  token: string;
  api: Api;
}

const authEnv = () => ({ MONGO_URL: inject("mongoUrl"), MONGO_DB: `${prefix}auth` });

/** A token request from a given source address. */
function login(email: string, password: string, source: string): Promise<ApiResponse> {
  const form = new URLSearchParams({ username: email, password }).toString();
  return api.request("POST", "/api/v1/auth/token", form, { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": source });
}

async function account(plan = "enterprise", source = "192.0.2.200"): Promise<Account> {
  const org = admin(["create-org", "--name", unique("probe"), "--plan", plan], authEnv());
  const email = `${unique("probe")}@example.test`.toLowerCase();
  admin(["create-user", "--org", org.id, "--email", email, "--password", PASSWORD], authEnv());
  const res = await login(email, PASSWORD, source);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { orgId: org.id, email, token: res.body.access_token, api: api.withToken(res.body.access_token) };
}

function expectError(res: { status: number; body: unknown }, status: number, code?: string, field?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ detail: expect.any(String), error_code: code ?? expect.any(String), ...(field ? { field } : {}) });
  // The spec's shape, plus `errors` (every field error of a 422 at once, the first repeated above).
  expect(Object.keys(res.body as object).every((k) => ["detail", "error_code", "field", "errors"].includes(k))).toBe(true);
  const errors = (res.body as { errors?: { field?: string; error_code: string }[] }).errors;
  if (errors) expect(errors[0]).toMatchObject({ error_code: (res.body as { error_code: string }).error_code, ...(field ? { field } : {}) });
}

async function eventually<T>(fn: () => Promise<T | undefined>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not seen in time`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

beforeAll(async () => {
  prefix = `${unique("probe")}_`;
  system = await startSystem({
    kafkaBrokers: inject("kafkaBrokers"),
    mongoUrl: inject("mongoUrl"),
    dbPrefix: prefix,
    topicPrefix: prefix,
    logDir: fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-probe-")),
    logLevel: "warn",
    env: {
      SCAN_ALLOW_PRIVATE_TARGETS: "true",
      SCAN_ALLOWED_NETWORKS: `${ALLOWED}/32`,
      TRUST_PROXY: "true",
      AUTH_REFRESH_RACE_GRACE_MS: String(RACE_GRACE_MS),
    },
  });
  api = new Api(system.gatewayUrl);
}, 240_000);

afterAll(async () => {
  await system?.stop();
});

describe("forged cursors (probe item 2)", () => {
  let owner: Account;
  let cursor: string;
  beforeAll(async () => {
    owner = await account();
    for (let i = 0; i < 2; i++) {
      const res = await owner.api.post("/api/v1/scans", { target: ALLOWED, scan_type: "quick", ports: "9", authorized: true });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    cursor = (await owner.api.get("/api/v1/scans?per_page=1")).body.next_cursor;
    expect(cursor).toEqual(expect.any(String));
  });

  const forge = (c: string, change: (state: Record<string, unknown>) => void, keepSignature = true) => {
    const [payload, sig] = c.split(".");
    const state = JSON.parse(Buffer.from(payload!, "base64url").toString("utf8")) as Record<string, unknown>;
    change(state);
    const forged = Buffer.from(JSON.stringify(state)).toString("base64url");
    return keepSignature ? `${forged}.${sig}` : forged;
  };

  it("the issued cursor reads page 2 (control)", async () => {
    const res = await owner.api.get(`/api/v1/scans?per_page=1&cursor=${encodeURIComponent(cursor)}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.page).toBe(2);
  });

  it.each([
    ["page 2^31 under the issued signature", (c: string) => forge(c, (s) => (s.p = 2 ** 31))],
    ["page 2^31 unsigned, as the probe sent it", (c: string) => forge(c, (s) => (s.p = 2 ** 31), false)],
    ["page past the 100,000 cap", (c: string) => forge(c, (s) => (s.p = 100_001))],
    ["the issued cursor without its signature", (c: string) => c.split(".")[0]!],
    ["another anchor id", (c: string) => forge(c, (s) => (s.i = "scan_00000000000000000000000000000"))],
  ])("%s: 422 on cursor for scans and findings, never a 500", async (_what, make) => {
    const bad = make(cursor);
    for (const list of ["/api/v1/scans?per_page=1", "/api/v1/findings?per_page=1"]) {
      expectError(await owner.api.get(`${list}&cursor=${encodeURIComponent(bad)}`), 422, "VALIDATION_ERROR", "cursor");
    }
  });
});

describe("framework and socket errors in the spec's shape (probe item 3)", () => {
  it("GET /api/v1/scans/%ff is 400 BAD_REQUEST, not FST_ERR_BAD_URL", async () => {
    const res = await api.get("/api/v1/scans/%ff");
    expectError(res, 400, "BAD_REQUEST");
  });

  it("oversized headers are 431 in the spec's shape", async () => {
    const { port, hostname } = new URL(system.gatewayUrl);
    const text = await new Promise<string>((resolve, reject) => {
      const socket = net.connect({ host: hostname, port: Number(port) });
      const chunks: Buffer[] = [];
      socket.on("data", (c) => chunks.push(c));
      socket.on("error", reject);
      socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
      socket.write(`GET /api/v1/scans HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    });
    expect(text.split("\r\n")[0]).toBe("HTTP/1.1 431 Request Header Fields Too Large");
    expect(JSON.parse(text.split("\r\n\r\n")[1]!)).toEqual({ detail: "Request headers too large", error_code: "HEADERS_TOO_LARGE" });
  });
});

describe("login timing (probe item 1)", () => {
  it("wrong password for an existing account and an unknown email answer in the same time (medians of 20, interleaved)", async () => {
    const timed = async (email: string, source: string) => {
      const t0 = performance.now();
      const res = await login(email, "not the password", source);
      const ms = performance.now() - t0;
      expectError(res, 401, "INVALID_CREDENTIALS");
      return ms;
    };
    // Each attempt from its own source, so no throttle is reached; two of each first, not counted
    // (warm-up). One unknown email, tried as often as the known one: both then write the same
    // counters (a new one per source, the account's own updated), as an attacker's probes would.
    // The failure record of the known account is written just after its answer; a pause lets it
    // finish and the order alternates, so neither side is measured under the other's write.
    const pause = () => new Promise((r) => setTimeout(r, 150));
    // Each round with an account and an unknown email of its own: 22 failures stay under the
    // account's limit over all sources.
    const round = async (r: number) => {
      const known = await account("startup");
      const nobody = `${unique("nobody")}@example.test`;
      const times = { known: [] as number[], unknown: [] as number[] };
      for (let i = 0; i < 22; i++) {
        let k: number;
        let u: number;
        if (i % 2 === 0) {
          k = await timed(known.email, `198.18.${1 + 2 * r}.${i + 1}`);
          await pause();
          u = await timed(nobody, `198.18.${2 + 2 * r}.${i + 1}`);
        } else {
          u = await timed(nobody, `198.18.${2 + 2 * r}.${i + 1}`);
          await pause();
          k = await timed(known.email, `198.18.${1 + 2 * r}.${i + 1}`);
        }
        await pause();
        if (i >= 2) {
          times.known.push(k);
          times.unknown.push(u);
        }
      }
      const [k, u] = [median(times.known), median(times.unknown)];
      console.log(
        `[login-timing] round ${r + 1}, n=20 each: median wrong password ${k.toFixed(1)} ms, unknown email ${u.toFixed(1)} ms, difference ${(k - u).toFixed(1)} ms`,
      );
      return { k, u };
    };
    // Before the fix the difference was the failure record's write and event (the probe: 15 ms
    // and 14 ms on its machine; 22 ms here). A generous bound that still catches it. Other test
    // files load the machine in bursts, so up to three rounds are measured: a real difference
    // shows in every round, a burst of load in one.
    const bound = (u: number) => Math.max(8, 0.15 * u);
    let last = { k: 0, u: 0 };
    for (let r = 0; r < 3; r++) {
      last = await round(r);
      if (Math.abs(last.k - last.u) < bound(last.u)) break;
    }
    expect(Math.abs(last.k - last.u)).toBeLessThan(bound(last.u));
  }, 120_000);
});

describe("password spraying and lock-out (probe item 4)", () => {
  it("the 21st failed login from one source within 5 minutes is 429 TOO_MANY_ATTEMPTS with Retry-After, whatever the emails", async () => {
    const source = "198.18.10.1";
    const answers: number[] = [];
    for (let i = 0; i < 25; i++) answers.push((await login(`${unique("sprayed")}@example.test`, "Summer2026!", source)).status);
    expect(answers.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(answers.slice(20)).toEqual(Array(5).fill(429));
    const res = await login(`${unique("sprayed")}@example.test`, "Summer2026!", source);
    expectError(res, 429, "TOO_MANY_ATTEMPTS");
    const retryAfter = Number(res.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(300);
    // Another source is not affected.
    expectError(await login(`${unique("sprayed")}@example.test`, "Summer2026!", "198.18.10.2"), 401, "INVALID_CREDENTIALS");
  });

  it("5 wrong passwords from an attacker's source lock the attacker out, not the user", async () => {
    const victim = await account("startup", "198.18.20.1");
    for (let i = 0; i < 5; i++) expectError(await login(victim.email, "guess", "198.18.20.66"), 401, "INVALID_CREDENTIALS");
    const locked = await login(victim.email, PASSWORD, "198.18.20.66");
    expectError(locked, 429, "TOO_MANY_ATTEMPTS");
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await login(victim.email, PASSWORD, "198.18.20.1")).status).toBe(200);
  });
});

describe("refresh rotation with reuse detection (probe item 5)", () => {
  it("the replaced token works for ordinary calls but cannot refresh; refreshing with it again revokes the session", async () => {
    const owner = await account();
    const refreshed = await owner.api.post("/api/v1/auth/refresh");
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    expect(refreshed.headers.get("cache-control")).toBe("no-store");
    const next = api.withToken(refreshed.body.access_token);
    // In-flight requests and parallel workers holding the old token are not broken.
    expect((await owner.api.get("/api/v1/scans")).status).toBe(200);
    expect((await next.get("/api/v1/scans")).status).toBe(200);
    await new Promise((r) => setTimeout(r, RACE_GRACE_MS + 100));
    expectError(await owner.api.post("/api/v1/auth/refresh"), 401, "INVALID_TOKEN");
    // Theft assumed: the session is revoked for both holders, on the gateway within moments.
    await eventually(async () => ((await next.get("/api/v1/scans")).status === 401 ? true : undefined), "new token refused");
    expectError(await owner.api.get("/api/v1/scans"), 401);
    expectError(await next.post("/api/v1/auth/refresh"), 401, "INVALID_TOKEN");
  });

  it("the newest token refreshes again (control)", async () => {
    const owner = await account();
    const r1 = await owner.api.post("/api/v1/auth/refresh");
    const r2 = await api.withToken(r1.body.access_token).post("/api/v1/auth/refresh");
    expect(r2.status, JSON.stringify(r2.body)).toBe(200);
    expect((await api.withToken(r2.body.access_token).get("/api/v1/scans")).status).toBe(200);
  });
});

describe("smaller items (probe item 6)", () => {
  it("the token answer has Cache-Control: no-store; API JSON has X-Content-Type-Options: nosniff", async () => {
    const owner = await account();
    const res = await login(owner.email, PASSWORD, "198.18.30.1");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("pragma")).toBe("no-cache");
    for (const r of [res, await owner.api.get("/api/v1/scans"), await owner.api.get("/api/v1/scans/scan_nope"), await api.get("/api/health")]) {
      expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  it("a webhook URL with port 0 is refused with 422 on url", async () => {
    const owner = await account();
    const res = await owner.api.post("/api/v1/webhooks", { name: "p0", url: `https://${ALLOWED}:0/hook`, events: ["scan.completed"], secret: "s".repeat(32) });
    expectError(res, 422, "VALIDATION_ERROR", "url");
  });

  it("the concurrent-scan 429 carries Retry-After", async () => {
    const owner = await account("startup");
    const first = await owner.api.post("/api/v1/scans", { target: ALLOWED, scan_type: "quick", ports: "9", authorized: true });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const second = await owner.api.post("/api/v1/scans", { target: ALLOWED, scan_type: "quick", ports: "9", authorized: true });
    expectError(second, 429, "CONCURRENT_SCAN_LIMIT");
    expect(second.headers.get("retry-after")).toBe("30");
    await owner.api.delete(`/api/v1/scans/${first.body.id}`);
  });

  it("page=0x10 is refused with 422 on page, not read as 16", async () => {
    const owner = await account();
    for (const list of ["/api/v1/scans", "/api/v1/findings"]) expectError(await owner.api.get(`${list}?page=0x10`), 422, "VALIDATION_ERROR", "page");
  });
});
