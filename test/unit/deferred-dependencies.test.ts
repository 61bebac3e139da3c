import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { deferredDependencies, externalDependencies, REQUIRE_BANNER } from "../../scripts/lib/build.js";
import { ROOT } from "../../scripts/lib/root.js";

/**
 * Bundles `contents` as the deployables are bundled (ES module, dependencies inlined, the
 * deferred ones behind stand-ins that load them from node_modules, one copy of dual packages),
 * runs it and returns what it printed. The bundle is written beside dist/ (same depth), where
 * the deferred packages resolve as they do from dist/<name>/main.js.
 */
async function run(contents: string): Promise<unknown> {
  const dir = fs.mkdtempSync(path.join(ROOT, ".dist-deferred-test-"));
  try {
    const { build } = await import("esbuild");
    const out = path.join(dir, "out.mjs");
    await build({
      stdin: { contents, resolveDir: ROOT, loader: "js" },
      outfile: out,
      bundle: true,
      format: "esm",
      platform: "node",
      banner: { js: REQUIRE_BANNER },
      logLevel: "error",
      plugins: [deferredDependencies(), externalDependencies(true)],
    });
    return JSON.parse(execFileSync(process.execPath, [out], { encoding: "utf8" }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe("dependencies loaded on first call (scripts/lib/build.ts DEFERRED)", () => {
  it("parses a MongoDB connection string without loading tr46, and an internationalised http host with it", async () => {
    const printed = await run(`
      import { createRequire } from "node:module";
      import { ConnectionString } from "mongodb-connection-string-url";
      import { URL } from "whatwg-url";
      const tr46Loaded = () => Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes("/node_modules/tr46/"));
      const cs = new ConnectionString("mongodb://user:p%40ss@db-1.example:27017,db-2.example/app?replicaSet=rs0&tls=true");
      const afterMongo = tr46Loaded();
      const host = new URL("https://B\u00fccher.example/path").host;
      console.log(JSON.stringify({ hosts: cs.hosts, password: cs.password, db: cs.pathname, rs: cs.searchParams.get("replicaSet"), afterMongo, host, afterHttp: tr46Loaded() }));
    `);
    expect(printed).toEqual({
      hosts: ["db-1.example:27017", "db-2.example"],
      password: "p%40ss",
      db: "/app",
      rs: "rs0",
      afterMongo: false,
      host: "xn--bcher-kva.example",
      afterHttp: true,
    });
  });

  it("builds the OpenAPI document without loading yaml, and its YAML form with it", async () => {
    const printed = await run(`
      import { createRequire } from "node:module";
      import Fastify from "fastify";
      import swagger from "@fastify/swagger";
      const yamlLoaded = () => Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes("/node_modules/yaml/"));
      const app = Fastify();
      await app.register(swagger, { openapi: { info: { title: "t", version: "1" } } });
      app.get("/ping", { schema: { response: { 200: { type: "string" } } } }, async () => "pong");
      await app.ready();
      const json = app.swagger();
      const afterJson = yamlLoaded();
      const text = app.swagger({ yaml: true });
      console.log(JSON.stringify({ paths: Object.keys(json.paths), afterJson, firstLine: text.split("\\n")[0], afterYaml: yamlLoaded() }));
    `);
    expect(printed).toEqual({ paths: ["/ping"], afterJson: false, firstLine: "openapi: 3.0.3", afterYaml: true });
  });

  it("leaves the deferred packages' source out of the bundle", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "deferred-out-"));
    try {
      const { build } = await import("esbuild");
      const result = await build({
        stdin: { contents: 'import { URL } from "whatwg-url"; console.log(new URL("https://a.example").host);', resolveDir: ROOT, loader: "js" },
        outfile: path.join(dir, "out.mjs"),
        bundle: true,
        format: "esm",
        platform: "node",
        metafile: true,
        logLevel: "error",
        plugins: [deferredDependencies(), externalDependencies(true)],
      });
      expect(Object.keys(result.metafile.inputs).some((input) => input.includes("node_modules/tr46/"))).toBe(false);
      expect(Object.values(result.metafile.outputs).flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path))).toContain("tr46");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("one copy of a dual package (scripts/lib/build.ts ONE_COPY)", () => {
  it("gives our import of bson the driver's copy, so its classes are the driver's", async () => {
    const printed = await run(`
      import { BSON, ObjectId } from "bson";
      import { ObjectId as DriverObjectId } from "mongodb";
      const id = new ObjectId();
      const back = BSON.deserialize(BSON.serialize({ id })).id;
      console.log(JSON.stringify({ same: ObjectId === DriverObjectId, driverInstance: back instanceof DriverObjectId, roundTrip: back.equals(id) }));
    `);
    expect(printed).toEqual({ same: true, driverInstance: true, roundTrip: true });
  });
});
