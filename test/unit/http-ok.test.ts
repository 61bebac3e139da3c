import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { freePort, httpOk } from "../../scripts/lib/net.js";

const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

async function serve(handler: http.RequestListener): Promise<string> {
  const s = http.createServer(handler);
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

describe("httpOk (the supervisor's readiness probe)", () => {
  it("is true for a 2xx answer and false for any other", async () => {
    const url = await serve((req, res) => {
      res.statusCode = req.url === "/readyz" ? 200 : 503;
      res.end(req.url === "/readyz" ? "ready" : "not ready");
    });
    expect(await httpOk(`${url}/readyz`)).toBe(true);
    expect(await httpOk(`${url}/other`)).toBe(false);
  });

  it("rejects when nothing listens, and when the server does not answer in time", async () => {
    await expect(httpOk(`http://127.0.0.1:${await freePort()}/readyz`)).rejects.toThrow(/ECONNREFUSED/);
    const silent = await serve(() => undefined);
    const t0 = Date.now();
    await expect(httpOk(`${silent}/readyz`, 200)).rejects.toThrow(/no answer within 200 ms/);
    expect(Date.now() - t0).toBeLessThan(2000);
  });
});
