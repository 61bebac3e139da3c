import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { ScanType } from "@vulnscan/proto/vulnscan/scans/v1/scans_service_pb.js";
import { phasesFor } from "@vulnscan/scan-contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { syncIntel } from "../../../../scripts/intel-sync.js";
import { unique } from "../../../../test/support/names.js";
import { DEFAULT_INTEL_DIR } from "../../src/config.js";
import { IntelStore } from "../../src/intel/store.js";
import { startScanner, until, type Scanner } from "../worker/harness.js";

const sample = (f: string) => path.join(DEFAULT_INTEL_DIR, f);
const NVD = sample("nvdcve-2.0-sample.json");
const EPSS = sample("epss_scores-sample.csv");
const KEV = sample("known_exploited_vulnerabilities-sample.json");
const OSV = sample("osv-debian-ubuntu-sample.json");

let tmp: string;
let feedServer: http.Server;
let feedBase = "";
const servers: net.Server[] = [];
const sockets = new Set<net.Socket>();
let scanner: Scanner | undefined;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "intel-sync-"));
  // The feeds served over HTTP on loopback, gzipped as NVD and FIRST publish them.
  feedServer = http.createServer((req, res) => {
    const files: Record<string, string> = { "/nvd.json.gz": NVD, "/epss.csv.gz": EPSS, "/kev.json": KEV, "/osv.json": OSV };
    const f = files[req.url ?? ""];
    if (!f) return res.writeHead(404).end();
    const body = fs.readFileSync(f);
    res.writeHead(200).end(f === KEV ? body : gzipSync(body));
  });
  await new Promise<void>((r) => feedServer.listen(0, "127.0.0.1", r));
  feedBase = `http://127.0.0.1:${(feedServer.address() as net.AddressInfo).port}`;
});

