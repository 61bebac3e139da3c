// FerretDB v1 (the last v1 release), a MongoDB wire-protocol server in Go, built once from the Go
// module proxy into the cache folder, on SQLite or on PostgreSQL (DESIGN.md §4).
//
// Patches (PATCHES below; docs/decisions.md "Database"), read from the v1.24.0 source:
//   - SQLite: the `_id` index is on `_jsonb->"_id"` but point lookups, updates and deletes filter on
//     `_jsonb->'$._id'`, an equal value the planner cannot match to it, so each one scanned the
//     table. The filter now uses the indexed expression (checked with the query plan).
//   - PostgreSQL: equality is sent as `_jsonb->'f' @> v` (containment, so a value inside an array
//     matches too), which a btree never serves. `_id` cannot be an array, so for `_id` plain `=`
//     means the same and the unique btree on `(_jsonb->'_id')` serves it. Other equality fields
//     get GIN expression indexes from the kit's ensureIndexes (services/kit/src/ferretdb-pg.ts).
//   - update and findAndModify release their read's pooled connection before writing, so
//     concurrent updates cannot take the whole pool and wait on each other forever.

import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cacheDir } from "../lib/stack-state.ts";
import { removeLeftovers, withLock, withProgress } from "./lock.ts";
import { run, which } from "./process.ts";
import { startMongoServer } from "./mongo-probe.ts";
import type { StartContext, Started } from "./servers.ts";

export const FERRETDB_VERSION = "1.24.0";
/** Bumped whenever PATCHES change, so an install with other patches is never reused. */
const PATCH_LEVEL = "vs3";
/** FerretDB inserts this many documents per SQL statement (default 100; measured 2x faster inserts). */
const BATCH_SIZE = 1000;
const ferretdbModuleDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "ferretdb");

interface Patch {
  file: string;
  from: string;
  to: string;
}

const PATCHES: Patch[] = [
  {
    file: "internal/backends/sqlite/metadata/metadata.go",
    from: `IDColumn = DefaultColumn + "->'$._id'"`,
    to: `IDColumn = DefaultColumn + "->\\"_id\\"" // vulnscan: the expression of the _id index`,
  },
  {
    file: "internal/backends/postgresql/query.go",
    from: "\tsql := `%[1]s%[2]s%[3]s @> %[4]s`\n",
    to:
      "\tsql := `%[1]s%[2]s%[3]s @> %[4]s`\n" +
      "\t// vulnscan: _id is never an array, so = matches exactly what @> does, and the _id index serves it\n" +
      '\tif k == "_id" && operator == "->" {\n' +
      "\t\tsql = `%[1]s%[2]s%[3]s = %[4]s`\n" +
      "\t}\n",
  },
  // An update and a findAndModify held their read's pooled connection while the write transaction
  // took a second one; with as many such commands at once as the pool has connections (50), each
  // held one and waited for another, and the server stopped answering for good (seen with 64
  // concurrent webhook deliveries). Now the matched documents are read first and the read is
  // released before the write, as FerretDB's own delete already does.
  {
    file: "internal/handler/msg_update.go",
    from: '\t\tresult, err := common.UpdateDocument(ctx, c, "update", iter, &u)\n',
    to:
      "\t\t// vulnscan: release the read's connection before the write transaction takes one\n" +
      "\t\tdocs, err := iterator.ConsumeValues(iter)\n" +
      "\t\tif err != nil {\n" +
      "\t\t\treturn 0, 0, nil, lazyerrors.Error(err)\n" +
      "\t\t}\n" +
      "\t\tres.Iter.Close()\n\n" +
      "\t\titer = iterator.Values(iterator.ForSlice(docs))\n" +
      "\t\tcloser.Add(iter)\n\n" +
      '\t\tresult, err := common.UpdateDocument(ctx, c, "update", iter, &u)\n',
  },
  {
    file: "internal/handler/msg_findandmodify.go",
    from: "\titer = common.LimitIterator(iter, closer, 1)\n",
    to:
      "\titer = common.LimitIterator(iter, closer, 1)\n\n" +
      "\t// vulnscan: release the read's connection before the write transaction takes one\n" +
      "\tdocs, err := iterator.ConsumeValues(iter)\n" +
      "\tif err != nil {\n" +
      "\t\treturn nil, lazyerrors.Error(err)\n" +
      "\t}\n" +
      "\tqueryRes.Iter.Close()\n" +
      "\titer = iterator.Values(iterator.ForSlice(docs))\n" +
      "\tcloser.Add(iter)\n",
  },
];

async function applyPatch(src: string, patch: Patch): Promise<void> {
  const file = path.join(src, patch.file);
  const text = await fsp.readFile(file, "utf8");
  if (text.split(patch.from).length !== 2) throw new Error(`FerretDB patch does not apply: ${patch.file} lacks exactly one \`${patch.from.trim()}\``);
  await fsp.writeFile(file, text.replace(patch.from, patch.to));
}

function chmodUserWritable(target: string): void {
  const stat = fs.lstatSync(target);
  if (stat.isSymbolicLink()) return;
  fs.chmodSync(target, stat.mode | 0o200);
  if (stat.isDirectory()) for (const entry of fs.readdirSync(target)) chmodUserWritable(path.join(target, entry));
}

