// The web console in a real browser (Debian's Chromium driven by playwright-core) against the
// real stack: sign-in with MFA enrolled through the console, dashboard, findings triage, bulk
// update, export, the new-scan form's API errors, a lab scan watched live, API keys, webhooks
// (a real HTTPS receiver), controls and evidence, session revocation, the API docs.
// The scan lab runs in loopback mode (kernel-picked ports on 127.0.0.1, no network namespace),
// so it cannot collide with other runs. The triage findings are published on
// vulnscan.findings.detected exactly as the scanner publishes them.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { KafkaBus } from "@vulnscan/kit";
import { Confidence, Severity } from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import { Topics } from "@vulnscan/kit";
import { Secret, TOTP } from "otpauth";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type ReceivedDelivery, type Receiver, startReceiver } from "../../examples/webhook-receiver/receiver.js";
import { ROOT } from "../../scripts/lib/root.js";
import { CHROMIUM_ARGS, ensureChromium } from "../../scripts/stack/chromium.js";
import { startSystem, type RunningSystem } from "../../scripts/system.js";
import { detection, newBus, publish } from "../../services/findings/test/support.js";
import { type Lab, startLab } from "../lab/lab.js";
import { admin, Api } from "../support/api.js";
import { unique } from "../support/names.js";
import { selfSignedCertificates } from "../support/tls.js";

const PASSWORD = "correct horse battery staple";
const SHOTS = path.join(ROOT, ".tmp", "screenshots");
const SCAN_ID = "scan_browser";
const HOOK_SECRET = "browser-test-secret";
/** The receiver's address: the only one the dispatcher may reach (WEBHOOK_ALLOWED_NETWORKS). */
const RECEIVER_HOST = "127.0.0.2";

let system: RunningSystem;
let api: Api;
let bus: KafkaBus;
let context: BrowserContext;
let page: Page;
let userDir: string;
let email: string;
let orgId: string;
let mfaSecret = "";
/** The setup's own session (before MFA): checks what the console did through the API. */
let asUser: Api;
let setupToken: string;
let chromiumPath: string;
let lab: Lab;
let receiver: Receiver;
let envForAdmin: { MONGO_URL: string; MONGO_DB: string };
const timings: Record<string, number> = {};
/** The lab scan the New scan test starts (its findings are retested from their page). */
let labScanId = "";
/** Attempts per delivery id: the receiver's /flaky paths fail each delivery's first attempt. */
const attempts = new Map<string, number>();
function flaky(d: ReceivedDelivery) {
  const n = (attempts.get(d.id) ?? 0) + 1;
  attempts.set(d.id, n);
  return d.path.startsWith("/flaky") && n === 1 ? { status: 503 } : undefined;
}

/** What people should never read: API enum spellings (in_progress, soc2, vulnerability_scanning) and ISO timestamps. */
const RAW =
  /\b(in_progress|false_positive|not_started|not_applicable|pending_scan|soc2|iso27001|pci_dss|nist_csf|nist_800_53|cis_controls|vulnerability_scanning|web_analysis|cloud_analysis|threat_intelligence|compliance_mapping|ai_analysis|remediation_planning|status_changed|assignee_changed|priority_changed)\b|\d{4}-\d{2}-\d{2}T\d{2}:/;

const totp = (at: number) => new TOTP({ secret: Secret.fromBase32(mfaSecret), digits: 6, period: 30, algorithm: "SHA1" }).generate({ timestamp: at });

