// Compiles every deployable ahead of time: one esbuild bundle of the repository's own code per
// process (dist/<name>/main.js with its source map; npm dependencies load from node_modules), so
// what `npm start`, the end-to-end tests, the benchmarks and the image run is the same JavaScript
// and no process pays for a TypeScript loader or compiles at start. docs/decisions.md
// ("Compiled deployables") says why this shape and not tsc's emit or a bundle of everything.
import fs from "node:fs";
import { isBuiltin } from "node:module";
import path from "node:path";
import { ROOT } from "./root.js";
import { keepMappings, type SourceMap } from "./source-map-filter.js";

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
  // held to a budget too), and the topic creation and demo seeding it runs as short-lived
  // processes of their own.
  start: "scripts/start.ts",
  "provision-topics": "scripts/provision-topics.ts",
  "seed-demo": "scripts/seed-demo.ts",
} as const;

export type Deployable = keyof typeof DEPLOYABLES;

/** What the image holds: the deployables, not `npm start`'s own processes. */
export const IMAGE_DEPLOYABLES: Deployable[] = ["gateway", "auth", "scan-orchestrator", "scanner", "findings", "grc", "webhook-dispatcher"];

/** The file `node` runs for a deployable. */
export const entryOf = (name: Deployable): string => path.join(DIST, name, "main.js");

const STAMP = path.join(DIST, "build.json");
/** What a build depends on beside the sources esbuild reports: the lockfile and this script. */
const BUILD_INPUTS = ["package-lock.json", "scripts/lib/build.ts", "scripts/lib/source-map-filter.ts"];

interface Stamp {
  inputs: string[];
  /** npm packages the image's deployables load from node_modules at run time (scripts/lib/image-modules.ts). */
  packages?: string[];
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
 * The deployables (IMAGE_DEPLOYABLES) bundle their npm dependencies too, whitespace-minified:
 * V8 keeps every loaded module's source text for lazy compilation, and a dependency's module
 * graph from node_modules (comments, indentation, code the bundle shakes out, one module
 * record and wrapper each) held 7-9 MiB more of old space per idle process (docs/decisions.md,
 * "Compiled deployables"). These stay in node_modules: native addons, packages that read files
 * beside themselves (__dirname-relative), and the PDF writer loaded on first use.
 * `npm start`'s supervisor and demo seeding keep every dependency external: they load esbuild
 * and mongodb-memory-server, which read files beside themselves, and serve no request.
 */
const KEEP_EXTERNAL = new Set(["@node-rs/argon2", "ssh2", "@fastify/swagger-ui", "pdfkit"]);

const packageOf = (spec: string): string =>
  spec
    .split("/")
    .slice(0, spec.startsWith("@") ? 2 : 1)
    .join("/");

/**
 * Dependencies' imports a bundle loads on first call instead of at start (package: the
 * functions the importer calls). The mongodb driver imports saslprep for SCRAM-SHA-256
 * passwords, and saslprep builds about 2 MiB of Unicode tables at import, in every process,
 * with or without credentials in the URL. whatwg-url (the driver parses its connection string
 * with it) imports tr46 for internationalised host names, whose mapping table and Unicode
 * expressions are loaded at start, but calls it only for hosts of special schemes (http:,
 * https:, ws:, file: ...), never for mongodb: or mongodb+srv:. @fastify/swagger imports yaml
 * (0.8 MiB of heap at import) for the YAML form of the document, which only Swagger UI's
 * `/docs/yaml` asks for.
 */
const DEFERRED: Record<string, string[]> = { "@mongodb-js/saslprep": ["saslprep"], tr46: ["toASCII", "toUnicode"], yaml: ["stringify", "parse"] };

export function deferredDependencies() {
  const filter = new RegExp(
    `^(${Object.keys(DEFERRED)
      .map((p) => p.replace(/[/.]/g, "\\$&"))
      .join("|")})$`,
  );
  return {
    name: "deferred-dependencies",
    setup(build: import("esbuild").PluginBuild) {
      // The stand-in's own require() loads the package from node_modules: bundled, its source
      // (tr46's mapping table alone is 238 kB) would sit in every process's bundle text unused.
      // external-dependencies' own resolve of it gets the package.
      build.onResolve({ filter }, (args) => {
        if (args.pluginData === "resolving") return undefined;
        return args.namespace === "deferred" ? { path: args.path, external: true } : { path: args.path, namespace: "deferred" };
      });
      // esbuild runs a bundled CommonJS module at its first require(), here the first call.
      build.onLoad({ filter: /.*/, namespace: "deferred" }, (args) => ({
        contents: (DEFERRED[args.path] ?? []).map((fn) => `exports.${fn} = (...a) => require(${JSON.stringify(args.path)}).${fn}(...a);`).join("\n"),
        resolveDir: ROOT,
        loader: "js",
      }));
    },
  };
}

/**
 * Dual packages a bundle takes one copy of, the CommonJS one, whoever imports them: the mongodb
 * driver require()s bson (bson.cjs) and our code imports it (bson.node.mjs), so the scanner
 * bundled, loaded and held both.
 */
const ONE_COPY = new Set(["bson"]);

export function externalDependencies(bundleDependencies: boolean) {
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
        const kind = bundleDependencies && ONE_COPY.has(args.path) ? "require-call" : args.kind;
        const resolved = await build.resolve(args.path, { kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: "resolving" });
        if (resolved.errors.length > 0) {
          // A dependency's optional peer that is not installed (mongodb's kerberos, snappy...):
          // the dependency requires it inside a try, as it does from node_modules.
          if (bundleDependencies && args.importer.includes(`${path.sep}node_modules${path.sep}`)) return { path: args.path, external: true };
          return { errors: resolved.errors };
        }
        if (args.path.startsWith("@vulnscan/")) {
          if (linkedRoot === ROOT + path.sep || !resolved.path.startsWith(linkedRoot)) return resolved;
          return { ...resolved, path: path.join(ROOT, resolved.path.slice(linkedRoot.length)) };
        }
        if (resolved.external) return resolved;
        if (bundleDependencies && !KEEP_EXTERNAL.has(packageOf(args.path))) return resolved;
        if (resolved.path.startsWith(rootModules) || !resolved.path.includes(`${path.sep}node_modules${path.sep}`)) return { path: args.path, external: true };
        return resolved;
      });
    },
  };
}

