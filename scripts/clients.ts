// The client libraries (clients/), generated from the OpenAPI document the gateway serves:
//   clients/openapi.json                the document (scripts/openapi.ts)
//   clients/typescript/src/schema.ts    openapi-typescript (npm), types for openapi-fetch
//   clients/python/src/vulnscan_client/generated/  openapi-python-client (PyPI, a venv in the cache)
//   clients/go/vulnscan.gen.go          oapi-codegen (Go module proxy, `go run …@version`)
// `npm run clients` writes them; `checkClients()` (run by `npm test`) regenerates into a
// temporary folder and fails when a committed file differs, then compares the document with the
// last released one (clients/openapi.released.json) with oasdiff and fails on a breaking change
// that docs/api-changes.md does not declare. The code around the generated part in each library is
// written by hand; the generated files never are.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensurePythonTool } from "./lib/python-tool.ts";
import { ROOT } from "./lib/root.ts";
import { openApiText } from "./openapi.ts";
import { run } from "./stack/process.ts";

export const OPENAPI_PYTHON_CLIENT_VERSION = "0.29.1";
export const OAPI_CODEGEN = "github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2";
export const OASDIFF = "github.com/oasdiff/oasdiff@v1.37.0";

const CLIENTS = path.join(ROOT, "clients");
/** The generated files and folders, relative to clients/. */
const GENERATED = ["openapi.json", "typescript/src/schema.ts", "python/src/vulnscan_client/generated", "go/vulnscan.gen.go"];

const log = (line: string) => console.log(`[clients] ${line}`);

/**
 * The document with every text/event-stream body's schema replaced by a string, for
 * openapi-python-client: it parses a text body whole against the media type's schema, while an
 * event stream's schema describes one event (OpenAPI 3.1's reading of a sequential media type), so
 * its generated function would fail on every 200. The Python client hands back the stream as text.
 */
// biome-ignore lint/suspicious/noExplicitAny: the document is walked generically, path by path
function eventStreamsAsText(doc: any): unknown {
  for (const item of Object.values(doc.paths ?? {}) as Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>[])
    for (const op of Object.values(item))
      for (const response of Object.values(op.responses ?? {})) {
        const media = response.content?.["text/event-stream"];
        if (media) media.schema = { type: "string" };
      }
  return doc;
}

/** Writes every generated part under `out` (clients/ itself, or a temporary copy for the check). */
export async function generate(out: string): Promise<void> {
  const doc = path.join(out, "openapi.json");
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(doc, await openApiText());

  fs.mkdirSync(path.join(out, "typescript/src"), { recursive: true });
  await run(path.join(ROOT, "node_modules/.bin/openapi-typescript"), [doc, "--output", path.join(out, "typescript/src/schema.ts")]);

  const py = path.join(out, "python/src/vulnscan_client/generated");
  fs.rmSync(py, { recursive: true, force: true });
  const generator = await ensurePythonTool("openapi-python-client", OPENAPI_PYTHON_CLIENT_VERSION, log);
  const pyDoc = fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-python-doc-"));
  try {
    fs.writeFileSync(path.join(pyDoc, "openapi.json"), JSON.stringify(eventStreamsAsText(JSON.parse(fs.readFileSync(doc, "utf8")))));
    await run(generator, [
      "generate",
      "--path",
      path.join(pyDoc, "openapi.json"),
      "--meta",
      "none",
      "--output-path",
      py,
      "--config",
      path.join(CLIENTS, "python/generator.yaml"),
    ]);
  } finally {
    fs.rmSync(pyDoc, { recursive: true, force: true });
  }

  fs.mkdirSync(path.join(out, "go"), { recursive: true });
  // Outside any module, so `go run pkg@version` resolves the pinned generator alone.
  await run("go", ["run", OAPI_CODEGEN, "-config", path.join(CLIENTS, "go/oapi-codegen.yaml"), "-o", path.join(out, "go/vulnscan.gen.go"), doc], {
    cwd: os.tmpdir(),
  });
}