async function shot(name: string, p: Page = page) {
  await p.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

async function eventually<T>(probe: () => Promise<T | undefined>, what: string, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`not seen in time: ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Signs in with the keyboard only: type, Tab, type, Enter; the code field has the focus when asked for. */
async function signIn(p: Page, code?: string, who = email) {
  await p.goto(`${system.gatewayUrl}/`);
  await p.getByLabel("Email").focus();
  await p.keyboard.type(who);
  await p.keyboard.press("Tab");
  await p.keyboard.type(PASSWORD);
  await p.keyboard.press("Enter");
  if (code !== undefined) {
    await p.getByLabel("Authentication code").waitFor();
    await p.keyboard.type(code);
    await p.keyboard.press("Enter");
  }
  await p.getByRole("heading", { name: "Dashboard" }).waitFor();
}

beforeAll(async () => {
  const t0 = Date.now();
  chromiumPath = await ensureChromium((l) => process.stdout.write(`[browser] ${l}\n`));
  const executablePath = chromiumPath;
  timings.chromiumCheckMs = Date.now() - t0;
  const prefix = `${unique("web")}_`;
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-browser-"));
  const tls = selfSignedCertificates(logDir, RECEIVER_HOST);
  receiver = await startReceiver({ host: RECEIVER_HOST, key: tls.key, cert: tls.cert, secret: HOOK_SECRET, onDelivery: flaky });
  // Loopback mode: kernel-picked ports on 127.0.0.1, scanned through the explicit port list only.
  const tLab = Date.now();
  lab = await startLab({ loopback: true, realServers: false });
  timings.labStartMs = Date.now() - tLab;
  const tSystem = Date.now();
  system = await startSystem({
    kafkaBrokers: inject("kafkaBrokers"),
    mongoUrl: inject("mongoUrl"),
    dbPrefix: prefix,
    topicPrefix: prefix,
    logDir,
    logLevel: "warn",
    env: {
      SCAN_ALLOWED_NETWORKS: lab.allowedNetworks,
      WEBHOOK_ALLOWED_NETWORKS: `${RECEIVER_HOST}/32`,
      NODE_EXTRA_CA_CERTS: tls.ca,
      // Progress reports every second, so the browser sees the bar move between polls.
      SCANNER_HEARTBEAT_MS: "1000",
      OUTBOX_RELAY_INTERVAL_MS: "300",
    },
  });
  timings.systemStartMs = Date.now() - tSystem;
  api = new Api(system.gatewayUrl);
  const env = { MONGO_URL: inject("mongoUrl"), MONGO_DB: `${prefix}auth` };
  envForAdmin = env;
  // Enterprise: the console's page loads must not meet the smaller plans' hourly request limits.
  orgId = admin(["create-org", "--name", `Console ${unique("org")}`, "--plan", "enterprise"], env).id;
  email = `${unique("analyst")}@example.test`.toLowerCase();
  admin(["create-user", "--org", orgId, "--email", email, "--password", PASSWORD], env);

  bus = newBus(inject("kafkaBrokers"), prefix);
  await publish(bus, Topics.findingsDetected, [
    detection(orgId, {
      scanId: SCAN_ID,
      templateId: "CVE-2021-44228",
      title: "Log4Shell remote code execution",
      severity: Severity.CRITICAL,
      cvssScore: 10,
      cveIds: ["CVE-2021-44228"],
      target: "app.example.test",
      kev: true,
      confidence: Confidence.VERSION_MATCH_UNVERIFIED_BACKPORT,
    }),
    detection(orgId, { scanId: SCAN_ID, target: "app.example.test" }),
    detection(orgId, { scanId: SCAN_ID, templateId: "missing-hsts", title: "Missing HSTS header", severity: Severity.MEDIUM, cvssScore: 5.3, cveIds: [] }),
    detection(orgId, { scanId: SCAN_ID, templateId: "server-banner", title: "Server version banner", severity: Severity.LOW, cvssScore: 3.1, cveIds: [] }),
  ]);
  setupToken = (await api.token(email, PASSWORD)).body.access_token;
  asUser = api.withToken(setupToken);
  await eventually(async () => ((await asUser.get("/api/v1/findings")).body.total === 4 ? true : undefined), "4 findings ingested", 60_000);

  fs.mkdirSync(SHOTS, { recursive: true });
  userDir = fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-chromium-"));
  const t1 = Date.now();
  context = await chromium.launchPersistentContext(userDir, {
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
    acceptDownloads: true,
  });
  timings.browserLaunchMs = Date.now() - t1;
  page = context.pages()[0] ?? (await context.newPage());
  page.on("dialog", (d) => void d.accept());
});

afterAll(async () => {
  await context?.close();
  await bus?.close();
  await system?.stop();
  await lab?.stop();
  await receiver?.close();
  if (userDir) fs.rmSync(userDir, { recursive: true, force: true });
  process.stdout.write(
    `[browser] lab start ${timings.labStartMs} ms, system start ${timings.systemStartMs} ms, chromium check ${timings.chromiumCheckMs} ms, launch ${timings.browserLaunchMs} ms, lab scan ${timings.labScanMs} ms; screenshots in ${SHOTS}\n`,
  );
});

describe("web console", () => {
  it("is served at / with a strict CSP, no-cache HTML and immutable hashed assets", async () => {
    const res = await fetch(`${system.gatewayUrl}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-cache");
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    const html = await res.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeDefined();
    const js = await fetch(`${system.gatewayUrl}${asset}`);
    expect(js.status).toBe(200);
    expect(js.headers.get("cache-control")).toContain("immutable");
    expect((await fetch(`${system.gatewayUrl}/assets/nope.js`)).status).toBe(404);
    expect((await fetch(`${system.gatewayUrl}/api/v1/nope`)).status).toBe(404);
    expect((await fetch(`${system.gatewayUrl}/openapi.json`)).status).toBe(401);
  });

  it("enrols MFA in Settings, then signs in with the code step", async () => {
    await signIn(page);
    await page.getByRole("link", { name: "Settings", exact: true }).click();
    await page.getByRole("link", { name: "Two-factor authentication" }).click();
    await page.getByRole("button", { name: "Set up an authenticator" }).click();
    mfaSecret = (await page.getByTestId("mfa-secret").textContent()) ?? "";
    expect(mfaSecret).toMatch(/^[A-Z2-7]+=*$/);
    await expect.poll(() => page.getByRole("img", { name: /QR code/ }).count()).toBe(1);
    const now = Date.now();
    await page
      .getByRole("form", { name: "Turn on" })
      .getByLabel("6-digit code")
      .fill(totp(now - 30_000));
    await page.getByRole("button", { name: "Turn on" }).click();
    await page.getByText("Two-factor authentication is on.").waitFor();
    // Recovery codes, shown once: ten single-use codes to copy or download.
    const codes = page.getByRole("list", { name: "Recovery codes" });
    await expect.poll(() => codes.locator("li").count()).toBe(10);
    for (const c of await codes.locator("li").allTextContents()) expect(c).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);
    await shot("mfa-recovery-codes");
    await page.getByRole("button", { name: "I have saved them" }).click();
    expect(await codes.count()).toBe(0);
    // After a reload the page still knows MFA is on (GET /api/v1/auth/me): no "Set up" beside "Turn off", no codes again.
    await page.reload();
    await expect.poll(() => page.getByTestId("mfa-state").textContent()).toBe("On. 10 unused recovery codes left.");
    expect(await page.getByRole("button", { name: "Set up an authenticator" }).count()).toBe(0);
    await page.getByRole("form", { name: "Turn off" }).waitFor();
    expect(await page.getByRole("list", { name: "Recovery codes" }).count()).toBe(0);
    await shot("mfa-on-after-reload");

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    await signIn(page, totp(now));
    await page.locator(".tile.critical").getByText("Critical", { exact: true }).waitFor();
    // Tiles and charts from /api/v1/findings/stats: 1 critical, 4 open, 4 new this week.
    await expect.poll(() => page.locator(".tile.critical .tile-value").textContent()).toBe("1");
    await expect.poll(() => page.locator(".tile").first().locator(".tile-value").textContent()).toBe("4");
    await page.getByRole("heading", { name: "Scan quota" }).waitFor();
    expect(await page.locator("main").textContent()).not.toMatch(RAW);
    // The header says who is signed in, to which organization, on which plan.
    const who = page.getByRole("region", { name: "Signed in" });
    await expect.poll(() => who.textContent()).toContain("Enterprise plan");
    expect(await who.textContent()).toContain(email);
    // The organization's name (GET /api/v1/auth/me), or its id where the gateway has no /me.
    expect(await who.textContent()).toMatch(new RegExp(`${orgId}|Console org_`));
    await shot("dashboard");
    await page.setViewportSize({ width: 390, height: 844 });
    await shot("dashboard-390px");
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("lists, filters and triages a finding, and shows its history", async () => {
    await page.getByRole("link", { name: "Findings", exact: true }).click();
    await page.getByRole("link", { name: "Log4Shell remote code execution" }).waitFor();
    // Confidence in words, in its column and as a filter.
    const log4shellRow = page.locator("tbody tr", { has: page.getByRole("link", { name: "Log4Shell remote code execution" }) });
    await expect.poll(() => log4shellRow.textContent()).toContain("Version match, backport not ruled out");
    await page.getByLabel("Confidence").selectOption("version_match_unverified_backport");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => page.locator("tbody tr").count()).toBe(1);
    await page.goBack();
    await expect.poll(() => page.locator("tbody tr").count()).toBe(4);
    await page.getByLabel("Severity").selectOption("critical");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => page.locator("tbody tr").count()).toBe(1);
    // The URL holds the filters: Back shows the unfiltered list and an empty select, Forward both again.
    expect(new URL(page.url()).hash).toContain("severity=critical");
    await page.goBack();
    await expect.poll(() => page.locator("tbody tr").count()).toBe(4);
    expect(await page.getByLabel("Severity").inputValue()).toBe("");
    await page.goForward();
    await expect.poll(() => page.locator("tbody tr").count()).toBe(1);
    expect(await page.getByLabel("Severity").inputValue()).toBe("critical");
    await page.getByRole("link", { name: "Log4Shell remote code execution" }).click();
    await page.getByRole("heading", { name: "Remediation" }).waitFor();
    await page.getByRole("heading", { name: "Evidence" }).waitFor();
    const triage = page.getByRole("form", { name: "Triage" });
    await triage.getByLabel("Status").selectOption("in_progress");
    await triage.getByLabel("Assignee").fill("dev@example.test");
    await triage.getByLabel("Priority").selectOption("critical");
    await triage.getByRole("button", { name: "Save" }).click();
    const history = page.getByRole("list", { name: "History" });
    // In people's words, dates in the browser's locale: no API spellings, no ISO timestamps.
    await history.getByText("Status: Open → In progress").waitFor();
    await history.getByText("Assignee: none → dev@example.test").waitFor();
    await history.getByText("Priority: none → Critical").waitFor();
    expect(await history.textContent()).not.toMatch(RAW);
    expect(await page.locator(".meta").first().textContent()).toContain("In progress");
    await page.getByRole("form", { name: "Add a comment" }).getByLabel("Comment").fill("Patching log4j to 2.17.1 today.");
    await page.getByRole("button", { name: "Add comment" }).click();
    await page.getByText("Patching log4j to 2.17.1 today.").waitFor();
    await page.getByRole("button", { name: "Analyse with AI" }).click();
    await page.getByRole("heading", { name: "Recommended actions" }).waitFor();
    // The analysis sits above the evidence, its markdown rendered: code elements, no raw backticks.
    const analysis = page.getByRole("region", { name: "AI analysis" });
    await expect.poll(() => analysis.locator("code").count()).toBeGreaterThan(0);
    expect(await analysis.textContent()).not.toContain("`");
    const aiBox = await analysis.boundingBox();
    const evidenceBox = await page.getByRole("heading", { name: "Evidence" }).boundingBox();
    expect(aiBox!.y).toBeLessThan(evidenceBox!.y);
    await shot("finding-detail");
  });

  it("bulk-updates the selected findings with a result per item, and exports", async () => {
    await page.getByRole("link", { name: "← Findings" }).click();
    await page.getByRole("link", { name: "Missing HSTS header" }).waitFor();
    await page.getByLabel("Select all on this page").check();
    const bulk = page.getByRole("form", { name: "Bulk update" });
    await bulk.getByLabel("New status").selectOption("accepted");
    // A move to accepted needs an expiry and a justification (issue 28), for every finding.
    await bulk.getByLabel("Accepted until").fill(new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10));
    await bulk.getByLabel("Justification").fill("Internal test hosts only");
    await bulk.getByRole("button", { name: "Update selected" }).click();
    await page.getByText("4 updated, 0 failed.").waitFor();
    await expect.poll(() => page.locator("tbody .badge.status-accepted").count()).toBe(4);
    expect(await page.locator("tbody .badge.status-accepted").first().textContent()).toBe("Risk accepted");
    await shot("findings-bulk");
    await page.setViewportSize({ width: 390, height: 844 });
    await shot("findings-390px");
    await page.setViewportSize({ width: 1280, height: 900 });

    const [csv] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
    const csvText = fs.readFileSync((await csv.path())!, "utf8");
    expect(csv.suggestedFilename()).toMatch(/\.csv$/);
    expect(csvText).toContain("Log4Shell remote code execution");
    const [pdf] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export PDF" }).click()]);
    expect(
      fs
        .readFileSync((await pdf.path())!)
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
  });

  it("shows the API's validation errors on the right field of the new-scan form", async () => {
    await page.getByRole("link", { name: "Scans", exact: true }).click();
    await page.getByRole("link", { name: "New scan" }).click();
    // Nothing filled in: every field error at once, each on its field, in plain words.
    await page.getByRole("button", { name: "Start scan" }).click();
    const attest = page.locator(".field.attest .field-error");
    await attest.waitFor();
    await expect.poll(() => page.getByLabel("Target", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    const targetError = page.locator(".field.invalid", { has: page.getByLabel("Target", { exact: true }) }).locator(".field-error");
    expect(await targetError.textContent()).toMatch(/^Target must not be empty\.$|^Required\.$/);
    expect(await attest.textContent()).toBe("Tick this box to confirm.");
    await shot("new-scan-all-errors");
    // Without the attestation the API refuses the scan, naming `authorized`.
    await page.getByLabel("Target", { exact: true }).fill("127.0.0.1");
    await page.getByRole("button", { name: "Start scan" }).click();
    await expect.poll(() => page.getByLabel("Target", { exact: true }).getAttribute("aria-invalid")).toBe("false");
    // In plain words ("authorized must be one of: true" from the validator).
    expect(await attest.textContent()).toBe("Tick this box to confirm.");
    // An impossible target is refused on the target field (and no scan is created).
    await page.getByLabel("I confirm that I am authorized to scan this target.").check();
    await page.getByLabel("Target", { exact: true }).fill("not a host!");
    await page.getByRole("button", { name: "Start scan" }).click();
    await expect.poll(() => page.getByLabel("Target", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator(".field.attest .field-error").count()).toBe(0);
    await shot("new-scan-errors");
    await page.getByRole("link", { name: "Scans", exact: true }).click();
    // No scan yet: the list says what to do first.
    await page.getByRole("heading", { name: "Start your first scan" }).waitFor();
  });

  it("starts a quick scan of the lab from the New scan form and watches its progress reach 100 %", async () => {
    await page.getByRole("link", { name: "New scan" }).click();
    await page.getByLabel("Target", { exact: true }).fill(lab.weak.address);
    await page.getByLabel("Scan type").selectOption("quick");
    await page.getByLabel("Ports").fill(lab.weak.ports.join(","));
    await page.getByLabel("I confirm that I am authorized to scan this target.").check();
    const t0 = Date.now();
    // Every request the page makes while it follows the scan: one event stream, not a poll every 2 s.
    const requests: string[] = [];
    const onRequest = (r: { url: () => string }) => void requests.push(new URL(r.url()).pathname);
    page.on("request", onRequest);
    await page.getByRole("button", { name: "Start scan" }).click();
    const bar = page.getByRole("progressbar", { name: "Scan progress" });
    await bar.waitFor();
    const scanId = decodeURIComponent(/#\/scans\/([^/?]+)/.exec(page.url())?.[1] ?? "");
    expect(scanId).toMatch(/^scan_/);
    // Read what the page shows, as a person watching it would, until the scan completes.
    const phases = page.getByRole("list", { name: "Phases" });
    const progressSeen = new Set<number>();
    const doneSeen = new Set<number>();
    let running = false;
    await eventually(
      async () => {
        const progress = Number(await bar.getAttribute("aria-valuenow"));
        const done = await phases.locator("li.done").count();
        progressSeen.add(progress);
        doneSeen.add(done);
        if (!running && progress > 0 && progress < 100) {
          running = true;
          await shot("scan-running");
        }
        const completed = await page.getByRole("heading", { name: /Completed/ }).count();
        return progress === 100 && completed ? true : undefined;
      },
      "the scan page reaching 100 %",
      180_000,
    );
    timings.labScanMs = Date.now() - t0;
    labScanId = scanId;
    page.off("request", onRequest);
    const streams = requests.filter((r) => r === `/api/v1/scans/${scanId}/events`).length;
    const polls = requests.filter((r) => r === `/api/v1/scans/${scanId}`).length;
    expect(streams, requests.join("\n")).toBeGreaterThanOrEqual(1);
    // A few seconds' scan needs one stream (a reconnect at most), and one GET for the first paint.
    expect(streams + polls, requests.join("\n")).toBeLessThanOrEqual(3);
    // It moved while we watched: values between 0 and 100, and the phase list filled up step by step.
    expect(running, `progress seen: ${[...progressSeen].join(", ")}`).toBe(true);
    expect(doneSeen.size, `phases done seen: ${[...doneSeen].join(", ")}`).toBeGreaterThan(2);
    await expect.poll(() => phases.locator("li.done").count()).toBe(6);
    expect(await phases.locator("li:not(.done)").count()).toBe(0);
    await page.getByText("100% · Finished").waitFor();
    expect(await phases.textContent()).toContain("Checking for vulnerabilities");
    expect(await page.locator("main").textContent()).not.toMatch(RAW);
    const scan = (await asUser.get(`/api/v1/scans/${scanId}`)).body;
    expect(scan).toMatchObject({ status: "completed", progress: 100, phases_remaining: [] });
    // The summary counts every severity, info included, so its parts add up to its total.
    const summary = (await page.getByRole("link", { name: /^\d+ findings?\b/ }).textContent()) ?? "";
    const [, total = "", parts = ""] = /^(\d+) findings?(?:: (.*))?$/.exec(summary) ?? [];
    expect(Number(total), summary).toBe(scan.vulnerabilities_found);
    expect(summary).toMatch(scan.vulnerabilities_found === 1 ? /^1 finding\b/ : /^\d+ findings\b/);
    const counted = parts ? parts.split(", ").map((p) => Number(p.split(" ")[0])) : [];
    expect(
      counted.reduce((a, b) => a + b, 0),
      summary,
    ).toBe(scan.vulnerabilities_found);
    if (scan.info_count > 0) expect(summary).toContain(`${scan.info_count} info`);
    await shot("scan-completed");
  }, 240_000);

  it("retests a finding of the lab scan from its page and shows the verdict as it comes", async () => {
    expect(labScanId, "the lab scan of the test before").toMatch(/^scan_/);
    const items = (await asUser.get(`/api/v1/scans/${labScanId}/findings`)).body.items as { id: string; tool: string; severity: string }[];
    const target = items.find((f) => f.tool === "web" && f.severity !== "info") ?? items.find((f) => f.tool === "templates");
    expect(target, JSON.stringify(items.map((f) => f.tool))).toBeDefined();
    await page.goto(`${system.gatewayUrl}/#/findings/${encodeURIComponent(target!.id)}`);
    const card = page.getByRole("region", { name: "Retest" });
    await card.getByRole("button", { name: "Retest now" }).click();
    // Running first (the scanner has the job), then the verdict, without reloading the page.
    await card.getByText("Running…").waitFor({ timeout: 10_000 });
    await card.getByText("Still vulnerable").waitFor({ timeout: 90_000 });
    await card.getByRole("button", { name: "Retest now" }).waitFor();
    expect(await card.textContent()).toMatch(/retests left this month|Runs only the check/);
    const list = (await asUser.get(`/api/v1/findings/${target!.id}/retests`)).body;
    expect(list.items[0]).toMatchObject({ status: "completed", verdict: "still_vulnerable" });
    // The weakness is still there: the finding keeps its status.
    expect((await asUser.get(`/api/v1/findings/${target!.id}`)).body.status).not.toBe("resolved");
    await shot("finding-retest");
  }, 120_000);

  it("lists findings with their component, most severe first, sorts by a column header, groups a weakness, and keeps analysis apart", async () => {
    // Two components with the same weakness, and the two kinds of analysis items, in a scan of their own.
    const scanId = "scan_browser_list";
    const same = {
      scanId,
      templateId: "redis-no-auth",
      title: "Redis reachable without authentication",
      severity: Severity.MEDIUM,
      cvssScore: 6.5,
      cveIds: [],
      tool: "nuclei",
    };
    await publish(bus, Topics.findingsDetected, [
      detection(orgId, { ...same, affectedComponent: "10.0.0.7:6379" }),
      detection(orgId, { ...same, affectedComponent: "10.0.0.8:6379" }),
      detection(orgId, {
        scanId,
        templateId: "remediation-plan",
        title: "Remediation plan: 2 actions for app.example.test",
        severity: Severity.INFO,
        cvssScore: 0,
        cveIds: [],
        cweIds: [],
        tool: "remediation-planner",
        affectedComponent: "app.example.test",
      }),
      detection(orgId, {
        scanId,
        templateId: "correlation:cve-spread:CVE-2016-2183",
        title: "CVE-2016-2183 found on 2 components",
        severity: Severity.INFO,
        cvssScore: 0,
        cveIds: [],
        cweIds: [],
        tool: "correlator",
        affectedComponent: "CVE-2016-2183",
      }),
    ]);
    await eventually(async () => ((await asUser.get(`/api/v1/findings?scan_id=${scanId}`)).body.total === 4 ? true : undefined), "4 list findings ingested");
    const hash = () => decodeURIComponent(new URL(page.url()).hash);
    await page.goto(`${system.gatewayUrl}/#/findings?scan_id=${scanId}`);
    const rows = page.locator("tbody tr");
    await expect.poll(() => rows.count()).toBe(2);
    // The component tells the two apart; analysis items are not rows, they are listed apart.
    const components = await page.locator("tbody tr td:nth-child(3)").allTextContents();
    expect(components.sort()).toEqual(["10.0.0.7:6379", "10.0.0.8:6379"]);
    const analysis = page.getByRole("list", { name: "Scan analysis" });
    await expect
      .poll(() => analysis.getByRole("link").allTextContents())
      .toEqual(["Remediation plan: 2 actions for app.example.test", "CVE-2016-2183 found on 2 components"]);
    expect(await page.locator("tbody").textContent()).not.toMatch(/Remediation plan|found on 2 components/);
    await page.getByText("2 analysis items of this page").waitFor();
    // Grouping: the same weakness on two components is one row listing both, each linked to its finding.
    // The box shows the URL's state: it changes once the hash does, after the click (check()/uncheck()
    // would look at it at once and call the re-render that follows a failed click).
    const grouping = page.getByLabel("Group the same weakness across components");
    await grouping.click();
    await expect.poll(hash).toContain("group=weakness");
    await expect.poll(() => grouping.isChecked()).toBe(true);
    await expect.poll(() => rows.count()).toBe(1);
    const group = page.getByRole("list", { name: "Components with Redis reachable without authentication" });
    expect((await group.getByRole("link").allTextContents()).sort()).toEqual(["10.0.0.7:6379", "10.0.0.8:6379"]);
    await shot("findings-grouped");
    await grouping.click();
    await expect.poll(() => grouping.isChecked()).toBe(false);
    await expect.poll(() => rows.count()).toBe(2);
    // Free-text search through the API's `search` (title, component, CVE, template; every word must appear).
    await page.goto(`${system.gatewayUrl}/#/findings`);
    await page.getByRole("searchbox", { name: "Search" }).fill("redis 10.0.0.8");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect.poll(hash).toContain("search=redis+10.0.0.8");
    const found = (await asUser.get(`/api/v1/findings?search=${encodeURIComponent("redis 10.0.0.8")}`)).body;
    expect(found.total).toBe(1);
    await expect.poll(() => rows.count()).toBe(1);
    expect(await page.locator("tbody tr td:nth-child(3)").textContent()).toBe("10.0.0.8:6379");
    expect(await page.getByRole("searchbox", { name: "Search" }).inputValue()).toBe("redis 10.0.0.8");
    await shot("findings-search");

    // The lab scan's findings: most severe first by default, then sorted by clicking a column header.
    const lab = (await asUser.get(`/api/v1/scans?status=completed&per_page=1`)).body.items[0] as { id: string };
    await page.goto(`${system.gatewayUrl}/#/findings?scan_id=${lab.id}`);
    const rank = (s: string) => ["Critical", "High", "Medium", "Low", "Info"].indexOf(s);
    const severities = () => page.locator("tbody tr td:nth-child(4)").allTextContents();
    const cvss = async () => (await page.locator("tbody tr td:nth-child(5)").allTextContents()).map(Number);
    await expect.poll(async () => (await severities()).length).toBeGreaterThan(1);
    const shown = await severities();
    expect(shown).toEqual([...shown].sort((a, b) => rank(a) - rank(b)));
    expect(await page.getByRole("columnheader", { name: /Severity/ }).getAttribute("aria-sort")).toBe("descending");
    for (const c of await page.locator("tbody tr td:nth-child(3)").allTextContents()) expect(c).not.toBe("—");
    // Every column fits a 1280 px screen: the last column (Detected) ends inside the viewport and the
    // table's box has nothing to scroll sideways (it used to cut Detected off at this width).
    type Box = { scrollWidth: number; clientWidth: number };
    const table = page.locator(".findings-table");
    const measure = async () => {
      const cells = [table.locator("thead th").last(), ...(await table.locator("tbody tr td:last-child").all())];
      const boxes = await Promise.all(cells.map((c) => c.boundingBox()));
      return {
        lastHeader: (await cells[0]!.textContent()) ?? "",
        right: Math.max(...boxes.map((b) => (b ? b.x + b.width : Number.POSITIVE_INFINITY))),
        viewport: page.viewportSize()!.width,
        overflow: await table.evaluate((el: Box) => el.scrollWidth - el.clientWidth),
        pageOverflow: await page.locator("html").evaluate((el: Box) => el.scrollWidth - el.clientWidth),
      };
    };
    const wide = await measure();
    expect(wide.lastHeader).toMatch(/^Detected/);
    expect(wide.right).toBeLessThanOrEqual(wide.viewport);
    expect(wide.overflow).toBeLessThanOrEqual(0);
    await shot("findings-severity-first");
    // At 390 px the page itself does not scroll sideways: the table scrolls inside its card, and
    // scrolled to its end shows the last column whole.
    await page.setViewportSize({ width: 390, height: 844 });
    const narrow = await measure();
    expect(narrow.pageOverflow).toBeLessThanOrEqual(0);
    expect(narrow.overflow).toBeGreaterThan(0);
    await table.evaluate((el: Box & { scrollLeft: number }) => {
      el.scrollLeft = el.scrollWidth;
    });
    const scrolled = await measure();
    expect(scrolled.right).toBeLessThanOrEqual(scrolled.viewport);
    await shot("findings-severity-first-390px");
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole("button", { name: "CVSS", exact: true }).click();
    await expect.poll(hash).toContain("sort=cvss_score&order=desc");
    await expect.poll(() => page.getByRole("columnheader", { name: /CVSS/ }).getAttribute("aria-sort")).toBe("descending");
    await expect
      .poll(async () => {
        const v = await cvss();
        return v.every((x, i) => i === 0 || v[i - 1]! >= x);
      })
      .toBe(true);
    await page.getByRole("button", { name: "CVSS", exact: true }).click();
    await expect.poll(hash).toContain("sort=cvss_score&order=asc");
    await expect
      .poll(async () => {
        const v = await cvss();
        return v.length > 1 && v.every((x, i) => i === 0 || v[i - 1]! <= x);
      })
      .toBe(true);
    // The API sorted them: the page equals the API's first page for the same sort.
    const api = (await asUser.get(`/api/v1/findings?scan_id=${lab.id}&sort=cvss_score&order=asc&per_page=25`)).body.items as { cvss_score: number }[];
    expect(await cvss()).toEqual(api.map((f) => Number(f.cvss_score.toFixed(1))));
    expect(await page.locator("main").textContent()).not.toMatch(RAW);
    await page.setViewportSize({ width: 390, height: 844 });
    await shot("findings-sorted-390px");
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("creates an API key shown once, which works until it is revoked", async () => {
    await page.getByRole("link", { name: "Settings", exact: true }).click();
    await page.getByRole("link", { name: "API Keys" }).click();
    // The hint says what the API does with an empty expiry: its default, 90 days here.
    await page.getByText(/Every key expires\. Leave empty for the server's default: 90 days/).waitFor();
    await page.getByLabel("Name").fill("ci pipeline");
    await page.getByRole("button", { name: "Create key" }).click();
    const key = (await page.getByTestId("new-api-key").textContent()) ?? "";
    expect(key.length).toBeGreaterThan(20);
    await page.getByText(/It expires /).waitFor();
    const made = ((await asUser.get("/api/v1/auth/api-keys")).body.items as { name: string; created_at: string; expires_at: string }[]).find(
      (k) => k.name === "ci pipeline",
    )!;
    expect(Math.abs(Date.parse(made.expires_at) - Date.parse(made.created_at) - 90 * 24 * 3600 * 1000)).toBeLessThan(1000);
    await page.getByRole("cell", { name: "ci pipeline", exact: true }).waitFor();
    await shot("api-key-created");
    const withKey = api.withApiKey(key);
    expect((await withKey.get("/api/v1/findings")).status).toBe(200);
    // Shown once: after a reload only the prefix is listed.
    await page.reload();
    await page.getByRole("cell", { name: "ci pipeline", exact: true }).waitFor();
    expect(await page.getByTestId("new-api-key").count()).toBe(0);
    expect(await page.content()).not.toContain(key);
    await page.getByRole("button", { name: "Revoke ci pipeline" }).click();
    await page.getByRole("cell", { name: "revoked" }).waitFor();
    await eventually(async () => ((await withKey.get("/api/v1/findings")).status === 401 ? true : undefined), "revoked key refused", 5000);
  });

  it("manages a webhook: the API's SSRF refusal on the url field, create, test, deliveries with retry, edit, delete", async () => {
    await page.getByRole("link", { name: "Settings", exact: true }).click();
    await page.getByRole("link", { name: "Webhooks", exact: true }).click();
    const add = page.getByRole("form", { name: "Add a webhook" });
    // The URL hint says what decides (the egress allowlist), not "public addresses" only.
    expect(
      await add
        .locator(".field", { has: page.getByLabel("URL") })
        .locator(".hint")
        .textContent(),
    ).toContain("WEBHOOK_ALLOWED_NETWORKS");
    await add.getByLabel("Name").fill("ci receiver");
    await add.getByLabel("URL").fill("https://169.254.169.254/hook");
    await add.getByLabel("vulnerability.critical", { exact: true }).check();
    await add.getByLabel("Signing secret").fill(HOOK_SECRET);
    await add.getByRole("button", { name: "Add webhook" }).click();
    // The dispatcher refuses the metadata address; the console puts that on the URL field only.
    await expect.poll(() => add.getByLabel("URL").getAttribute("aria-invalid")).toBe("true");
    expect(await add.locator(".field.invalid label").allTextContents()).toEqual(["URL"]);
    expect((await asUser.get("/api/v1/webhooks")).body.total).toBe(0);

    await add.getByLabel("URL").fill(`${receiver.url}/flaky/console`);
    await add.getByRole("button", { name: "Add webhook" }).click();
    const card = page.getByRole("article", { name: /ci receiver/ });
    await card.waitFor();
    const listed = (await asUser.get("/api/v1/webhooks")).body;
    expect(listed.total).toBe(1);
    expect(listed.items[0]).toMatchObject({
      name: "ci receiver",
      url: `${receiver.url}/flaky/console`,
      events: ["scan.completed", "vulnerability.critical"],
      active: true,
      has_secret: true,
    });
    const hookId = listed.items[0].id as string;

    // The receiver fails the first attempt of each delivery: the test shows that failure.
    await card.getByRole("button", { name: "Send test" }).click();
    const result = card.getByRole("status", { name: "Test result of ci receiver" });
    await result.waitFor();
    expect(await result.textContent()).toMatch(/Test delivery delivery_\S+: Failed HTTP 503 in \d+ ms/);
    const deliveryId = /delivery_\S+(?=:)/.exec((await result.textContent()) ?? "")?.[0] ?? "";
    expect(receiver.requests.some((r) => r.id === deliveryId && r.event === "webhook.test")).toBe(true);

    // The history shows it; filtered to failed test events, then retried by hand: the second attempt succeeds.
    await card.getByRole("button", { name: "Deliveries" }).click();
    const history = card.getByRole("region", { name: "Deliveries of ci receiver" });
    await history.getByLabel("Delivery status").selectOption("failed");
    await history.getByLabel("Event").selectOption("webhook.test");
    await history.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => history.locator("tbody tr").count()).toBe(1);
    await history.getByText(deliveryId, { exact: true }).waitFor();
    await history.getByRole("button", { name: `Retry ${deliveryId}` }).click();
    await history.getByText(`Retried ${deliveryId}: delivered, HTTP 200`).waitFor();
    await history.getByText("No deliveries match.").waitFor(); // no failed one left
    await history.getByLabel("Delivery status").selectOption("success");
    await history.getByRole("button", { name: "Apply" }).click();
    await history.locator("tbody .badge.status-success").waitFor();
    expect((await asUser.get(`/api/v1/webhooks/${hookId}/deliveries?status=success`)).body.items[0]).toMatchObject({ id: deliveryId, attempts: 2 });
    await shot("settings-webhooks");
    await page.setViewportSize({ width: 390, height: 844 });
    await shot("settings-webhooks-390px");
    await page.setViewportSize({ width: 1280, height: 900 });

    // Edit: rename and switch off; the API has it.
    await card.getByRole("button", { name: "Edit" }).click();
    const edit = card.getByRole("form", { name: "Edit ci receiver" });
    await edit.getByLabel("Name").fill("ci receiver (paused)");
    await edit.getByLabel("Active").uncheck();
    await edit.getByRole("button", { name: "Save changes" }).click();
    await page
      .getByRole("article", { name: /ci receiver \(paused\)/ })
      .getByText("Disabled", { exact: true })
      .waitFor();
    expect((await asUser.get(`/api/v1/webhooks/${hookId}`)).body).toMatchObject({ name: "ci receiver (paused)", active: false, has_secret: true });

    await page
      .getByRole("article", { name: /ci receiver/ })
      .getByRole("button", { name: "Delete" })
      .click();
    await page.getByText("No webhooks yet.").waitFor();
    expect((await asUser.get(`/api/v1/webhooks/${hookId}`)).status).toBe(404);
  });

  it("keeps the controls' filters and page in the URL: a framework score click shows in the select, a status keeps the framework", async () => {
    // The sequence of issue 26: a status filter first, then "SOC 2" in the scores, then a status.
    const total = async (query: string) => (await asUser.get(`/api/v1/controls?${query}&per_page=25`)).body.total as number;
    const soc2 = await total("framework=soc2");
    const soc2NotStarted = await total("framework=soc2&status=not_started");
    const allNotStarted = await total("status=not_started");
    expect(soc2).toBe(61);
    expect(soc2NotStarted).toBeGreaterThan(0);
    expect(allNotStarted).toBeGreaterThan(soc2NotStarted);
    const hash = () => new URL(page.url()).hash;
    const filters = page.getByRole("form", { name: "Filter controls" });
    const framework = filters.getByLabel("Framework");
    const status = filters.getByLabel("Status");
    const pager = page.getByRole("navigation", { name: "Pagination" });
    const selectedText = (select: typeof framework) =>
      select.evaluate((el: { selectedOptions: ArrayLike<{ textContent: string | null }> }) => el.selectedOptions[0]?.textContent ?? "");

    // Compliance is in the top navigation; its list of every control keeps the filters.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Compliance", exact: true }).click();
    await page.getByRole("link", { name: "Browse and filter every control" }).click();
    await status.selectOption("failing");
    await filters.getByRole("button", { name: "Apply" }).click();
    await expect.poll(hash).toBe("#/compliance/controls?status=failing&page=1");

    await page.getByRole("table", { name: "Framework scores" }).getByRole("link", { name: "SOC 2", exact: true }).click();
    await expect.poll(hash).toBe("#/compliance/controls?framework=soc2");
    // The selects say what the list is filtered by: SOC 2, and no status left over from before.
    await expect.poll(() => selectedText(framework)).toBe("SOC 2");
    expect(await framework.inputValue()).toBe("soc2");
    expect(await status.inputValue()).toBe("");
    await expect.poll(() => pager.textContent()).toContain(`${soc2} total`);
    const frameworksColumn = page.getByRole("table", { name: "controls" }).locator("tbody tr td:nth-child(3)");
    for (const refs of await frameworksColumn.allTextContents()) expect(refs).toMatch(/^SOC 2 /);
    expect(await page.locator("main").textContent()).not.toMatch(RAW);
    await shot("controls-soc2-from-score");

    // A status applied now keeps the framework: SOC 2's not-started controls, not every framework's.
    await status.selectOption("not_started");
    await filters.getByRole("button", { name: "Apply" }).click();
    await expect.poll(hash).toBe("#/compliance/controls?framework=soc2&status=not_started&page=1");
    await expect.poll(() => pager.textContent()).toContain(`${soc2NotStarted} total`);
    expect(await selectedText(framework)).toBe("SOC 2");
    expect(await selectedText(status)).toBe("Not started");
    for (const s of await page.getByRole("table", { name: "controls" }).locator("tbody .badge").allTextContents()) expect(s.toLowerCase()).toBe("not started");
    await shot("controls-soc2-not-started");

    // The page is in the URL too, with the filters; Back shows the previous URL's filters again.
    if (soc2NotStarted > 25) {
      await pager.getByRole("button", { name: "Next" }).click();
      await expect.poll(hash).toBe("#/compliance/controls?framework=soc2&status=not_started&page=2");
      await expect.poll(() => pager.textContent()).toContain(`Page 2 of ${Math.ceil(soc2NotStarted / 25)}`);
      await page.goBack();
      await expect.poll(hash).toBe("#/compliance/controls?framework=soc2&status=not_started&page=1");
    }
    await page.goBack();
    await expect.poll(hash).toBe("#/compliance/controls?framework=soc2");
    await expect.poll(() => status.inputValue()).toBe("");
    expect(await framework.inputValue()).toBe("soc2");
    await expect.poll(() => pager.textContent()).toContain(`${soc2} total`);
  });

  it("lists controls and framework scores, sets a control's status, uploads evidence and downloads it", async () => {
    // An old Settings > Controls link lands on Compliance's list.
    await page.goto(`${system.gatewayUrl}/#/settings/controls`);
    await expect.poll(() => new URL(page.url()).hash).toBe("#/compliance/controls");
    const scores = page.getByRole("table", { name: "Framework scores" });
    await expect.poll(() => scores.locator("tbody tr").count()).toBe(8);
    await page.getByRole("form", { name: "Filter controls" }).getByLabel("Framework").selectOption("soc2");
    await page.getByRole("button", { name: "Apply" }).click();
    const expected = (await asUser.get("/api/v1/controls?framework=soc2&per_page=25")).body;
    expect(expected.total).toBeGreaterThan(0);
    await expect
      .poll(() => page.getByRole("table", { name: "controls" }).locator("tbody tr td:first-child a").allTextContents())
      .toEqual(expected.items.map((c: { name: string }) => c.name));
    const control = expected.items[0] as { id: string; name: string };
    await shot("settings-controls-list");

    await page.getByRole("link", { name: control.name, exact: true }).click();
    const form = page.getByRole("form", { name: "Control status" });
    await form.getByLabel("Status").selectOption("implemented");
    await form.getByLabel("Owner").fill("ciso@example.test");
    await form.getByLabel("Notes").fill("Reviewed in the Q3 access review.");
    await form.getByRole("button", { name: "Save" }).click();
    await form.getByText("Saved.").waitFor();
    expect((await asUser.get(`/api/v1/controls/${control.id}`)).body).toMatchObject({
      set_status: "implemented",
      owner: "ciso@example.test",
      notes: "Reviewed in the Q3 access review.",
    });
    await page.reload();
    await expect.poll(() => page.getByRole("form", { name: "Control status" }).getByLabel("Status").inputValue()).toBe("implemented");

    const content = "Q3 access review: 42 accounts reviewed, 0 stale.\n";
    const upload = page.getByRole("form", { name: "Upload evidence" });
    await upload.getByLabel("File").setInputFiles({ name: "access-review.txt", mimeType: "text/plain", buffer: Buffer.from(content) });
    await upload.getByLabel("Title").fill("Q3 access review");
    await upload.getByRole("button", { name: "Upload evidence" }).click();
    // clamd checks it before it is stored as clean (the stack runs a real clamd).
    await page.getByText("Uploaded access-review.txt: clean.").waitFor();
    await page.getByRole("cell", { name: /Q3 access review/ }).waitFor();
    const evidence = (await asUser.get(`/api/v1/evidence?control_id=${control.id}`)).body;
    expect(evidence.items).toMatchObject([{ name: "access-review.txt", title: "Q3 access review", status: "clean" }]);
    const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download access-review.txt" }).click()]);
    expect(file.suggestedFilename()).toBe("access-review.txt");
    expect(fs.readFileSync((await file.path())!, "utf8")).toBe(content);
    await shot("settings-controls");
    await page.setViewportSize({ width: 390, height: 844 });
    await shot("settings-controls-390px");
    await page.setViewportSize({ width: 1280, height: 900 });

    // The lab scan's open critical/high findings make controls fail; a failing control links them.
    const failing = await eventually(async () => {
      const body = (await asUser.get("/api/v1/controls?status=failing&per_page=1")).body;
      return body.total > 0 ? (body.items[0] as { id: string; name: string }) : undefined;
    }, "a failing control");
    await page.getByRole("link", { name: "← All controls" }).click();
    const filters = page.getByRole("form", { name: "Filter controls" });
    await filters.getByLabel("Framework").selectOption("");
    await filters.getByLabel("Status").selectOption("failing");
    await filters.getByRole("button", { name: "Apply" }).click();
    await page.getByRole("table", { name: "controls" }).getByRole("link", { name: failing.name, exact: true }).first().click();
    // The findings that make it fail, by title and severity (most severe first), linked to their pages.
    const failingList = page.getByRole("list", { name: "Failing findings" });
    const linked = failingList.getByRole("link");
    const findingIds = (await asUser.get(`/api/v1/controls/${failing.id}`)).body.finding_ids as string[];
    expect(findingIds.length).toBeGreaterThan(0);
    const shown = await Promise.all(
      findingIds.map(async (id) => (await asUser.get(`/api/v1/findings/${id}`)).body as { id: string; title: string; severity: string }),
    );
    await expect.poll(() => linked.count()).toBe(shown.length);
    expect((await linked.allTextContents()).sort()).toEqual(shown.map((f) => f.title).sort());
    expect(await failingList.textContent()).not.toMatch(/finding_/);
    const severities = (await failingList.locator(".badge").allTextContents()).map((s) => s.toLowerCase());
    expect([...severities].sort()).toEqual(shown.map((f) => f.severity).sort());
    const rank = (s: string) => ["critical", "high"].indexOf(s);
    expect(severities).toEqual([...severities].sort((a, b) => rank(a) - rank(b)));
    const firstTitle = await linked.first().textContent();
    const first = shown.find((f) => f.title === firstTitle)!;
    await shot("control-failing");
    await linked.first().click();
    await page.getByRole("heading", { name: "Remediation" }).waitFor();
    expect(decodeURIComponent(page.url())).toContain(`#/findings/${first.id}`);
  });

  it("has Compliance in the top navigation with a page per framework: score, controls by status with their requirement, failing findings", async () => {
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "Compliance", exact: true }).click();
    await page.getByRole("heading", { name: "Compliance", level: 1 }).waitFor();
    await page.getByRole("table", { name: "Framework scores" }).getByRole("link", { name: "PCI DSS", exact: true }).click();
    await expect.poll(() => new URL(page.url()).hash).toBe("#/compliance/pci_dss");
    await page.getByRole("heading", { name: "PCI DSS", level: 1 }).waitFor();
    // Every PCI DSS control once, in the section of its status; the counts add up to the framework's.
    const controls: { id: string; name: string; status: string; requirement: string }[] = [];
    for (let n = 1; ; n++) {
      const body = (await asUser.get(`/api/v1/controls?framework=pci_dss&per_page=100&page=${n}`)).body;
      controls.push(...body.items);
      if (n >= body.pages) break;
    }
    expect(controls).toHaveLength(94);
    const sectionOf = {
      failing: "Failing",
      in_progress: "In progress",
      not_started: "Not started",
      implemented: "Implemented",
      not_applicable: "Not applicable",
    };
    let listed = 0;
    for (const [status, words] of Object.entries(sectionOf)) {
      const expected = controls.filter((c) => c.status === status);
      // By CSS, not role: long groups start folded (hidden from the accessibility tree until opened).
      const list = page.locator(`ul[aria-label="${words} controls"]`);
      if (expected.length === 0) {
        expect(await list.count()).toBe(0);
        continue;
      }
      await expect.poll(() => list.locator(":scope > li").count()).toBe(expected.length);
      listed += expected.length;
    }
    expect(listed).toBe(94);
    // The lab scan left failing PCI DSS controls; each says what it asks for, in our words.
    const failing = controls.filter((c) => c.status === "failing");
    expect(failing.length).toBeGreaterThan(0);
    const failingList = page.getByRole("list", { name: "Failing controls" });
    for (const c of failing) {
      expect(c.requirement.length).toBeGreaterThan(20);
      await failingList.getByText(c.requirement, { exact: true }).first().waitFor();
    }
    // The findings that make them fail, by title and severity, linked: the open critical/high findings mapped to PCI DSS.
    const severe: { id: string; title: string; frameworks: string[] }[] = [];
    for (const severity of ["critical", "high"])
      for (const status of ["open", "in_progress"])
        severe.push(...(await asUser.get(`/api/v1/findings?severity=${severity}&status=${status}&per_page=100`)).body.items);
    const mine = severe.filter((f) => f.frameworks.includes("pci_dss"));
    expect(mine.length).toBeGreaterThan(0);
    const findingLinks = page.getByRole("list", { name: "Findings failing PCI DSS" }).getByRole("link");
    await expect.poll(() => findingLinks.count()).toBe(mine.length);
    expect((await findingLinks.allTextContents()).sort()).toEqual(mine.map((f) => f.title).sort());
    expect(await page.locator("main").textContent()).not.toMatch(RAW);
    await shot("compliance-pci-dss");
    await page.setViewportSize({ width: 390, height: 844 });
    await shot("compliance-pci-dss-390px");
    await page.setViewportSize({ width: 1280, height: 900 });
    // A control's link opens its page with the same requirement text.
    const first = failing[0]!;
    await failingList.getByRole("link", { name: first.name, exact: true }).first().click();
    await page.getByRole("heading", { name: first.name }).waitFor();
    await page.getByText(first.requirement, { exact: true }).waitFor();
  });

  it("opens /docs and /redoc after sign-in, listing every operation", async () => {
    const spec = await eventually(async () => {
      const res = await page.request.get(`${system.gatewayUrl}/openapi.json`);
      return res.status() === 200 ? ((await res.json()) as { paths: Record<string, object> }) : undefined;
    }, "openapi.json with the docs cookie");
    const operations = Object.entries(spec.paths)
      .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`))
      .sort();
    expect(operations.length).toBeGreaterThan(20);
    const docs = await context.newPage();
    const res = await docs.goto(`${system.gatewayUrl}/docs`);
    expect(res?.status()).toBe(200);
    // Swagger UI lists an operation under each of its tags; every operation must be there.
    const listed = async () => {
      const rows = await docs
        .locator(".opblock-summary")
        .evaluateAll((els) =>
          els.map((e) => `${e.querySelector(".opblock-summary-method")?.textContent} ${e.querySelector(".opblock-summary-path")?.getAttribute("data-path")}`),
        );
      return [...new Set(rows)].sort();
    };
    await expect.poll(listed, { timeout: 20_000 }).toEqual(operations);
    await shot("swagger-ui", docs);
    const redoc = await docs.goto(`${system.gatewayUrl}/redoc`);
    expect(redoc?.status()).toBe(200);
    // ReDoc's sections are "tag/<tag>/operation/<operationId>" (or "tag/<tag>/paths/<path>/<method>" for an
    // operation without an id): one per operation and tag.
    const redocListed = async () => {
      const ids = await docs
        .locator("[data-section-id*='/operation/'], [data-section-id*='/paths/']")
        .evaluateAll((els) => els.map((e) => e.getAttribute("data-section-id") ?? ""));
      return new Set(ids.map((id) => id.replace(/^tag\/[^/]+\//, ""))).size;
    };
    await docs.screenshot({ path: path.join(SHOTS, "redoc.png") });
    await expect.poll(redocListed, { timeout: 30_000 }).toBe(operations.length);
    await docs.close();
  });

  it("lets a signed-in reader try GET /api/v1/scans/quota from /docs and get 200", async () => {
    const docs = await context.newPage();
    await docs.goto(`${system.gatewayUrl}/docs`);
    const op = docs.locator(".opblock", { has: docs.locator('.opblock-summary-path[data-path="/api/v1/scans/quota"]') }).first();
    await op.locator(".opblock-summary").click();
    await op.getByRole("button", { name: "Try it out" }).click();
    await op.getByRole("button", { name: "Execute" }).click();
    const status = op.locator(".live-responses-table .response .response-col_status").first();
    await expect.poll(async () => (await status.textContent().catch(() => ""))?.trim(), { timeout: 20_000 }).toBe("200");
    const body = await op.locator(".live-responses-table .response-col_description .microlight").first().textContent();
    expect(JSON.parse(body ?? "{}")).toMatchObject({ plan: "enterprise" });
    await shot("swagger-try-it-out", docs);
    await docs.close();
  });

  it("offers a browser without a session a way in at /docs instead of a JSON 401, and a pasted token opens the reference", async () => {
    // A browser of its own: no console session, no docs cookie.
    const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: CHROMIUM_ARGS });
    const stranger = await browser.newPage();
    const res = await stranger.goto(`${system.gatewayUrl}/docs`);
    expect(res?.status()).toBe(401);
    await expect.poll(() => stranger.getByRole("heading", { name: "vulnscan API reference" }).isVisible()).toBe(true);
    expect(await stranger.getByRole("link", { name: "Sign in to the web console" }).getAttribute("href")).toBe("/");
    await shot("docs-sign-in", stranger);
    await stranger.getByLabel(/paste an access token/).fill("not-a-token");
    await stranger.getByRole("button", { name: "Open the reference" }).click();
    await expect.poll(() => stranger.getByRole("alert").textContent()).toMatch(/\S/);
    await stranger.getByLabel(/paste an access token/).fill(setupToken);
    await stranger.getByRole("button", { name: "Open the reference" }).click();
    await expect.poll(() => stranger.locator(".opblock-summary").count(), { timeout: 20_000 }).toBeGreaterThan(20);
    await browser.close();
  });

  it("signs out with a message when the session is revoked from another session", async () => {
    const other = await api.token(email, PASSWORD, totp(Date.now() + 30_000));
    expect(other.status, JSON.stringify(other.body)).toBe(200);
    const otherApi = api.withToken(other.body.access_token);
    const sessions = (await otherApi.get("/api/v1/auth/sessions")).body.items as { id: string; current: boolean }[];
    // Every other session: the console's (and the one the setup used to wait for ingestion).
    const others = sessions.filter((s) => !s.current);
    expect(others.length).toBeGreaterThan(0);
    for (const s of others) expect((await otherApi.delete(`/api/v1/auth/sessions/${s.id}`)).status).toBe(200);
    await eventually(async () => {
      await page.getByRole("link", { name: "Findings", exact: true }).click();
      await page
        .getByRole("link", { name: "Dashboard", exact: true })
        .click({ timeout: 1000 })
        .catch(() => undefined);
      return (await page.getByText("You were signed out because your session was revoked.").count()) ? true : undefined;
    }, "console signed out");
    await shot("signed-out");
    // The docs cookie died with the session.
    expect((await page.request.get(`${system.gatewayUrl}/openapi.json`)).status()).toBe(401);
  });

  it("greets a new Startup organization with what to do first, and says what its plan leaves out before any form is filled", async () => {
    const org = admin(["create-org", "--name", `Startup ${unique("org")}`, "--plan", "startup"], envForAdmin).id;
    const startupEmail = `${unique("founder")}@example.test`.toLowerCase();
    admin(["create-user", "--org", org, "--email", startupEmail, "--password", PASSWORD], envForAdmin);
    // A tab of its own: its own sessionStorage, so its own session.
    const p = await context.newPage();
    await signIn(p, undefined, startupEmail);
    // First run: no scan, no finding. The dashboard says what to do instead of showing zeros only.
    const who = p.getByRole("region", { name: "Signed in" });
    await expect.poll(() => who.textContent()).toContain("Startup plan");
    expect(await who.textContent()).toContain(startupEmail);
    await p.getByRole("heading", { name: "Start your first scan" }).waitFor();
    await shot("dashboard-first-run", p);
    await p.setViewportSize({ width: 390, height: 844 });
    await shot("dashboard-first-run-390px", p);
    await p.setViewportSize({ width: 1280, height: 900 });
    await p.getByRole("link", { name: "Start your first scan" }).click();
    await p.getByRole("heading", { name: "New scan" }).waitFor();
    await p.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Scans", exact: true }).click();
    await p.getByRole("link", { name: "Start your first scan" }).waitFor();
    await p.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Findings", exact: true }).click();
    await p.getByText("No findings yet.").waitFor();

    // The features the plan leaves out are exactly the operations the API marks x-plans.
    const founder = api.withToken((await api.token(startupEmail, PASSWORD)).body.access_token);
    const spec = (await founder.get("/openapi.json")).body as { paths: Record<string, Record<string, { "x-plans"?: string[] }>> };
    const gated = Object.entries(spec.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op["x-plans"])
        .map(([method]) => `${method} ${path}`),
    );
    expect(gated.sort()).toEqual(["post /api/v1/auth/api-keys", "post /api/v1/scans/schedules", "post /api/v1/webhooks"]);

    // Said before a form is filled: no form to fill, what to ask for, and what to do meanwhile.
    await p.getByRole("link", { name: "Settings", exact: true }).click();
    await p.getByRole("link", { name: "API Keys" }).click();
    await p.getByRole("heading", { name: "Your plan does not include API keys" }).waitFor();
    expect(await p.getByRole("form", { name: "Create an API key" }).count()).toBe(0);
    await p.getByRole("link", { name: "API docs" }).last().waitFor();
    await shot("settings-api-keys-startup", p);
    await p.getByRole("link", { name: "Webhooks", exact: true }).click();
    await p.getByRole("heading", { name: "Your plan does not include webhooks" }).waitFor();
    expect(await p.getByRole("form", { name: "Add a webhook" }).count()).toBe(0);
    await p.getByText(/come with the Professional and Enterprise plans/).waitFor();
    await shot("settings-webhooks-startup", p);
    await p.setViewportSize({ width: 390, height: 844 });
    await shot("settings-webhooks-startup-390px", p);
    await p.close();
  });
});