/** Leaves every map in a bundle's directory with our own sources' mappings only (source-map-filter.ts). */
function keepOwnMappings(outDir: string): void {
  for (const file of fs.readdirSync(outDir)) {
    if (!file.endsWith(".js.map")) continue;
    const mapFile = path.join(outDir, file);
    const map = JSON.parse(fs.readFileSync(mapFile, "utf8")) as SourceMap;
    fs.writeFileSync(mapFile, JSON.stringify(keepMappings(map, (source) => !source.includes("node_modules/"))));
  }
}

/**
 * The bundled code's `Headers` and `navigator` (services/kit/src/bundle-globals.ts): Node would
 * load its whole fetch API (undici) at their first touch, 3-5 MiB in every process.
 */
export const BUNDLE_GLOBALS = path.join(ROOT, "services/kit/src/bundle-globals.ts");

// A CommonJS dependency bundled into an ES module calls require() (Node's built-ins, optional
// peers); esbuild's shim uses the module's own `require` when there is one.
export const REQUIRE_BANNER = 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);';

export interface BuildResult {
  ms: number;
  bytes: Record<Deployable, number>;
}

/** Builds every deployable into dist/ (about 12 s on two busy cores, the dependencies bundled) and records its inputs. */
export async function buildAll(opts: { only?: Deployable[] } = {}): Promise<BuildResult> {
  const { build } = await import("esbuild");
  const t0 = Date.now();
  // Built beside dist/ (same depth, so every relative path in the output holds) and swapped in
  // at the end: a supervisor restarting a service meanwhile never finds dist/ half written.
  const out = path.join(ROOT, `.dist-${process.pid}`);
  fs.rmSync(out, { recursive: true, force: true });
  const inputs = new Set<string>();
  const packages = new Set<string>();
  const bytes = {} as Record<Deployable, number>;
  await Promise.all(
    (Object.entries(DEPLOYABLES) as [Deployable, string][])
      .filter(([name]) => !opts.only || opts.only.includes(name))
      .map(async ([name, entry]) => {
        const outDir = path.join(out, name);
        const withDependencies = IMAGE_DEPLOYABLES.includes(name);
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
          plugins: [...(withDependencies ? [deferredDependencies()] : []), externalDependencies(withDependencies), sourceUrlPlugin(outDir)],
          // Whitespace and syntax only: identifiers keep their names (class names, error names,
          // stack traces of dependencies, which the maps no longer cover).
          ...(withDependencies ? { banner: { js: REQUIRE_BANNER }, minifyWhitespace: true, minifySyntax: true, inject: [BUNDLE_GLOBALS] } : {}),
          metafile: true,
          logLevel: "error",
          legalComments: "none",
        });
        // Not the deferred dependencies' stand-ins ("deferred:<package>"): no file, nothing to go stale.
        for (const input of Object.keys(result.metafile.inputs))
          if (!input.includes("node_modules/") && !input.startsWith("deferred:")) inputs.add(input.replace(/^.*?:/, ""));
        if (withDependencies) {
          keepOwnMappings(outDir);
          // What the bundle imports from node_modules and is installed (an optional peer such as
          // kerberos is required inside a try, and absent).
          for (const output of Object.values(result.metafile.outputs))
            for (const imported of output.imports) {
              if (!imported.external || isBuiltin(imported.path)) continue;
              const name = packageOf(imported.path);
              if (fs.existsSync(path.join(ROOT, "node_modules", name, "package.json"))) packages.add(name);
            }
        }
        bytes[name] = fs.statSync(path.join(outDir, "main.js")).size;
      }),
  );
  // The bundles are ES modules wherever dist/ is copied (the image copies no root package.json).
  fs.writeFileSync(path.join(out, "package.json"), '{ "type": "module" }\n');
  const stamp: Stamp = { inputs: [...inputs].sort(), packages: [...packages].sort() };
  fs.writeFileSync(path.join(out, path.basename(STAMP)), `${JSON.stringify(stamp, null, 1)}\n`);
  fs.rmSync(DIST, { recursive: true, force: true });
  fs.renameSync(out, DIST);
  return { ms: Date.now() - t0, bytes };
}

/** The npm packages the last build's image deployables load from node_modules at run time. */
export function runtimePackages(): string[] {
  const packages = readStamp()?.packages;
  if (!packages) throw new Error("dist/ has no build of the image's deployables: run `npx tsx scripts/build.ts --image` first");
  return packages;
}

/** Builds when stale; returns why it built, or undefined when dist/ was current. */
export async function ensureBuilt(opts: { force?: boolean } = {}): Promise<string | undefined> {
  const reason = opts.force ? "forced" : buildStaleReason();
  if (reason) await buildAll();
  return reason;
}