afterAll(async () => {
  await scanner?.stop();
  for (const s of sockets) s.destroy();
  feedServer.closeAllConnections();
  await Promise.all([feedServer, ...servers].map((s) => new Promise((r) => s.close(r))));
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("scripts/intel-sync.ts", () => {
  it("builds a snapshot from feed files, equal to the store the raw sample gives", async () => {
    const out = path.join(tmp, "files");
    expect(await syncIntel({ nvd: [NVD], epss: EPSS, kev: KEV, osv: [OSV], out })).toEqual({ out, cves: 21, epss: 21, kev: 7, products: 9, distroFixes: 4 });
    const synced = await IntelStore.load(out);
    const raw = await IntelStore.load(DEFAULT_INTEL_DIR);
    expect(synced.size).toEqual(raw.size);
    const cpe = "cpe:2.3:a:openbsd:openssh:7.2:p2:*:*:*:*:*:*";
    expect(synced.matchCpe(cpe).map((m) => m.cve.id)).toEqual(raw.matchCpe(cpe).map((m) => m.cve.id));
    expect(synced.sources).toMatchObject({ epssModelVersion: "v2025.03.14", kevCatalogVersion: "2025.06.01", nvd: [NVD], osv: [OSV] });
    expect(synced.distroFixes("CVE-2024-6387").map((f) => `${f.ecosystem} ${f.ranges[0]?.fixed}`)).toEqual(
      raw.distroFixes("CVE-2024-6387").map((f) => `${f.ecosystem} ${f.ranges[0]?.fixed}`),
    );
  });

  it("reads OSV records from a URL and from a directory of record files (an unpacked all.zip), and keeps them on other syncs", async () => {
    const out = path.join(tmp, "osv");
    expect(await syncIntel({ osv: [`${feedBase}/osv.json`], out })).toMatchObject({ cves: 0, distroFixes: 4 });
    const dir = path.join(tmp, "osv-records");
    fs.mkdirSync(dir);
    for (const r of JSON.parse(fs.readFileSync(OSV, "utf8")) as { id: string }[]) fs.writeFileSync(path.join(dir, `${r.id}.json`), JSON.stringify(r));
    expect(await syncIntel({ osv: [dir], out })).toMatchObject({ distroFixes: 4 });
    expect(await syncIntel({ kev: KEV, out })).toMatchObject({ kev: 7, distroFixes: 4 });
    const store = await IntelStore.load(out);
    expect(store.distroFixes("CVE-2024-6387").find((f) => f.ecosystem === "Debian:12")?.ranges).toEqual([{ introduced: "0", fixed: "1:9.2p1-2+deb12u3" }]);
    await expect(syncIntel({ osv: [NVD], out })).rejects.toThrow(/not an OSV document/);
  });

  it("fetches URLs when given (gzip detected), and a partial sync keeps the other parts", async () => {
    const out = path.join(tmp, "urls");
    expect(await syncIntel({ nvd: [`${feedBase}/nvd.json.gz`], epss: `${feedBase}/epss.csv.gz`, kev: `${feedBase}/kev.json`, out })).toMatchObject({
      cves: 21,
      epss: 21,
      kev: 7,
    });
    const kevOnly = path.join(tmp, "kev-only.json");
    fs.writeFileSync(kevOnly, JSON.stringify({ catalogVersion: "2099.01.01", vulnerabilities: [{ cveID: "CVE-2018-15473" }] }));
    expect(await syncIntel({ kev: kevOnly, out })).toMatchObject({ cves: 21, epss: 21, kev: 1 });
    const store = await IntelStore.load(out);
    expect(store.kev("CVE-2018-15473")).toBeDefined();
    expect(store.kev("CVE-2021-44228")).toBeUndefined();
    expect(store.sources.kevCatalogVersion).toBe("2099.01.01");
  });

  it("refuses nothing to do, missing files, failing URLs and documents of the wrong format", async () => {
    await expect(syncIntel({ out: tmp })).rejects.toThrow(/nothing to sync/);
    await expect(syncIntel({ epss: path.join(tmp, "missing.csv"), out: tmp })).rejects.toThrow(/ENOENT/);
    await expect(syncIntel({ kev: `${feedBase}/nope.json`, out: tmp })).rejects.toThrow(/HTTP 404/);
    await expect(syncIntel({ nvd: [KEV], out: tmp })).rejects.toThrow(/not an NVD CVE JSON 2.0 document/);
    await expect(syncIntel({ kev: "ftp://example.test/kev.json", out: tmp })).rejects.toThrow(/only files and http/);
  });
});

describe("version-based CVE detections on Kafka", () => {
  const listen = async (onConn: (s: net.Socket) => void) => {
    const s = net.createServer((c) => {
      sockets.add(c);
      c.on("close", () => sockets.delete(c));
      c.on("error", () => undefined);
      onConn(c);
    });
    await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
    servers.push(s);
    return (s.address() as net.AddressInfo).port;
  };

  it("matches identified services against the synced store and carries EPSS, KEV and controls", async () => {
    const out = path.join(tmp, "scanner");
    await syncIntel({ nvd: [NVD], epss: EPSS, kev: KEV, out });
    scanner = await startScanner({ env: { INTEL_DIR: out } });
    const sshPort = await listen((c) => c.write("SSH-2.0-OpenSSH_7.2p2 Ubuntu-4ubuntu2.8\r\n"));
    const ftpPort = await listen((c) => c.write("220 (vsFTPd 2.3.4)\r\n"));
    const web = http.createServer((_req, res) =>
      res.writeHead(200, { Server: "Apache/2.4.18 (Ubuntu)", "Content-Type": "text/html" }).end("<html><title>Intranet</title></html>"),
    );
    web.on("connection", (c) => (sockets.add(c), c.on("close", () => sockets.delete(c))));
    await new Promise<void>((r) => web.listen(0, "127.0.0.1", r));
    servers.push(web as unknown as net.Server);
    const webPort = (web.address() as net.AddressInfo).port;

    const scanId = unique("scan");
    await scanner.publishJob({ scanId, scanType: ScanType.QUICK, phases: phasesFor("quick"), ports: `${sshPort},${ftpPort},${webPort}` });
    const end = await until(() => scanner!.recorder.finished(scanId), 90_000, "scan end");
    expect(end.report.case, JSON.stringify(end.report.value)).toBe("completed");

    const cve = scanner.recorder.detectionsOf(scanId).filter((d) => d.tool === "cve-match");
    const byId = new Map(cve.map((d) => [d.templateId, d]));
    expect([...byId.keys()]).toEqual(
      expect.arrayContaining([
        "cve:CVE-2011-2523",
        "cve:CVE-2018-15473",
        "cve:CVE-2016-6210",
        "cve:CVE-2023-38408",
        "cve:CVE-2021-40438",
        "cve:CVE-2021-44790",
      ]),
    );
    expect(byId.has("cve:CVE-2024-6387")).toBe(false); // 7.2p2 is outside its ranges
    expect(cve.every((d) => d.phase === "vulnerability_scanning")).toBe(true);
    const enumCve = byId.get("cve:CVE-2018-15473")!;
    expect(enumCve).toMatchObject({
      cveIds: ["CVE-2018-15473"],
      cweIds: ["CWE-362"],
      cvssScore: 5.3,
      kev: false,
      affectedComponent: `OpenSSH 7.2p2 on 127.0.0.1:${sshPort}`,
      title: "CVE-2018-15473 in OpenSSH 7.2p2",
    });
    expect(enumCve.epssScore).toBeCloseTo(0.88017);
    expect(enumCve.frameworks.map((f) => f.name)).toEqual(["soc2", "iso27001", "pci_dss", "hipaa", "gdpr", "nist_csf", "nist_800_53", "cis_controls"]);
    const ssrf = byId.get("cve:CVE-2021-40438")!;
    expect(ssrf).toMatchObject({ kev: true, cvssScore: 9, cweIds: ["CWE-918"] });
    expect(ssrf.evidence?.response).toContain("cpe: cpe:2.3:a:apache:http_server:2.4.18");
    // The banner template confirms the backdoored release as well: one weakness (the CVE), so it
    // folds into the version match's finding with its own evidence.
    const backdoor = scanner.recorder.detectionsOf(scanId).filter((d) => d.templateId === "cve:CVE-2011-2523");
    expect(backdoor.at(-1)).toMatchObject({ tool: "cve-match", kev: false });
    expect(backdoor.at(-1)?.epssScore).toBeGreaterThan(0.9);
    expect(backdoor.at(-1)?.evidence?.response).toContain("[templates: vsftpd-234-backdoor]");
    expect(scanner.recorder.detectionsOf(scanId).filter((d) => d.templateId === "vsftpd-234-backdoor")).toEqual([]);
  });
});
