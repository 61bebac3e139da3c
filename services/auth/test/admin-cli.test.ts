import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Code } from "@connectrpc/connect";
import { PlanTier } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { unique } from "../../../test/support/names.js";
import { seedDemo } from "../src/seed.js";
import { closeDatabases, database, failure, PASSWORD, startAuth, type AuthUnderTest } from "./harness.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
// Ends in "auth", as a stack's database does (`<prefix>auth`).
const dbName = `${unique("cli")}_auth`;
let auth: AuthUnderTest;

beforeAll(async () => {
  auth = await startAuth({}, dbName);
});
afterAll(async () => {
  await auth?.stop();
  await database(dbName)
    .dropDatabase()
    .catch(() => undefined);
  await closeDatabases();
});

function admin(args: string[], stdin?: string) {
  return adminWith({}, args, stdin);
}

function adminWith(
  env: Record<string, string>,
  args: string[],
  stdin?: string,
): Promise<{ code: number | null; stdout: string; stderr: string; last: unknown }> {
  return new Promise((resolve, reject) => {
    const child = spawn("npx", ["tsx", "scripts/admin.ts", ...args], {
      cwd: ROOT,
      env: { ...process.env, MONGO_URL: inject("mongoUrl"), MONGO_DB: dbName, ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => {
      const lastLine = stdout.trim().split("\n").at(-1) ?? "";
      let last: unknown;
      try {
        last = JSON.parse(lastLine);
      } catch {
        last = undefined;
      }
      resolve({ code, stdout, stderr, last });
    });
    child.stdin.end(stdin ?? "");
  });
}

describe("operator CLI (npm run admin)", () => {
  it("create-org, create-user, set-plan, list-orgs; the created user can log in", async () => {
    const org = await admin(["create-org", "--name", "CLI Corp", "--plan", "professional"]);
    expect(org.code).toBe(0);
    expect(org.last).toEqual({ id: expect.stringMatching(/^org_[0-9a-f]{28}$/) });
    const orgId = (org.last as { id: string }).id;

    const email = `${unique("cli")}@example.com`;
    const user = await admin(["create-user", "--org", orgId, "--email", email, "--password", PASSWORD]);
    expect(user.code).toBe(0);
    expect(user.last).toEqual({ id: expect.stringMatching(/^user_/) });

    const viaStdin = await admin(["create-user", "--org", orgId, "--email", `${unique("stdin")}@example.com`, "--password", "-"], `${PASSWORD}\n`);
    expect(viaStdin.code).toBe(0);

    const plan = await admin(["set-plan", "--org", orgId, "--plan", "enterprise"]);
    expect(plan.last).toEqual({ id: orgId, plan: "enterprise" });
    expect((await auth.client.getPlan({ orgId })).plan!.tier).toBe(PlanTier.ENTERPRISE);

    const list = await admin(["list-orgs"]);
    expect((list.last as { organizations: { id: string }[] }).organizations.map((o) => o.id)).toContain(orgId);

    const t = await auth.client.issueToken({ username: email, password: PASSWORD });
    expect(t).toMatchObject({ orgId, userId: (user.last as { id: string }).id });
  }, 120_000);

  it("bad arguments exit 2 with a message", async () => {
    const cases: [string[], RegExp][] = [
      [["create-org", "--name", "X"], /--plan is required/],
      [["create-org", "--name", "X", "--plan", "gold"], /--plan must be startup, professional or enterprise/],
      [["create-org", "--nme", "X", "--plan", "startup"], /Unknown option '--nme'/],
      [["frobnicate"], /unknown command: frobnicate/],
      [["create-user", "--org", "org_missing", "--email", "a@example.com", "--password", PASSWORD], /Organization not found/],
      [[], /usage: npm run admin/],
    ];
    for (const [args, message] of cases) {
      const r = await admin(args);
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      expect(r.stderr + r.stdout).toMatch(message);
    }
    const dup = await admin(["create-org", "--name", "Dup", "--plan", "startup"]);
    const orgId = (dup.last as { id: string }).id;
    const email = `${unique("dup")}@example.com`;
    expect((await admin(["create-user", "--org", orgId, "--email", email, "--password", PASSWORD])).code).toBe(0);
    const again = await admin(["create-user", "--org", orgId, "--email", email, "--password", PASSWORD]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already exists \(email\)/);
    const short = await admin(["create-user", "--org", orgId, "--email", `${unique("s")}@example.com`, "--password", "short"]);
    expect(short.stderr).toMatch(/at least 12 characters long \(password\)/);
    expect(short.code).toBe(2);
  }, 120_000);
});

describe("operator CLI: limits and users", () => {
  it("set-limits sets Enterprise overrides (merging), refuses bad values and other tiers with clear errors", async () => {
    const ent = (await admin(["create-org", "--name", "Big Co", "--plan", "enterprise"])).last as { id: string };
    const r = await admin(["set-limits", "--org", ent.id, "--requests-per-hour", "20000", "--scans-per-month", "unlimited", "--webhooks", "12"]);
    expect(r.code).toBe(0);
    expect(r.last).toEqual({
      id: ent.id,
      plan: "enterprise",
      limits: {
        requests_per_hour: 20000,
        requests_per_day: 100000,
        scans_per_month: "unlimited",
        concurrent_scans: "unlimited",
        webhooks: 12,
        ai_credits: 5000,
      },
    });
    const again = await admin(["set-limits", "--org", ent.id, "--ai-credits", "9000", "--concurrent-scans", "8"]);
    expect(again.last).toMatchObject({ limits: { requests_per_hour: 20000, webhooks: 12, ai_credits: 9000, concurrent_scans: 8 } });
    const { plan } = await auth.client.getPlan({ orgId: ent.id });
    expect(plan!.limits).toMatchObject({
      requestsPerHour: { max: 20000 },
      concurrentScans: { max: 8 },
      aiCreditsPerMonth: { max: 9000 },
      scansPerMonth: { unlimited: true },
    });

    const pro = (await admin(["create-org", "--name", "Pro Co", "--plan", "professional"])).last as { id: string };
    const cases: [string[], RegExp][] = [
      [["set-limits", "--org", ent.id], /needs at least one of --requests-per-hour/],
      [["set-limits", "--org", ent.id, "--requests-per-hour", "0"], /--requests-per-hour must be a whole number from 1/],
      [["set-limits", "--org", ent.id, "--requests-per-day", "unlimited"], /--requests-per-day must be a whole number/],
      [["set-limits", "--org", ent.id, "--scans-per-month", "lots"], /--scans-per-month must be a whole number from 0 to 2147483647 or "unlimited"/],
      [["set-limits", "--org", pro.id, "--requests-per-hour", "50"], /Custom limits apply to Enterprise organizations.*professional/],
      [["set-limits", "--org", "org_missing", "--webhooks", "1"], /Organization not found/],
    ];
    for (const [args, message] of cases) {
      const res = await admin(args);
      expect({ args, code: res.code }).toEqual({ args, code: 2 });
      expect(res.stderr).toMatch(message);
    }
  }, 120_000);

  it("disable-user revokes sessions and stops login; enable-user lets them log in again", async () => {
    const org = (await admin(["create-org", "--name", "Users Co", "--plan", "professional"])).last as { id: string };
    const email = `${unique("dis")}@example.com`;
    const user = (await admin(["create-user", "--org", org.id, "--email", email, "--password", PASSWORD])).last as { id: string };
    const t = await auth.client.issueToken({ username: email, password: PASSWORD });
    const off = await admin(["disable-user", "--org", org.id, "--user", user.id]);
    expect(off.last).toEqual({ id: user.id, disabled: true, revoked_sessions: 1 });
    expect((await auth.client.checkSession({ orgId: org.id, sessionId: t.sessionId })).active).toBe(false);
    expect(await failure(auth.client.issueToken({ username: email, password: PASSWORD }))).toMatchObject({ errorCode: "INVALID_CREDENTIALS" });
    expect((await auth.client.getAuthState({})).disabledUsers.map((u) => u.userId)).toContain(user.id);
    const on = await admin(["enable-user", "--org", org.id, "--user", user.id]);
    expect(on.last).toEqual({ id: user.id, disabled: false, revoked_sessions: 0 });
    await expect(auth.client.issueToken({ username: email, password: PASSWORD })).resolves.toMatchObject({ userId: user.id });
    const other = await admin(["disable-user", "--org", "org_elsewhere", "--user", user.id]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/User not found/);
    expect((await admin(["disable-user", "--org", org.id])).stderr).toMatch(/--user is required/);
  }, 120_000);
});

describe("operator CLI finds the running stack", () => {
  it("without MONGO_URL it uses the state file a running `npm start` wrote (database prefix included)", async () => {
    const cache = mkdtempSync(path.join(tmpdir(), "vulnscan-cache-"));
    const prefix = dbName.slice(0, -"auth".length);
    expect(`${prefix}auth`).toBe(dbName);
    // This test process stands in for the stack's owner: the file is honoured while its pid runs.
    writeFileSync(
      path.join(cache, "stack.json"),
      JSON.stringify({
        mongoUrl: inject("mongoUrl"),
        mongoServer: "test",
        kafkaBrokers: inject("kafkaBrokers"),
        gatewayUrl: "",
        services: {},
        dbPrefix: prefix,
        pid: process.pid,
        startedAt: new Date().toISOString(),
      }),
    );
    const env: NodeJS.ProcessEnv = { ...process.env, VULNSCAN_CACHE_DIR: cache };
    delete env.MONGO_URL;
    delete env.MONGO_DB;
    delete env.KAFKA_BROKERS;
    const r = spawnSync(process.execPath, ["--import", "tsx", "scripts/admin.ts", "create-org", "--name", "Found Co", "--plan", "startup"], {
      cwd: ROOT,
      env,
      encoding: "utf8",
    });
    expect(r.status, r.stderr).toBe(0);
    const { id } = JSON.parse(r.stdout.trim().split("\n").at(-1)!);
    expect((await auth.client.getOrganization({ orgId: id })).organization!.name).toBe("Found Co");
  }, 60_000);

  it("rebuild-rollups recounts an organization's findings stats; an unknown organization is refused", async () => {
    const findingsDb = `${dbName}_findings`;
    const org = await admin(["create-org", "--name", "Rollup Corp", "--plan", "startup"]);
    const orgId = (org.last as { id: string }).id;
    const env = { MONGO_DB_FINDINGS: findingsDb };
    const rebuilt = await adminWith(env, ["rebuild-rollups", "--org", orgId]);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(rebuilt.last).toEqual({ id: orgId, findings: 0, documents: expect.any(Number) });
    const unknown = await adminWith(env, ["rebuild-rollups", "--org", "org_000000000000ffffffffffffffff"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/not found/i);
    await database(findingsDb)
      .dropDatabase()
      .catch(() => undefined);
  });
});

describe("seedDemo", () => {
  it("creates one demo organization per plan, idempotently, with credentials that always work", async () => {
    const db = database(dbName);
    const first = await seedDemo(db);
    expect(first.map((a) => [a.plan, a.email])).toEqual([
      ["startup", "startup@demo.vulnscan.local"],
      ["professional", "professional@demo.vulnscan.local"],
      ["enterprise", "enterprise@demo.vulnscan.local"],
    ]);
    for (const a of first) await expect(auth.client.issueToken({ username: a.email, password: a.password })).resolves.toMatchObject({ orgId: a.orgId });

    // Someone locks the startup account out; the next seed still prints working credentials.
    for (let i = 0; i < 6; i++) await failure(auth.client.issueToken({ username: "startup@demo.vulnscan.local", password: "wrong password!!" }));
    const second = await seedDemo(db);
    expect(second.map((a) => a.orgId)).toEqual(first.map((a) => a.orgId));
    expect(second[0]!.password).not.toBe(first[0]!.password);
    for (const a of second) {
      const t = await auth.client.issueToken({ username: a.email, password: a.password });
      const { plan } = await auth.client.getPlan({ orgId: t.orgId });
      expect(plan!.tier).toBe({ startup: PlanTier.STARTUP, professional: PlanTier.PROFESSIONAL, enterprise: PlanTier.ENTERPRISE }[a.plan]);
    }
    expect(await failure(auth.client.issueToken({ username: first[1]!.email, password: first[1]!.password }))).toMatchObject({
      code: Code.Unauthenticated,
      errorCode: "INVALID_CREDENTIALS",
    });
    const demoOrgs = await db.collection("organizations").countDocuments({ name: { $in: ["Demo Startup", "Demo Professional", "Demo Enterprise"] } });
    expect(demoOrgs).toBe(3);
  });
});
