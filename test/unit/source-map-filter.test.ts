import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { keepMappings, type SourceMap } from "../../scripts/lib/source-map-filter.js";

/** Our module and a dependency by default; `files` (paths under the directory) replaces them. */
const ONE_DEPENDENCY: Record<string, string> = {
  "node_modules/dep/index.js": "exports.twice = function twice(f) {\n  f();\n  return f();\n};\n",
  "main.ts": [
    'import { twice } from "dep";',
    "",
    "let calls: number = 0;",
    "twice(() => {",
    "  calls++;",
    '  if (calls === 2) throw new Error("second call");',
    "});",
    "",
  ].join("\n"),
};

/** `main.ts` and what it imports bundled as the deployables are, with its map, in a directory of its own. */
async function bundle(files: Record<string, string> = ONE_DEPENDENCY): Promise<{ dir: string; out: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "map-filter-"));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  const { build } = await import("esbuild");
  const out = path.join(dir, "out.mjs");
  await build({
    entryPoints: [path.join(dir, "main.ts")],
    outfile: out,
    bundle: true,
    format: "esm",
    platform: "node",
    sourcemap: true,
    sourcesContent: false,
    minifyWhitespace: true,
    logLevel: "error",
  });
  return { dir, out };
}

const stackOf = (file: string) => {
  try {
    execFileSync(process.execPath, ["--enable-source-maps", file], { stdio: "pipe" });
  } catch (err) {
    return String((err as { stderr: Buffer }).stderr);
  }
  throw new Error("the bundle did not throw");
};

describe("source maps of our own sources only (scripts/lib/source-map-filter.ts)", () => {
  it("keeps stack traces naming our TypeScript lines and drops the dependencies' mappings", async () => {
    const { dir, out } = await bundle();
    try {
      const map = JSON.parse(fs.readFileSync(`${out}.map`, "utf8")) as SourceMap;
      expect(map.sources.some((s) => s.includes("node_modules/"))).toBe(true);
      const own = keepMappings(map, (s) => !s.includes("node_modules/"));
      fs.writeFileSync(`${out}.map`, JSON.stringify(own));

      expect(own.sources).toEqual(["main.ts"]);
      expect(own.mappings.length).toBeLessThan(map.mappings.length);
      const stack = stackOf(out);
      // The throw on line 6 and the callback's call site (line 4) of main.ts, through the filtered map.
      expect(stack).toContain("main.ts:6:");
      expect(stack).toContain("main.ts:4:");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("leaves a dependency's frame after our code at its bundle position, never on our lines", async () => {
    // Our module first in the bundle, the dependency's code after it on the same line.
    const { dir, out } = await bundle({
      "node_modules/dep/package.json": '{ "name": "dep", "type": "module", "main": "index.js" }',
      "node_modules/dep/index.js": "export function twice(f) {\n  f();\n  return f();\n}\n",
      "ours.ts": 'export const label: string = "ours";\n',
      "main.ts": [
        'import { label } from "./ours";',
        'import { twice } from "dep";',
        "let calls = 0;",
        "twice(() => {",
        "  if (++calls === 2) throw new Error(label);",
        "});",
        "",
      ].join("\n"),
    });
    try {
      const code = fs.readFileSync(out, "utf8");
      expect(code.indexOf('"ours"')).toBeLessThan(code.indexOf("function twice"));
      const map = JSON.parse(fs.readFileSync(`${out}.map`, "utf8")) as SourceMap;
      fs.writeFileSync(`${out}.map`, JSON.stringify(keepMappings(map, (s) => !s.includes("node_modules/"))));
      const frames = stackOf(out)
        .split("\n")
        .filter((l) => l.trimStart().startsWith("at "));
      expect(frames[0]).toContain("main.ts:5:");
      expect(frames[1]).toMatch(/at twice \(file:.*out\.mjs:\d+:\d+\)/);
      expect(frames[2]).toContain("main.ts:4:");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("changes nothing when every source is kept", async () => {
    const { dir, out } = await bundle();
    try {
      const map = JSON.parse(fs.readFileSync(`${out}.map`, "utf8")) as SourceMap;
      const all = keepMappings(map, () => true);
      // Sources are renumbered in order of first use, which here is their order in the map.
      expect(all.mappings).toBe(map.mappings);
      expect(all.sources).toEqual(map.sources);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
