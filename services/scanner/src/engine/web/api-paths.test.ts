import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import type net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { selfSignedCertificates } from "../../../../../test/support/tls.js";
import { EgressGuard } from "../../net/egress.js";
import type { Service } from "../types.js";
import { analyzeWebService } from "./analyze.js";
import { apiPathsIn, sitePath } from "./api-paths.js";

/*
 * The CORS check on the paths where APIs live. Targets are servers of this test on explicit
 * loopback ports: their home page sends no CORS headers at all; one API path (named only in
 * robots.txt, or linked from the page) reflects any Origin with credentials, or allows one
 * fixed origin only.
 */

const guard = new EgressGuard("127.0.0.1/32");
const servers: net.Server[] = [];
let tls: { key: Buffer; cert: Buffer };
let tmp: string;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "api-cors-"));
  tls = selfSignedCertificates(tmp, "127.0.0.1");
});
afterAll(async () => {
  for (const s of servers) (s as http.Server).closeAllConnections?.();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A site whose API at `apiPath` answers CORS as `cors` says; the home page links nothing unless `link`. */
function app(apiPath: string, cors: "reflect" | "fixed", opts: { link?: boolean; robots?: boolean } = {}): http.RequestListener {
  return (req, res) => {
    const url = (req.url ?? "/").split("?")[0]!;
    if (url === "/robots.txt" && opts.robots)
      return res.writeHead(200, { "content-type": "text/plain" }).end(`User-agent: *\nDisallow: ${apiPath}\nDisallow: /admin/\n`);
    if (url.startsWith(apiPath)) {
      const origin = req.headers.origin;
      if (origin) {
        res.setHeader("access-control-allow-origin", cors === "reflect" ? origin : "https://app.example.test");
        res.setHeader("access-control-allow-credentials", "true");
        res.setHeader("vary", "Origin");
      }
      return res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    }
    if (url === "/")
      return res.writeHead(200, { "content-type": "text/html" }).end(`<html><body>${opts.link ? `<a href="${apiPath}users">api</a>` : "hello"}</body></html>`);
    res.writeHead(404).end("not found");
  };
}

async function serve(h: http.RequestListener, overTls = false): Promise<Service> {
  const s = overTls ? https.createServer({ ...tls }, h) : http.createServer(h);
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  servers.push(s);
  const port = (s.address() as net.AddressInfo).port;
  return { host: "127.0.0.1", port, tls: overTls, name: overTls ? "https" : "http" };
}

const cors = async (svc: Service) =>
  (await analyzeWebService(svc, { guard, hostHasHttps: svc.tls }))
    .filter((d) => /cors/.test(d.templateId))
    .map((d) => ({ id: d.templateId, at: d.affectedComponent.replace(/^https?:\/\/127\.0\.0\.1:\d+/, ""), confidence: d.confidence }));

describe("API paths of a site", () => {
  it("reads API-looking same-site paths from links, robots.txt and sitemap.xml", () => {
    const origin = "https://shop.example.test";
    expect(
      apiPathsIn(
        {
          home: '<a href="/api/v2/orders">x</a><script src="https://cdn.example.net/api/x.js"></script><form action="/graphql"></form><a href="/about">',
          robots: "User-agent: *\nDisallow: /internal/rest/*\nAllow: /public/\n",
          sitemap: "<urlset><url><loc>https://shop.example.test/v3/catalog</loc></url><url><loc>https://other.test/api/</loc></url></urlset>",
        },
        origin,
      ),
    ).toEqual(["/api/v2/orders", "/graphql", "/internal/rest/", "/v3/catalog"]);
    expect(sitePath("/a/*.json$", origin)).toBe("/a/");
    expect(sitePath("https://evil.test/api/", origin)).toBeUndefined();
  });

  it("finds CORS reflection on an API path that only robots.txt names, over HTTP", async () => {
    expect(await cors(await serve(app("/internal/api/", "reflect", { robots: true })))).toEqual([
      { id: "cors-any-origin-credentials", at: "/internal/api/", confidence: "confirmed" },
    ]);
  });

  it("finds it on a linked API path over HTTPS, and on the usual prefix /api/ with nothing named", async () => {
    expect(await cors(await serve(app("/backend/v1/", "reflect", { link: true }), true))).toEqual([
      { id: "cors-any-origin-credentials", at: "/backend/v1/users", confidence: "confirmed" },
    ]);
    expect(await cors(await serve(app("/api/", "reflect")))).toEqual([{ id: "cors-any-origin-credentials", at: "/api/", confidence: "confirmed" }]);
  });

  it("reports nothing for an API that allows one fixed origin", async () => {
    expect(await cors(await serve(app("/api/", "fixed", { robots: true, link: true })))).toEqual([]);
    expect(await cors(await serve(app("/api/", "fixed"), true))).toEqual([]);
  });
});
