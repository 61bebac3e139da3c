// The scan detail's "Compared with previous scan" tab and the auto-resolution switch under
// Settings (issue 28 items 2 and 3), in a real browser (Debian's Chromium driven by
// playwright-core) against the real stack. Two real scans of a closed loopback port complete
// within seconds; the test then publishes, as the scanner does, detections of both scans and the
// newer scan's coverage record (detection.proto), so the comparison has a fixed, a not-covered and
// an unchanged finding to show. Screenshots go to .tmp/screenshots/scan-diff-*.png.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Topics, type KafkaBus } from "@vulnscan/kit";
import { DetectionSchema } from "@vulnscan/proto/vulnscan/findings/v1/detection_pb.js";
import { Severity } from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ROOT } from "../../scripts/lib/root.js";
import { CHROMIUM_ARGS, ensureChromium } from "../../scripts/stack/chromium.js";
import { startSystem, type RunningSystem } from "../../scripts/system.js";
import { detection, newBus, publish } from "../../services/findings/test/support.js";
import { admin, Api } from "../support/api.js";
import { unique } from "../support/names.js";

const PASSWORD = "correct horse battery staple";
const SHOTS = path.join(ROOT, ".tmp", "screenshots");
const HOST = "127.0.0.1";

let system: RunningSystem;
let browser: Browser;
let bus: KafkaBus;
let page: Page;
let api: Api;
let scanB: string;

async function until<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; ; ) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not seen within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

async function completedScan(): Promise<string> {
  const res = await api.post("/api/v1/scans", { target: HOST, ports: "9", scan_type: "quick", authorized: true });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  await until(`scan ${res.body.id}`, async () => ((await api.get(`/api/v1/scans/${res.body.id}`)).body.status === "completed" ? true : undefined));
  return res.body.id;
}

beforeAll(async () => {
  const executablePath = await ensureChromium((l) => process.stdout.write(`[browser] ${l}\n`));
  fs.mkdirSync(SHOTS, { recursive: true });
  const prefix = `${unique("diffweb")}_`;
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-browser-diff-"));
  system = await startSystem({
    kafkaBrokers: inject("kafkaBrokers"),
    mongoUrl: inject("mongoUrl"),
    dbPrefix: prefix,
    topicPrefix: prefix,
    logDir,
    logLevel: "warn",
    env: { RELAY_INTERVAL_MS: "300" },
  });
  const env = { MONGO_URL: inject("mongoUrl"), MONGO_DB: `${prefix}auth` };
  const orgId = admin(["create-org", "--name", `Diff ${unique("org")}`, "--plan", "enterprise"], env).id;
  const ana = `${unique("ana")}@example.test`.toLowerCase();
  admin(["create-user", "--org", orgId, "--email", ana, "--password", PASSWORD], env);
  api = new Api(system.gatewayUrl).withToken((await new Api(system.gatewayUrl).token(ana, PASSWORD)).body.access_token);

  const scanA = await completedScan();
  scanB = await completedScan();
  bus = newBus(inject("kafkaBrokers"), prefix);
  const seen = (scanId: string, templateId: string, title: string, port: number, severity: Severity) =>
    detection(orgId, {
      scanId,
      target: HOST,
      tool: "templates",
      templateId,
      title,
      severity,
      affectedComponent: `tcp://${HOST}:${port}`,
      detectedAt: timestampFromDate(new Date(Date.now() - 60_000)),
    });
  await publish(bus, Topics.findingsDetected, [
    seen(scanA, "redis-unauthenticated", "Redis without authentication", 6379, Severity.CRITICAL),
    seen(scanA, "memcached-unauthenticated", "Memcached without authentication", 11211, Severity.HIGH),
    seen(scanA, "ftp-anonymous", "Anonymous FTP login", 21, Severity.MEDIUM),
    seen(scanB, "ftp-anonymous", "Anonymous FTP login", 21, Severity.MEDIUM),
    // Scan B's coverage: Redis answered and its template ran (no match: fixed); memcached's port was not open.
    create(DetectionSchema, {
      orgId,
      scanId: scanB,
      coverage: {
        attempt: 9,
        outcome: "completed",
        startedAt: timestampFromDate(new Date(Date.now() - 30_000)),
        target: HOST,
        address: HOST,
        alive: true,
        hostChecks: ["portscan"],
        ports: [
          { port: 6379, outcome: "answered", checks: ["template:redis-unauthenticated"] },
          { port: 21, outcome: "answered", checks: ["template:ftp-anonymous"] },
        ],
      },
    }),
  ]);
  await until("the comparison with its coverage", async () => {
    const d = (await api.get(`/api/v1/scans/${scanB}/diff`)).body;
    return d.counts?.fixed === 1 && d.counts.unchanged === 1 ? d : undefined;
  });
  browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  page = await (await browser.newContext({ viewport: { width: 1400, height: 1000 }, locale: "en-GB" })).newPage();
  await page.goto(`${system.gatewayUrl}/`);
  await page.getByLabel("Email").fill(ana);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.keyboard.press("Enter");
  await page.getByRole("heading", { name: "Dashboard" }).waitFor();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await bus?.close();
  await system?.stop();
});

describe("scan comparison in the console", () => {
  it("shows fixed, not checked and unchanged findings on the scan's comparison tab", async () => {
    await page.goto(`${system.gatewayUrl}/#/scans/${scanB}`);
    await page.getByRole("tab", { name: "Compared with previous scan" }).click();
    const panel = page.getByRole("tabpanel", { name: "Compared with previous scan" });
    await panel.getByRole("heading", { name: "Fixed (1)" }).waitFor();
    const section = (name: string) => panel.locator("section", { has: page.getByRole("heading", { name }) });
    expect(await section("Fixed (1)").textContent()).toContain("Redis without authentication");
    const notChecked = await section("Not checked this time (1)").textContent();
    expect(notChecked).toContain("Memcached without authentication");
    expect(notChecked).toContain("port closed, filtered or not scanned");
    expect(await section("Still there (1)").textContent()).toContain("Anonymous FTP login");
    expect(await section("New (0)").textContent()).toContain("None.");
    await shot("scan-diff-tab");
    await page.getByRole("tab", { name: "Overview" }).click();
    await page.getByRole("progressbar", { name: "Scan progress" }).waitFor();
  });

  it("says so when there is nothing earlier to compare with", async () => {
    const first = (await api.get(`/api/v1/scans?per_page=100`)).body.items.at(-1).id;
    await page.goto(`${system.gatewayUrl}/#/scans/${first}`);
    await page.getByRole("tab", { name: "Compared with previous scan" }).click();
    await page.getByText("There is no earlier completed scan of this target to compare with.").waitFor();
  });

  it("turns auto-resolution on under Settings", async () => {
    await page.goto(`${system.gatewayUrl}/#/settings/findings`);
    const form = page.getByRole("form", { name: "Findings policy" });
    const toggle = form.getByLabel(/Resolve a finding when a later scan ran its check/);
    expect(await toggle.isChecked()).toBe(false);
    await toggle.check();
    await form.getByRole("button", { name: "Save policy" }).click();
    await form.getByRole("status").waitFor();
    expect((await api.get("/api/v1/findings/policy")).body.auto_resolve).toBe(true);
  });
});

async function shot(name: string) {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}
