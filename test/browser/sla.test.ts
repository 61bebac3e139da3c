// SLA deadlines and risk acceptance in the web console (issue 28), in a real browser (Debian's
// Chromium driven by playwright-core) against the real stack, with the findings clock moved by the
// test (CLOCK_OFFSET_FILE): the findings policy under Settings, the SLA column and filter of the
// findings list, the acceptance form with expiry and justification, and a pending acceptance
// approved by a second person. Screenshots go to .tmp/screenshots/sla-*.png.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Topics, type KafkaBus } from "@vulnscan/kit";
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
const SCAN_ID = "scan_sla_browser";
const DAY = 24 * 3600_000;

let system: RunningSystem;
let browser: Browser;
let bus: KafkaBus;
let page: Page;
let clockFile: string;
let ana: string;
let bob: string;
let api: Api;

async function shot(name: string, p: Page = page) {
  await p.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

async function signIn(who: string): Promise<Page> {
  const p = await (await browser.newContext({ viewport: { width: 1400, height: 1000 }, locale: "en-GB" })).newPage();
  await p.goto(`${system.gatewayUrl}/`);
  await p.getByLabel("Email").fill(who);
  await p.getByLabel("Password").fill(PASSWORD);
  await p.keyboard.press("Enter");
  await p.getByRole("heading", { name: "Dashboard" }).waitFor();
  return p;
}

beforeAll(async () => {
  const executablePath = await ensureChromium((l) => process.stdout.write(`[browser] ${l}\n`));
  fs.mkdirSync(SHOTS, { recursive: true });
  const prefix = `${unique("slaweb")}_`;
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-browser-sla-"));
  clockFile = path.join(logDir, "clock-offset");
  fs.writeFileSync(clockFile, "0");
  system = await startSystem({
    kafkaBrokers: inject("kafkaBrokers"),
    mongoUrl: inject("mongoUrl"),
    dbPrefix: prefix,
    topicPrefix: prefix,
    logDir,
    logLevel: "warn",
    env: { CLOCK_OFFSET_FILE: clockFile, RELAY_INTERVAL_MS: "300" },
  });
  api = new Api(system.gatewayUrl);
  const env = { MONGO_URL: inject("mongoUrl"), MONGO_DB: `${prefix}auth` };
  const orgId = admin(["create-org", "--name", `SLA ${unique("org")}`, "--plan", "enterprise"], env).id;
  ana = `${unique("ana")}@example.test`.toLowerCase();
  bob = `${unique("bob")}@example.test`.toLowerCase();
  for (const e of [ana, bob]) admin(["create-user", "--org", orgId, "--email", e, "--password", PASSWORD], env);
  bus = newBus(inject("kafkaBrokers"), prefix);
  const now = timestampFromDate(new Date());
  await publish(bus, Topics.findingsDetected, [
    detection(orgId, { scanId: SCAN_ID, templateId: "redis-noauth", title: "Redis without authentication", severity: Severity.CRITICAL, detectedAt: now }),
    detection(orgId, { scanId: SCAN_ID, templateId: "tls-weak", title: "Weak TLS cipher suites", severity: Severity.HIGH, detectedAt: now }),
  ]);
  const token = (await api.token(ana, PASSWORD)).body.access_token;
  // Both findings stored before the browser looks (beforeAll cannot use expect.poll).
  for (const deadline = Date.now() + 60_000; ; ) {
    if ((await api.withToken(token).get(`/api/v1/findings?scan_id=${SCAN_ID}`)).body.total === 2) break;
    if (Date.now() > deadline) throw new Error("the two findings were not stored in time");
    await new Promise((r) => setTimeout(r, 250));
  }
  browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  page = await signIn(ana);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await bus?.close();
  await system?.stop();
});

describe("SLA and risk acceptance in the console", () => {
  it("shows and saves the findings policy under Settings", async () => {
    await page.goto(`${system.gatewayUrl}/#/settings/findings`);
    const form = page.getByRole("form", { name: "Findings policy" });
    await form.waitFor();
    expect(await form.getByLabel("Critical (days)").inputValue()).toBe("7");
    expect(await form.getByLabel("Info (days)").inputValue()).toBe("");
    await form.getByLabel("High (days)").fill("10");
    await form.getByLabel("Accepting a risk needs a second person's approval").check();
    await form.getByRole("button", { name: "Save policy" }).click();
    await expect.poll(() => form.getByRole("status").textContent()).toContain("1 open finding got the new deadline");
    await shot("sla-settings-policy");
    // A day count the API refuses shows on its field.
    await form.getByLabel("Low (days)").fill("5000");
    await form.getByRole("button", { name: "Save policy" }).click();
    await form.locator(".field-error").first().waitFor();
  });

  it("lists the SLA column and filters by it as the clock moves", async () => {
    await page.goto(`${system.gatewayUrl}/#/findings?scan_id=${SCAN_ID}`);
    const rows = page.locator("table tbody tr");
    await expect.poll(() => rows.count()).toBe(2);
    await expect.poll(() => page.locator("table").textContent()).toContain("Within SLA");
    // 8 days on: critical (7 days) breached; high (10 days, at risk from day 8) at risk.
    fs.writeFileSync(clockFile, String(8 * DAY + 3_600_000));
    await page.reload();
    await expect.poll(() => page.locator("table").textContent()).toContain("SLA breached");
    expect(await page.locator("table").textContent()).toContain("SLA at risk");
    await page.getByLabel("SLA", { exact: true }).selectOption("breached");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain("Redis without authentication");
    await shot("sla-findings-breached");
  });

  it("accepts a risk with expiry and justification; a second person approves it", async () => {
    await page.getByRole("link", { name: "Redis without authentication" }).click();
    await page.getByRole("heading", { name: "Redis without authentication" }).waitFor();
    expect(await page.locator(".sla-line").textContent()).toContain("SLA breached");
    await page.getByLabel("Status", { exact: true }).selectOption("accepted");
    const until = new Date(Date.now() + 8 * DAY + 30 * DAY).toISOString().slice(0, 10);
    await page.getByLabel("Accepted until").fill(until);
    // No justification: the API's error shows on the field.
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.locator(".field-error").first().waitFor();
    await page.getByLabel("Justification").fill("Only reachable from the admin VPN until the upgrade");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    const card = page.getByRole("region", { name: "Risk acceptance" });
    await card.waitFor();
    expect(await card.textContent()).toContain("Waiting for approval");
    // The status has not moved, and the form shows it; the history names the day, not a timestamp.
    expect(await page.locator(".meta").first().textContent()).toContain("Open");
    expect(await page.getByLabel("Status", { exact: true }).inputValue()).toBe("open");
    expect(await page.getByRole("list", { name: "History" }).textContent()).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);
    await shot("sla-acceptance-pending");

    const second = await signIn(bob);
    await second.goto(page.url());
    const pending = second.getByRole("region", { name: "Risk acceptance" });
    await pending.getByLabel("Note").fill("VPN rule checked");
    await pending.getByRole("button", { name: "Approve" }).click();
    await expect.poll(() => pending.textContent()).toContain("approved by");
    await expect.poll(() => second.locator(".meta").first().textContent()).toContain("Risk accepted");
    await shot("sla-acceptance-approved", second);
  });
});
