import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Fastify from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { docsToken, isDocsRequest } from "./docs-cookie.js";
import { errorBodySchema } from "../../schemas.js";
import { consoleRoutes } from "./index.js";

const dist = fs.mkdtempSync(path.join(os.tmpdir(), "console-dist-"));
fs.mkdirSync(path.join(dist, "assets"));
fs.writeFileSync(path.join(dist, "index.html"), '<!doctype html><script type="module" src="/assets/app-abc123.js"></script>');
fs.writeFileSync(path.join(dist, "assets", "app-abc123.js"), "console.log(1)");
afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));

async function app(distDir: string) {
  const a = Fastify();
  a.addSchema(errorBodySchema);
  await a.register(consoleRoutes({ distDir }));
  return a;
}

describe("console static files", () => {
  it("serves index.html uncached and hashed assets immutable, both under the CSP", async () => {
    const a = await app(dist);
    const index = await a.inject({ method: "GET", url: "/" });
    expect(index.statusCode).toBe(200);
    expect(index.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(index.headers["cache-control"]).toBe("no-cache");
    expect(index.headers["content-security-policy"]).toMatch(/script-src 'self'/);
    const js = await a.inject({ method: "GET", url: "/assets/app-abc123.js" });
    expect(js.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(js.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(index.body).toContain('src="/assets/app-abc123.js"');
    expect(js.body).toBe("console.log(1)");
    expect((await a.inject({ method: "GET", url: "/assets/../index.html" })).statusCode).not.toBe(500);
    expect((await a.inject({ method: "GET", url: "/assets/%2e%2e%2fpackage.json" })).statusCode).toBe(404);
    await a.close();
  });

  it("reads each file at its first request, and answers 404 for one removed since start", async () => {
    const live = fs.mkdtempSync(path.join(os.tmpdir(), "console-live-"));
    fs.mkdirSync(path.join(live, "assets"));
    fs.writeFileSync(path.join(live, "index.html"), "<!doctype html>v1");
    fs.writeFileSync(path.join(live, "assets", "old-1.js"), "old");
    const a = await app(live);
    fs.writeFileSync(path.join(live, "index.html"), "<!doctype html>v2");
    fs.rmSync(path.join(live, "assets", "old-1.js"));
    expect((await a.inject({ method: "GET", url: "/" })).body).toBe("<!doctype html>v2");
    expect((await a.inject({ method: "GET", url: "/assets/old-1.js" })).statusCode).toBe(404);
    await a.close();
    fs.rmSync(live, { recursive: true, force: true });
  });

  it("says how to build the console when web/dist is missing", async () => {
    const a = await app(path.join(dist, "missing"));
    const res = await a.inject({ method: "GET", url: "/" });
    expect(res.statusCode).toBe(404);
    expect(res.body).toMatch(/npm run build -w web/);
    await a.close();
  });
});

describe("docs cookie", () => {
  it("applies to GET and HEAD of the docs paths only", () => {
    expect(isDocsRequest("GET", "/docs")).toBe(true);
    expect(isDocsRequest("GET", "/docs/static/index.html")).toBe(true);
    expect(isDocsRequest("HEAD", "/openapi.json?x=1")).toBe(true);
    expect(isDocsRequest("POST", "/docs")).toBe(false);
    expect(isDocsRequest("GET", "/docsx")).toBe(false);
    expect(isDocsRequest("GET", "/api/v1/findings")).toBe(false);
  });
  it("reads only a JWT-shaped value of its own cookie", () => {
    expect(docsToken("a=1; vulnscan_docs=aa.bb.cc")).toBe("aa.bb.cc");
    expect(docsToken("vulnscan_docs=not a token")).toBeUndefined();
    expect(docsToken(undefined)).toBeUndefined();
  });
});
