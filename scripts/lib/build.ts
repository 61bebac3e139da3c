// Compiles every deployable ahead of time: one esbuild bundle of the repository's own code per
// process (dist/<name>/main.js with its source map; npm dependencies load from node_modules), so
// what `npm start`, the end-to-end tests, the benchmarks and the image run is the same JavaScript
// and no process pays for a TypeScript loader or compiles at start. docs/decisions.md
// ("Compiled deployables") says why this shape and not tsc's emit or a bundle of everything.
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "./root.js";

export const DIST = path.join(ROOT, "dist");

/** Every process this repository deploys or runs, by the name dist/ and the chart use. */
export const DEPLOYABLES = {
  gateway: "gateway/src/main.ts",
  auth: "services/auth/src/main.ts",
  "scan-orchestrator": "services/scan-orchestrator/src/main.ts",
  scanner: "services/scanner/src/main.ts",
  findings: "services/findings/src/main.ts",
  grc: "services/grc/src/main.ts",
  "webhook-dispatcher": "services/webhook-dispatcher/src/main.ts",
  // The `npm start` supervisor (never deployed, but it runs as long as the services do, so it is
  // held to a budget too) and the demo seeding it runs as a short-lived process of its own.
  start: "scripts/start.ts",
  "seed-demo": "scripts/seed-demo.ts",
} as const;

export type Deployable = keyof typeof DEPLOYABLES;

/** What the image holds: the deployables, not `npm start`'s own processes. */
export const IMAGE_DEPLOYABLES: Deployable[] = ["gateway", "auth", "scan-orchestrator", "scanner", "findings", "grc", "webhook-dispatcher"];

/** The file `node` runs for a deployable. */
export const entryOf = (name: Deployable): string => path.join(DIST, name, "main.js");

const STAMP = path.join(DIST, "build.json");
/** What a build depends on beside the sources esbuild reports: the lockfile and this script. */
const BUILD_INPUTS = ["package-lock.json", "scripts/lib/build.ts"];

interface Stamp {
  inputs: string[];
}

function readStamp(): Stamp | undefined {
  try {
    return JSON.parse(fs.readFileSync(STAMP, "utf8")) as Stamp;
  } catch {
    return undefined;
  }
}

/**
 * Why dist/ must be rebuilt, or undefined when it is current: missing output, or a source file
 * (any input esbuild read, as recorded by the last build), the lockfile or this script newer
 * than the last build.
 */
export function buildStaleReason(): string | undefined {
  const stamp = readStamp();
  if (!stamp) return "no build yet";
  const builtAt = fs.statSync(STAMP).mtimeMs;
  for (const name of Object.keys(DEPLOYABLES) as Deployable[]) if (!fs.existsSync(entryOf(name))) return `${name} missing`;
  for (const rel of [...BUILD_INPUTS, ...stamp.inputs]) {
    let mtime: number;
    try {
      mtime = fs.statSync(path.join(ROOT, rel)).mtimeMs;
    } catch {
      return `${rel} is gone`;
    }
    if (mtime > builtAt) return `${rel} changed`;
  }
  // A new file imported by an edited one makes that one newer, so it is caught above.
  return undefined;
}

/**
 * Rewrites `import.meta.url` in the repository's own modules to the URL of the source file,
 * relative to the bundle: code that reads data beside itself (the scanner's checks, the
 * compliance catalogue, web/dist) finds it in the source tree, from dist/ as from src/.
 */
