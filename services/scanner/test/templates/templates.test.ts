import http from "node:http";
import net from "node:net";
import { Severity } from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import { ScanType } from "@vulnscan/proto/vulnscan/scans/v1/scans_service_pb.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unique } from "../../../../test/support/names.js";
import { startScanner, until, type Scanner } from "../worker/harness.js";

/*
 * The template catalogue through the whole worker: a loopback "weak" host of this test with
 * one planted weakness per check, on explicit ports, scanned by a job naming exactly those
 * ports; and a hardened web server that must give no template detection at all.
 */

const servers: net.Server[] = [];
let scanner: Scanner;
const ports: Record<string, number> = {};

const PAGES: Record<string, [string, string]> = {
  "/phpinfo.php": ["text/html", '<html><head><title>phpinfo()</title></head><body><h1 class="p">PHP Version 7.4.3</h1><h2>PHP License</h2></body></html>'],
  "/server-status": [
    "text/html",
    "<html><body><h1>Apache Server Status for shop.test (via 127.0.0.1)</h1><dl><dt>Server Version: Apache/2.4.41 (Ubuntu)</dt><dt>Server uptime: 3 days</dt></dl></body></html>",
  ],
  "/actuator/env": [
    "application/vnd.spring-boot.actuator.v3+json",
    '{"activeProfiles":["prod"],"propertySources":[{"name":"server.ports","properties":{"local.server.port":{"value":8080}}}]}',
  ],
  "/v3/api-docs": ["application/json", '{"openapi":"3.0.1","info":{"title":"Shop API","version":"v1"},"paths":{}}'],
  "/uploads/": [
    "text/html",
    '<html><head><title>Index of /uploads/</title></head><body><h1>Index of /uploads/</h1><a href="invoice.pdf">invoice.pdf</a></body></html>',
  ],
  "/login": [
    "text/html",
    '<html><head><title>Grafana</title></head><body><script>window.grafanaBootData = {"settings":{"buildInfo":{"version":"9.5.2"}}}</script></body></html>',
  ],
};

async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  servers.push(server);
  return (server.address() as net.AddressInfo).port;
}

const tcp = (onData: (c: net.Socket, line: string) => void) =>
  net.createServer((c) => {
    c.on("error", () => undefined);
    c.on("data", (d) => onData(c, d.toString("latin1")));
  });

beforeAll(async () => {
  ports.web = await listen(
    http.createServer((req, res) => {
      const page = PAGES[(req.url ?? "/").split("?")[0]!];
      if (page) return res.writeHead(200, { "Content-Type": page[0], Server: "nginx/1.18.0" }).end(page[1]);
      if (req.url === "/")
        return res.writeHead(200, { "Content-Type": "text/html", Server: "nginx/1.18.0" }).end("<html><head><title>Welcome to nginx!</title></head></html>");
      res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
    }),
  );
  ports.es = await listen(
    http.createServer((_req, res) =>
      res
        .writeHead(200, { "Content-Type": "application/json" })
        .end(JSON.stringify({ name: "node-1", cluster_name: "shop-search", version: { number: "7.10.2" }, tagline: "You Know, for Search" })),
    ),
  );
  ports.redis = await listen(
    tcp((c, line) => {
      const cmd = line.replace(/^\*\d+\r\n(\$\d+\r\n)?/, "").toUpperCase();
      if (cmd.startsWith("PING")) c.write("+PONG\r\n");
      else if (cmd.startsWith("INFO")) c.write("$46\r\n# Server\r\nredis_version:5.0.7\r\nredis_mode:standalone\r\n\r\n");
      else c.write("-ERR unknown command\r\n");
    }),
  );
  ports.memcached = await listen(
    tcp((c, line) => {
      if (line.startsWith("version")) c.write("VERSION 1.5.22\r\n");
      else if (line.startsWith("stats")) c.write("STAT pid 4242\r\nSTAT uptime 100\r\nSTAT version 1.5.22\r\nEND\r\n");
      else c.write("ERROR\r\n");
    }),
  );
  ports.hardened = await listen(
    http.createServer((req, res) => {
      res.setHeader("Server", "hardened");
      if (req.url === "/") return res.writeHead(200, { "Content-Type": "text/html" }).end("<!doctype html><title>ok</title>");
      res.writeHead(404, { "Content-Type": "text/plain" }).end("not found\n");
    }),
  );
  scanner = await startScanner();
});

afterAll(async () => {
  await scanner?.stop();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

describe("template checks through the worker", () => {
  it("detects each planted weakness once, with its classification", async () => {
    const scanId = unique("scan");
    await scanner.publishJob({
      scanId,
      scanType: ScanType.QUICK,
      phases: ["discovery", "enumeration", "vulnerability_scanning"],
      ports: [ports.web, ports.es, ports.redis, ports.memcached].join(","),
    });
    const end = await until(() => scanner.recorder.finished(scanId), 90_000, "scan end");
    expect(end.report.case, JSON.stringify(end.report.value)).toBe("completed");
    const found = scanner.recorder.detectionsOf(scanId).filter((d) => d.tool === "templates");
    const web = `http://127.0.0.1:${ports.web}`;
    const expected: [string, Severity, string][] = [
      ["phpinfo-exposure", Severity.MEDIUM, `${web}/phpinfo.php`],
      ["apache-server-status", Severity.MEDIUM, `${web}/server-status`],
      ["spring-boot-actuator-env", Severity.HIGH, `${web}/actuator/env`],
      ["openapi-docs-exposed", Severity.INFO, `${web}/v3/api-docs`],
      ["directory-listing", Severity.MEDIUM, `${web}/uploads/`],
      ["nginx-default-page", Severity.INFO, `${web}/`],
      ["http-server-version-disclosure", Severity.LOW, `${web}/`], // Server: nginx/1.18.0
      ["grafana-login-exposed", Severity.INFO, `${web}/login`],
      ["elasticsearch-unauthenticated", Severity.HIGH, `http://127.0.0.1:${ports.es}/`],
      ["redis-unauthenticated", Severity.CRITICAL, `tcp://127.0.0.1:${ports.redis}`],
      ["memcached-unauthenticated", Severity.HIGH, `tcp://127.0.0.1:${ports.memcached}`],
    ];
    expect(found.map((d) => [d.templateId, d.severity, d.affectedComponent]).sort()).toEqual(expected.sort());
    const redis = found.find((d) => d.templateId === "redis-unauthenticated")!;
    expect(redis).toMatchObject({ cweIds: ["CWE-306"], cvssScore: 9.8, cvssVector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H" });
    expect(redis.evidence?.response).toContain("redis_version:5.0.7");
    expect(redis.description).toContain("redis_version: 5.0.7");
    expect(found.find((d) => d.templateId === "grafana-login-exposed")?.description).toContain("grafana_version: 9.5.2");
  });

  it("reports no template detection on the hardened server", async () => {
    const scanId = unique("scan");
    await scanner.publishJob({
      scanId,
      scanType: ScanType.QUICK,
      phases: ["discovery", "enumeration", "vulnerability_scanning"],
      ports: String(ports.hardened),
    });
    const end = await until(() => scanner.recorder.finished(scanId), 60_000, "scan end");
    expect(end.report.case).toBe("completed");
    expect(scanner.recorder.detectionsOf(scanId).filter((d) => d.tool === "templates")).toEqual([]);
  });
});
