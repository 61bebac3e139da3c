import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_INTEL_DIR } from "../config.js";
import { baseScore } from "../engine/cvss.js";
import { FeedError, parseEpss, parseKev, parseNvd } from "./feeds.js";
import { IntelStore, SNAPSHOT_FILE } from "./store.js";

const read = (f: string) => fs.readFileSync(path.join(DEFAULT_INTEL_DIR, f), "utf8");
let store: IntelStore;
beforeAll(async () => {
  store = await IntelStore.load(DEFAULT_INTEL_DIR);
});

const ids = (cpe: string) =>
  store
    .matchCpe(cpe)
    .map((m) => m.cve.id)
    .sort();

describe("the shipped feed samples", () => {
  it("parse as NVD CVE JSON 2.0, with CVSS, CWE and vulnerable CPE ranges", () => {
    const { records, rejected } = parseNvd(JSON.parse(read("nvdcve-2.0-sample.json")));
    expect(rejected).toBe(0);
    expect(records).toHaveLength(21);
    const backdoor = records.find((r) => r.id === "CVE-2011-2523")!;
    expect(backdoor).toMatchObject({
      description: expect.stringContaining("backdoor"),
      cvss: { version: "3.1", vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", score: 9.8, severity: "critical" },
      cwes: ["CWE-78"],
      matches: [{ criteria: "cpe:2.3:a:vsftpd_project:vsftpd:2.3.4:*:*:*:*:*:*:*", vulnerable: true }],
    });
    // v2-only records keep their v2 metric.
    expect(records.find((r) => r.id === "CVE-2011-0762")?.cvss).toMatchObject({ version: "2.0", score: 4, severity: "medium" });
    // Every v3 score is the one its vector computes to.
    for (const r of records) if (r.cvss?.version.startsWith("3")) expect(baseScore(r.cvss.vector), r.id).toBe(r.cvss.score);
  });

  it("parse as FIRST EPSS CSV with its model-version line", () => {
    const epss = parseEpss(read("epss_scores-sample.csv"));
    expect(epss.modelVersion).toBe("v2025.03.14");
    expect(epss.scoreDate).toBe("2025-06-01T12:55:00Z");
    expect(epss.scores.size).toBe(21);
    expect(epss.scores.get("CVE-2018-15473")).toEqual({ epss: 0.88017, percentile: 0.99478 });
    for (const [, e] of epss.scores) expect(e.epss).toBeGreaterThanOrEqual(0);
  });

  it("parse as the CISA KEV catalogue", () => {
    const kev = parseKev(JSON.parse(read("known_exploited_vulnerabilities-sample.json")));
    expect(kev.catalogVersion).toBe("2025.06.01");
    expect([...kev.entries.keys()].sort()).toEqual([
      "CVE-2014-0160",
      "CVE-2021-40438",
      "CVE-2021-41773",
      "CVE-2021-42013",
      "CVE-2021-44228",
      "CVE-2022-0543",
      "CVE-2023-44487",
    ]);
    expect(kev.entries.get("CVE-2021-44228")).toMatchObject({ dateAdded: "2021-12-10", dueDate: "2021-12-24", knownRansomwareCampaignUse: "Known" });
  });

  it("reject documents of another shape", () => {
    expect(() => parseNvd({ CVE_Items: [] })).toThrow(FeedError);
    expect(() => parseEpss("a,b\n1,2\n")).toThrow(FeedError);
    expect(() => parseKev({ vulnerabilities: [{ cve: "x" }] })).toThrow(FeedError);
    // A bad record is skipped and counted, not fatal.
    expect(parseNvd({ format: "NVD_CVE", vulnerabilities: [{ cve: { id: "nope" } }] })).toEqual({ records: [], rejected: 1 });
    expect(() => parseNvd({ vulnerabilities: [{ cveID: "CVE-2021-44228" }] })).toThrow(FeedError); // a KEV file
    expect(parseEpss("#model_version:v1\ncve,epss,percentile\nCVE-2020-0001,abc,0.1\nCVE-2020-0002,0.5,0.9\n").scores.size).toBe(1);
  });
});

describe("IntelStore", () => {
  it("indexes by CVE id with EPSS and KEV", () => {
    expect(store.size).toMatchObject({ cves: 21, epss: 21, kev: 7 });
    expect(store.cve("cve-2018-15473")?.cwes).toEqual(["CWE-362"]);
    expect(store.epss("CVE-2011-2523")?.epss).toBeCloseTo(0.93264);
    expect(store.kev("CVE-2021-40438")?.vulnerabilityName).toMatch(/Server-Side Request Forgery/);
    expect(store.kev("CVE-2018-15473")).toBeUndefined();
    expect(store.sources).toMatchObject({ epssModelVersion: "v2025.03.14", kevCatalogVersion: "2025.06.01" });
  });

  it("resolves the lab's OpenSSH 7.2p2 to its CVEs, and newer releases to theirs", () => {
    expect(ids("cpe:2.3:a:openbsd:openssh:7.2:p2:*:*:*:*:*:*")).toEqual([
      "CVE-2016-10009",
      "CVE-2016-6210",
      "CVE-2016-6515",
      "CVE-2018-15473",
      "CVE-2020-15778",
      "CVE-2023-38408",
    ]);
    expect(ids("cpe:2.3:a:openbsd:openssh:9.2:p1:*:*:*:*:*:*")).toEqual(["CVE-2023-38408", "CVE-2024-6387"]);
    expect(ids("cpe:2.3:a:openbsd:openssh:9.8:p1:*:*:*:*:*:*")).toEqual([]);
  });

  it("matches across the vendors NVD used for one product, highest CVSS first", () => {
    expect(ids("cpe:2.3:a:vsftpd_project:vsftpd:2.3.4:*:*:*:*:*:*:*")).toEqual(["CVE-2011-2523"]);
    expect(ids("cpe:2.3:a:vsftpd_project:vsftpd:2.3.2:*:*:*:*:*:*:*")).toEqual(["CVE-2011-0762"]); // NVD: beasts:vsftpd
    expect(ids("cpe:2.3:a:nginx:nginx:1.18.0:*:*:*:*:*:*:*")).toEqual(["CVE-2021-23017", "CVE-2022-41741", "CVE-2023-44487"]);
    expect(ids("cpe:2.3:a:f5:nginx:1.24.0:*:*:*:*:*:*:*")).toEqual(["CVE-2023-44487"]);
    expect(store.matchCpe("cpe:2.3:a:apache:http_server:2.4.18:*:*:*:*:*:*:*").map((m) => m.cve.id)).toEqual(["CVE-2021-44790", "CVE-2021-40438"]);
    expect(ids("cpe:2.3:a:redis:redis:3.2.12:*:*:*:*:*:*:*")).toEqual(["CVE-2022-24834", "CVE-2023-28856"]);
    expect(ids("cpe:2.3:a:redis:redis:7.0.15:*:*:*:*:*:*:*")).toEqual([]);
    // A vendor the store does not know for the product: matched on the product alone.
    expect(ids("cpe:2.3:a:someone:vsftpd:2.3.4:*:*:*:*:*:*:*")).toEqual(["CVE-2011-2523"]);
    // ...but not for generic product names, which many vendors use.
    expect(ids("cpe:2.3:a:ibm:http_server:2.4.18:*:*:*:*:*:*:*")).toEqual([]);
    expect(ids("not a cpe")).toEqual([]);
  });

  it("saves a compact snapshot and loads it back (gzip too)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "intel-"));
    try {
      const file = await store.save(dir);
      expect(path.basename(file)).toBe(SNAPSHOT_FILE);
      const again = await IntelStore.load(dir);
      expect(again.size).toEqual(store.size);
      expect(again.matchCpe("cpe:2.3:a:openbsd:openssh:7.2:p2:*:*:*:*:*:*")).toHaveLength(6);
      fs.writeFileSync(path.join(dir, SNAPSHOT_FILE), gzipSync(fs.readFileSync(file)));
      expect((await IntelStore.load(dir)).kev("CVE-2022-0543")).toBeDefined();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a directory without intelligence", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "intel-empty-"));
    await expect(IntelStore.load(dir)).rejects.toThrow(/no intel snapshot or feed files/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
