import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, runtimePackages } from "../../scripts/lib/build.js";
import { copyRuntimeModules, FILES_ONLY } from "../../scripts/lib/image-modules.js";

/**
 * The image's node_modules (scripts/lib/image-modules.ts) is copied from the build's install and
 * holds only what the bundles load at run time. What runs from it is checked here without a
 * container engine: every package a bundle imports resolves and loads from that tree alone, as
 * from /app/dist/<name>/main.js in the image.
 */
let app: string;
let roots: string[];
beforeAll(async () => {
  // `npm test` has just built dist/; alone, this builds it when stale.
  await ensureBuilt();
  roots = runtimePackages();
  app = fs.mkdtempSync(path.join(os.tmpdir(), "image-modules-"));
  copyRuntimeModules(roots, app);
}, 120_000);
afterAll(() => fs.rmSync(app, { recursive: true, force: true }));

describe("the image's node_modules", () => {
  it("are the packages the bundles leave external and installed: the native and file-reading ones, and those loaded on first call", () => {
    expect(roots).toEqual(expect.arrayContaining(["@node-rs/argon2", "@fastify/swagger-ui", "pdfkit", "ssh2", "tr46", "@mongodb-js/saslprep"]));
    // What esbuild inlined is not copied again.
    for (const bundled of ["fastify", "mongodb", "kafkajs", "@connectrpc/connect", "@bufbuild/protobuf"]) expect(roots).not.toContain(bundled);
  });

  it("let every one of them load from the copied tree alone", async () => {
    const requireFromDist = createRequire(path.join(app, "dist", "gateway", "main.js"));
    for (const name of roots) {
      const resolved = requireFromDist.resolve(name);
      expect(resolved.startsWith(path.join(app, "node_modules") + path.sep), `${name} resolved to ${resolved}`).toBe(true);
      await import(pathToFileURL(resolved).href);
    }
  });

  it("hold the files our code reads from packages it does not load, without their dependencies", () => {
    const requireFromSource = createRequire(path.join(app, "gateway", "src", "plugins", "openapi.ts"));
    for (const [name, files] of Object.entries(FILES_ONLY)) {
      for (const file of files) expect(fs.existsSync(requireFromSource.resolve(`${name}/${file}`))).toBe(true);
    }
    // ReDoc's own dependencies (its build's React, mobx, styled-components) stay out.
    expect(fs.existsSync(path.join(app, "node_modules", "react"))).toBe(false);
  });

  it("are a fraction of the production install", () => {
    const packages = fs
      .readdirSync(path.join(app, "node_modules"))
      .flatMap((d) => (d.startsWith("@") ? fs.readdirSync(path.join(app, "node_modules", d)).map((s) => `${d}/${s}`) : [d]));
    // `npm ci --omit=dev` installed 405 (2026-11-29); the copy held 65.
    expect(packages.length).toBeLessThan(120);
  });
});
