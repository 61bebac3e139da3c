import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Registry } from "prom-client";
import type { Readiness } from "./readiness.js";

export interface AdminServer {
  port: number;
  close(): Promise<void>;
}

/** The operator port: /livez, /readyz and /metrics, kept off the public API port. */
export async function startAdminServer(opts: { host: string; port: number; readiness: Readiness; registry: Registry }): Promise<AdminServer> {
  const server = http.createServer(async (req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    try {
      if (req.method !== "GET" && req.method !== "HEAD") return send(res, 405, { error: "method not allowed" });
      if (path === "/livez") return send(res, 200, { status: "ok" });
      if (path === "/readyz") {
        const report = await opts.readiness.report();
        return send(res, report.ready ? 200 : 503, { status: report.ready ? "ready" : "not_ready", ...report });
      }
      if (path === "/metrics") {
        res.writeHead(200, { "content-type": opts.registry.contentType });
        return res.end(await opts.registry.metrics());
      }
      return send(res, 404, { error: "not found" });
    } catch (err) {
      return send(res, 500, { error: err instanceof Error ? err.message : "error" });
    }
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function send(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}