export async function ensureFerretdb(log: (line: string) => void): Promise<string> {
  const home = path.join(cacheDir(), `ferretdb-${FERRETDB_VERSION}-${PATCH_LEVEL}`);
  const bin = path.join(home, "ferretdb");
  if (fs.existsSync(bin)) return bin;
  return withLock(`ferretdb-${FERRETDB_VERSION}-${PATCH_LEVEL}`, log, async () => {
    if (fs.existsSync(bin)) return bin;
    const go = which("go");
    if (!go) throw new Error("no `mongod` on PATH and FerretDB needs the Go toolchain, but `go` is not on PATH (or set MONGO_URL)");
    await removeLeftovers(`${home}.tmp-`);
    const buildRoot = path.join(cacheDir(), "build");
    await removeLeftovers(path.join(buildRoot, `ferretdb-${FERRETDB_VERSION}-`));
    const build = path.join(buildRoot, `ferretdb-${FERRETDB_VERSION}-${process.pid}`);
    const tmp = `${home}.tmp-${process.pid}`;
    await fsp.mkdir(build, { recursive: true });
    await fsp.mkdir(tmp, { recursive: true });
    for (const file of ["go.mod", "go.sum", "tools.go"]) await fsp.copyFile(path.join(ferretdbModuleDir, file), path.join(build, file));
    // -mod=mod lets go fill in go.sum lines the toolchain wants; GOTOOLCHAIN=local stops go from
    // fetching another toolchain; no cgo, because FerretDB's SQLite is pure Go (modernc).
    const env = { ...process.env, GOFLAGS: "-mod=mod -buildvcs=false", GOTOOLCHAIN: "local", CGO_ENABLED: "0" };
    log(`building FerretDB v${FERRETDB_VERSION} with ${go} into ${home} (first run only, a few minutes)`);
    const started = Date.now();
    // `go install ...@v1.24.0` cannot be used: the proxy refuses the module's version list here,
    // and the published module has an empty build/version/version.txt, so the binary panics at
    // start. Instead: build from a copy of the module source with version.txt filled in.
    const info = JSON.parse(await run(go, ["mod", "download", "-json", `github.com/FerretDB/FerretDB@v${FERRETDB_VERSION}`], { cwd: build, env })) as {
      Dir?: string;
      Error?: string;
    };
    if (!info.Dir) throw new Error(`go mod download gave no source dir for FerretDB: ${info.Error ?? "unknown error"}`);
    const src = path.join(build, "src");
    await fsp.cp(info.Dir, src, { recursive: true });
    chmodUserWritable(src); // the module cache is read-only
    await fsp.writeFile(path.join(src, "build", "version", "version.txt"), `v${FERRETDB_VERSION}\n`);
    for (const patch of PATCHES) await applyPatch(src, patch);
    await run(go, ["mod", "edit", "-replace", "github.com/FerretDB/FerretDB=./src"], { cwd: build, env });
    await withProgress(log, "go build", () =>
      run(go, ["build", "-trimpath", "-o", path.join(tmp, "ferretdb"), "github.com/FerretDB/FerretDB/cmd/ferretdb"], { cwd: build, env }),
    );
    const version = await run(path.join(tmp, "ferretdb"), ["--version"]);
    if (!version.includes(`v${FERRETDB_VERSION}`)) throw new Error(`built FerretDB reports an unexpected version:\n${version}`);
    await fsp.rm(home, { recursive: true, force: true });
    await fsp.rename(tmp, home);
    await fsp.rm(build, { recursive: true, force: true });
    await fsp.rmdir(buildRoot).catch(() => undefined); // only if empty
    log(`FerretDB v${FERRETDB_VERSION} built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return bin;
  });
}

export type FerretdbBackend = "sqlite" | "postgresql";

export interface FerretdbOptions {
  backend: FerretdbBackend;
  /** postgres://… of the PostgreSQL the postgresql backend stores into. */
  postgresqlUrl?: string;
  /** Shown in the description, e.g. "PostgreSQL 15.8". */
  backendDescription: string;
}

export async function startFerretdb(ctx: StartContext, opts: FerretdbOptions): Promise<Started> {
  const ferretdb = await ensureFerretdb(ctx.log);
  const sqliteDir = path.join(ctx.dataDir, "ferretdb");
  const stateDir = path.join(ctx.dataDir, "ferretdb-state");
  const outFile = path.join(ctx.dataDir, "ferretdb.log");
  if (opts.backend === "sqlite") await fsp.mkdir(sqliteDir, { recursive: true });
  await fsp.mkdir(stateDir, { recursive: true });
  const backendArgs =
    opts.backend === "sqlite" ? ["--handler=sqlite", `--sqlite-url=file:${sqliteDir}/`] : ["--handler=postgresql", `--postgresql-url=${opts.postgresqlUrl}`];
  return startMongoServer(ctx, {
    name: "ferretdb",
    label: "FerretDB",
    bin: ferretdb,
    args: (port) => [
      ...backendArgs,
      `--state-dir=${stateDir}`,
      `--listen-addr=127.0.0.1:${port}`,
      `--test-batch-size=${BATCH_SIZE}`,
      "--telemetry=disable",
      "--debug-addr=-",
      "--log-level=warn",
    ],
    outFile,
    description: `FerretDB v${FERRETDB_VERSION} (${opts.backendDescription})`,
  });
}