function filesUnder(root: string, rel: string): string[] {
  const full = path.join(root, rel);
  if (!fs.existsSync(full)) return [];
  if (!fs.statSync(full).isDirectory()) return [rel];
  return fs
    .readdirSync(full)
    .filter((n) => n !== "__pycache__")
    .flatMap((n) => filesUnder(root, path.join(rel, n)));
}

/** The generated files that differ between clients/ and a fresh generation, with the reason. */
export async function staleFiles(): Promise<string[]> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-clients-"));
  try {
    await generate(tmp);
    const stale: string[] = [];
    for (const rel of GENERATED) {
      const names = new Set([...filesUnder(CLIENTS, rel), ...filesUnder(tmp, rel)]);
      for (const name of [...names].sort()) {
        const a = path.join(CLIENTS, name);
        const b = path.join(tmp, name);
        if (!fs.existsSync(a)) stale.push(`${name} (missing)`);
        else if (!fs.existsSync(b)) stale.push(`${name} (no longer generated)`);
        else if (!fs.readFileSync(a).equals(fs.readFileSync(b))) stale.push(`${name} (differs)`);
      }
    }
    return stale;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** One breaking change oasdiff found, as docs/api-changes.md declares it: `<rule id> <METHOD> <path>`. */
export interface BreakingChange {
  key: string;
  text: string;
}

/**
 * Rules oasdiff rates ERR that the change policy calls compatible (docs/api-changes.md, "What a
 * compatible change is"): a new value of an enum in a response — clients must take an unknown one
 * as "other".
 */
const COMPATIBLE_RULES = new Set(["response-property-enum-value-added"]);

/** oasdiff's breaking changes (level ERR, minus what the policy calls compatible) from the document `base` to `current`. */
export async function breakingChanges(base: string, current: string): Promise<BreakingChange[]> {
  const out = await run("go", ["run", OASDIFF, "breaking", base, current, "--format", "json"], { cwd: os.tmpdir() });
  const found = JSON.parse(out.trim() || "[]") as { id: string; level: number; operation?: string; path?: string; text?: string }[];
  return found
    .filter((c) => c.level >= 3 && !COMPATIBLE_RULES.has(c.id))
    .map((c) => ({ key: [c.id, c.operation, c.path].filter(Boolean).join(" "), text: c.text ?? "" }));
}

/** The changes a changelog does not declare with a line `- breaking: \`<key>\``. */
export function undeclared(changes: BreakingChange[], changelog: string): BreakingChange[] {
  const declared = new Set([...changelog.matchAll(/^- breaking: `([^`]+)`/gm)].map((m) => m[1]!.trim()));
  return changes.filter((c) => !declared.has(c.key));
}

/** `npm test`'s step: the libraries are what the document generates, and nothing breaks v1 unannounced. */
export async function checkClients(): Promise<void> {
  const stale = await staleFiles();
  if (stale.length > 0) throw new Error(`client libraries are stale (run \`npm run clients\`):\n  ${stale.join("\n  ")}`);
  const changes = await breakingChanges(path.join(CLIENTS, "openapi.released.json"), path.join(CLIENTS, "openapi.json"));
  const breaking = undeclared(changes, fs.readFileSync(path.join(ROOT, "docs/api-changes.md"), "utf8"));
  if (breaking.length > 0) {
    const lines = breaking.map((c) => `${c.key}: ${c.text}`);
    throw new Error(`breaking API changes since the last release, not declared in docs/api-changes.md (see its policy):\n  ${lines.join("\n  ")}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes("--release")) {
    // The current document becomes the one later changes are compared with (docs/api-changes.md).
    fs.copyFileSync(path.join(CLIENTS, "openapi.json"), path.join(CLIENTS, "openapi.released.json"));
    log("clients/openapi.released.json is now clients/openapi.json");
  } else if (process.argv.includes("--check")) {
    await checkClients();
    log("generated code fresh; no undeclared breaking change");
  } else {
    await generate(CLIENTS);
    log("wrote clients/openapi.json and the generated parts of clients/typescript, clients/python, clients/go");
  }
}