function sourceUrlPlugin(outDir: string) {
  return {
    name: "source-import-meta-url",
    setup(build: import("esbuild").PluginBuild) {
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const text = await fs.promises.readFile(args.path, "utf8");
        const rel = path.relative(outDir, args.path).split(path.sep).join("/");
        // Not inside a string or a comment's backticks (this file names it in both).
        return { contents: text.replace(/(?<![`"'])\bimport\.meta\.url\b/g, `new URL(${JSON.stringify(rel)}, import.meta.url).href`), loader: "ts" };
      });
    },
  };
}

/**
 * npm dependencies stay in node_modules (loaded by Node as usual, installed with `npm ci
 * --omit=dev` in the image); only the repository's own code is bundled. A dependency installed
 * under a workspace (services/scanner/node_modules/p-limit, a version the root does not hoist)
 * is bundled, since the bundle in dist/ would otherwise load the root's other version.
 */
function externalDependencies() {
  // esbuild resolves symlinks: with node_modules a link to another checkout's (a git worktree
  // sharing one install), packages resolve under that checkout, and so do the workspaces'
  // links in node_modules/@vulnscan, which would bundle the other checkout's sources.
  const modulesDir = fs.realpathSync(path.join(ROOT, "node_modules"));
  const rootModules = modulesDir + path.sep;
  const linkedRoot = path.dirname(modulesDir) + path.sep;
  return {
    name: "external-dependencies",
    setup(build: import("esbuild").PluginBuild) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.path.startsWith("node:") || args.pluginData === "resolving") return undefined;
        const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: "resolving" });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        if (args.path.startsWith("@vulnscan/")) {
          if (linkedRoot === ROOT + path.sep || !resolved.path.startsWith(linkedRoot)) return resolved;
          return { ...resolved, path: path.join(ROOT, resolved.path.slice(linkedRoot.length)) };
        }
        if (resolved.path.startsWith(rootModules) || !resolved.path.includes(`${path.sep}node_modules${path.sep}`)) return { path: args.path, external: true };
        return resolved;
      });
    },
  };
}

export interface BuildResult {
  ms: number;
  bytes: Record<Deployable, number>;
}

/** Builds every deployable into dist/ (about two seconds) and records its inputs. */
export async function buildAll(opts: { only?: Deployable[] } = {}): Promise<BuildResult> {
  const { build } = await import("esbuild");
  const t0 = Date.now();
  // Built beside dist/ (same depth, so every relative path in the output holds) and swapped in
  // at the end: a supervisor restarting a service meanwhile never finds dist/ half written.
  const out = path.join(ROOT, `.dist-${process.pid}`);
  fs.rmSync(out, { recursive: true, force: true });
  const inputs = new Set<string>();
  const bytes = {} as Record<Deployable, number>;
  await Promise.all(
    (Object.entries(DEPLOYABLES) as [Deployable, string][])
      .filter(([name]) => !opts.only || opts.only.includes(name))
      .map(async ([name, entry]) => {
        const outDir = path.join(out, name);
        const result = await build({
          absWorkingDir: ROOT,
          entryPoints: [entry],
          outdir: outDir,
          entryNames: "main",
          // Code that a process imports only when configured (the OpenTelemetry SDK without an OTLP
          // endpoint, the PDF writer until a report is asked for) stays in a chunk of its own, loaded then.
          splitting: true,
          bundle: true,
          platform: "node",
          format: "esm",
          target: "node20",
          sourcemap: true,
          // Stack traces name the TypeScript line (node --enable-source-maps); the sources are beside.
          sourcesContent: false,
          plugins: [externalDependencies(), sourceUrlPlugin(outDir)],
          metafile: true,
          logLevel: "error",
          legalComments: "none",
        });
        for (const input of Object.keys(result.metafile.inputs)) if (!input.includes("node_modules/")) inputs.add(input.replace(/^.*?:/, ""));
        bytes[name] = fs.statSync(path.join(outDir, "main.js")).size;
      }),
  );
  // The bundles are ES modules wherever dist/ is copied (the image copies no root package.json).
  fs.writeFileSync(path.join(out, "package.json"), '{ "type": "module" }\n');
  const stamp: Stamp = { inputs: [...inputs].sort() };
  fs.writeFileSync(path.join(out, path.basename(STAMP)), `${JSON.stringify(stamp, null, 1)}\n`);
  fs.rmSync(DIST, { recursive: true, force: true });
  fs.renameSync(out, DIST);
  return { ms: Date.now() - t0, bytes };
}

/** Builds when stale; returns why it built, or undefined when dist/ was current. */
export async function ensureBuilt(opts: { force?: boolean } = {}): Promise<string | undefined> {
  const reason = opts.force ? "forced" : buildStaleReason();
  if (reason) await buildAll();
  return reason;
}
