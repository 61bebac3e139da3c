// The Assets page (issue 29) in a real browser against the real stack: add a domain, read the TXT
// record it asks for, check with nothing published (failed, with what was found), publish the
// record on the test's own DNS server, check now (verified, the recent checks); then an address
// scanned on loopback shows its inventory (last scan, open findings, open ports with first and
// last seen). Screenshots in .tmp/screenshots/assets-*.png.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ROOT } from "../../scripts/lib/root.js";
import { CHROMIUM_ARGS, ensureChromium } from "../../scripts/stack/chromium.js";
import { startSystem, type RunningSystem } from "../../scripts/system.js";
import { admin, Api } from "../support/api.js";
import { startTestDns, type TestDns } from "../support/dns-server.js";
import { unique } from "../support/names.js";

const PASSWORD = "correct horse battery staple";
const SHOTS = path.join(ROOT, ".tmp", "screenshots");
/** What people should never read: the API's spellings of methods and statuses, ISO timestamps. */
const RAW = /\b(dns_txt|http_file|reverse_dns|attestation)\b|\d{4}-\d{2}-\d{2}T\d{2}:/;

let system: RunningSystem;
let dns: TestDns;
let browser: Browser;
let page: Page;
let email: string;
let asUser: Api;

const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `assets-${name}.png`), fullPage: true });

beforeAll(async () => {
  const executablePath = await ensureChromium((l) => process.stdout.write(`[browser] ${l}\n`));
  dns = await startTestDns();
  const prefix = `${unique("assets")}_`;
  system = await startSystem({
    kafkaBrokers: inject("kafkaBrokers"),
    mongoUrl: inject("mongoUrl"),
    dbPrefix: prefix,
    topicPrefix: prefix,
    logDir: fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-browser-assets-")),
    logLevel: "warn",
    // No file look-ups on this machine's loopback ports 443 and 80 (other processes listen there): the file method is off.
    env: { DNS_SERVERS: dns.server, VERIFICATION_HTTPS_PORT: "0", VERIFICATION_HTTP_PORT: "0" },
  });
  const env = { MONGO_URL: inject("mongoUrl"), MONGO_DB: `${prefix}auth` };
  const orgId = admin(["create-org", "--name", `Assets ${unique("org")}`, "--plan", "enterprise"], env).id;
  email = `${unique("owner")}@example.test`.toLowerCase();
  admin(["create-user", "--org", orgId, "--email", email, "--password", PASSWORD], env);
  const api = new Api(system.gatewayUrl);
  asUser = api.withToken((await api.token(email, PASSWORD)).body.access_token);
  fs.mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await system?.stop();
  await dns?.close();
});

describe("Assets page", () => {
  it("adds a domain, shows the record to publish, fails a check with nothing published, verifies once the record is there", async () => {
    await page.goto(`${system.gatewayUrl}/`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Dashboard" }).waitFor();

    await page.getByRole("link", { name: "Assets" }).click();
    await page.getByRole("heading", { name: "Assets", level: 1 }).waitFor();
    await page.getByRole("button", { name: "Add asset" }).click();
    await expect.poll(() => page.getByRole("alert").first().textContent()).toContain("Enter a domain");

    // The name must resolve into the installation's allowed networks (loopback here) to be added.
    dns.set("shop.assets.test", "A", ["127.0.0.1"]);
    await page.getByLabel("Domain, IP address or range").fill("shop.assets.test");
    await page.getByRole("button", { name: "Add asset" }).click();
    const card = page.getByRole("article").filter({ hasText: "shop.assets.test" });
    await card.getByText("Waiting for proof").waitFor();
    await card.locator("code", { hasText: "_vulnscan-challenge.shop.assets.test" }).waitFor();
    const token = (await asUser.get("/api/v1/targets")).body.items[0].verification.token as string;
    await card.getByText(`vulnscan-verification=${token}`).first().waitFor();
    expect(await card.getByRole("button", { name: "Copy the DNS TXT record value" }).isVisible()).toBe(true);
    await shot("pending");

    await card.getByRole("button", { name: "Check now" }).click();
    await card.getByText("Check failed").waitFor();
    await card
      .getByText(/no TXT record at _vulnscan-challenge\.shop\.assets\.test/)
      .first()
      .waitFor();
    await card.getByRole("table", { name: "Recent checks" }).waitFor();
    // The reason of each method in words, the file's too (the file method is off here: no port to ask).
    await card
      .getByText(/Last check: TXT record: no TXT record at .*; HTTP file: \/\.well-known\/vulnscan-verification\.txt not served by 127\.0\.0\.1$/)
      .waitFor();
    expect((await page.locator("main").textContent()) ?? "").not.toMatch(RAW);
    await shot("failed");

    dns.set("_vulnscan-challenge.shop.assets.test", "TXT", [`vulnscan-verification=${token} include-subdomains`]);
    await card.getByRole("button", { name: "Check now" }).click();
    await card.getByText("Verified", { exact: true }).waitFor();
    await card.getByText(/Proved by a DNS TXT record on .*, subdomains included\. Checked again by/).waitFor();
    const rows = card.getByRole("table", { name: "Recent checks" }).getByRole("row");
    await expect.poll(() => rows.count()).toBe(4); // header, the proof, both failed checks (dns and file)
    await shot("verified");
    const text = (await page.locator("main").textContent()) ?? "";
    expect(text).not.toMatch(RAW);
  });

  it("shows an asset's inventory: the last scan, open findings by severity, open ports with first and last seen", async () => {
    // Loopback is in the local stack's verified networks: the gateway's own port is the service scanned.
    const port = Number(new URL(system.gatewayUrl).port);
    const created = await asUser.post("/api/v1/targets", { target: "127.0.0.1" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const scan = await asUser.post("/api/v1/scans", { target: "127.0.0.1", ports: String(port), scan_type: "quick", authorized: true });
    expect(scan.status, JSON.stringify(scan.body)).toBe(201);
    const inventory = async () => (await asUser.get(`/api/v1/targets/${created.body.id}`)).body.inventory;
    await expect.poll(async () => (await inventory()).last_scan?.scan_id, { timeout: 180_000, interval: 1000 }).toBe(scan.body.id);
    await expect.poll(async () => (await inventory()).ports.length, { timeout: 30_000, interval: 500 }).toBe(1);
    const inv = await inventory();

    await page.reload();
    const card = page.getByRole("article").filter({ has: page.getByRole("heading", { name: /^127\.0\.0\.1/ }) });
    const section = card.getByRole("region", { name: "Inventory of 127.0.0.1" });
    await section.getByRole("link", { name: "Completed" }).waitFor();
    expect(await section.getByRole("link", { name: "Completed" }).getAttribute("href")).toBe(`#/scans/${scan.body.id}`);
    const total = inv.open_findings.total as number;
    await section.getByText(new RegExp(`^${total} open findings?`)).waitFor();
    const row = section.getByRole("table", { name: "Open ports and services" }).getByRole("row").nth(1);
    await expect.poll(() => row.textContent()).toContain(`${port}/${inv.ports[0].transport}`);
    expect(await row.textContent()).toContain("127.0.0.1");
    expect(await row.getByRole("cell").nth(3).textContent()).toMatch(/\d/); // first seen, in the reader's words
    await card.scrollIntoViewIfNeeded();
    await shot("inventory");
    expect((await page.locator("main").textContent()) ?? "").not.toMatch(RAW);
  }, 240_000);
});
