// FerretDB v1 (the last v1 release), a MongoDB wire-protocol server in Go, built once from the Go
// module proxy into the cache folder, on PostgreSQL (DESIGN.md §4; its SQLite backend was removed
// in stop 26: it pushed nothing down).
//
// Patches (PATCHES below; docs/decisions.md "Database"), read from the v1.24.0 source:
//   - PostgreSQL: equality is sent as `_jsonb->'f' @> v` (containment, so a value inside an array
//     matches too), which a btree never serves. `_id` cannot be an array, so for `_id` plain `=`
//     means the same and the unique btree on `(_jsonb->'_id')` serves it. Other equality fields
//     get GIN expression indexes from the kit's ensureIndexes (services/kit/src/ferretdb-pg.ts).
//   - update and findAndModify release their read's pooled connection before writing, so
//     concurrent updates cannot take the whole pool and wait on each other forever.
//   - Reading: stored documents are decoded without a json.Decoder per value and with their
//     schemas decoded once (overlay internal/handler/sjson/vulnscan_decode.go); the wire module is
//     built without its debug checks (WIRE_PATCHES); the collector runs at GOGC=400
//     (overlay internal/handler/vulnscan_gc.go).

import { createHash } from "node:crypto";
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
/** Files added to FerretDB's source as they are (their paths inside the module). */
const overlayDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "ferretdb", "overlay");
/** FerretDB inserts this many documents per SQL statement (default 100; measured 2x faster inserts). */
const BATCH_SIZE = 1000;
const ferretdbModuleDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "ferretdb");

interface Patch {
  file: string;
  from: string;
  to: string;
}

/** FerretDB's wire-protocol module (the version FerretDB v1.24.0 requires, go.mod). */
const WIRE_VERSION = "0.0.7";

/** Patches to github.com/FerretDB/wire, built from a patched copy as FerretDB is. */
const WIRE_PATCHES: Patch[] = [
  // The module is released as a debug build: every message in both directions, each reply of
  // documents included, was decoded a second time, deeply, only to check it (17 % of FerretDB's
  // CPU serving a page of findings). FerretDB decodes what it uses anyway.
  {
    file: "wire.go",
    from: "const debugbuild = true\n",
    to: "const debugbuild = false // vulnscan: no second decoding of every message (scripts/stack/ferretdb.ts)\n",
  },
];

const PATCHES: Patch[] = [
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
  // Atomic single-document writes: update and findAndModify hold their collection's write lock
  // from the read to the write (overlay internal/handler/vulnscan.go).
  {
    file: "internal/handler/msg_update.go",
    from: "h.updateDocument(connCtx, params)",
    to: "h.vsUpdateDocument(connCtx, params) // vulnscan: under the collection's write lock",
  },
  {
    file: "internal/handler/msg_findandmodify.go",
    from: "h.findAndModifyDocument(connCtx, params)",
    to: "h.vsFindAndModifyDocument(connCtx, params) // vulnscan: under the collection's write lock",
  },
  // Pushdown (overlay internal/backends/postgresql/vulnscan_pushdown.go): the handler asks the
  // backend to apply sort, skip and limit too, or to count; the backend does all of it or none.
  {
    file: "internal/backends/collection.go",
    from: "type QueryParams struct {\n",
    to:
      "type QueryParams struct {\n" +
      "\t// vulnscan: sort, skip and limit a backend applies all together, and only when it filters\n" +
      "\t// exactly (then it sets QueryResult.VsApplied); VsCount asks for one document {n: count}\n" +
      "\tVsSort       *types.Document\n\tVsLimit      int64\n\tVsSkip       int64\n\tVsCount      bool\n" +
      "\tVsProjection *types.Document // excluded fields may be left out in SQL\n\n",
  },
  {
    file: "internal/backends/collection.go",
    from: "type QueryResult struct {\n",
    to: "type QueryResult struct {\n\tVsApplied bool // vulnscan: see QueryParams\n\n",
  },
  {
    file: "internal/backends/collection.go",
    from: "type ExplainParams struct {\n",
    to: "type ExplainParams struct {\n\t// vulnscan: see QueryParams\n\tVsSort  *types.Document\n\tVsLimit int64\n\tVsSkip  int64\n\n",
  },
  {
    file: "internal/backends/collection.go",
    from: "type ExplainResult struct {\n",
    to: "type ExplainResult struct {\n\t// vulnscan: the pushed-down statement and its arguments (jsonb texts), for plan tests\n\tVsSQL  string\n\tVsArgs []any\n\n",
  },
  {
    file: "internal/backends/postgresql/collection.go",
    from: "\tq := prepareSelectClause(&selectParams{\n\t\tSchema:        c.dbName,\n\t\tTable:         meta.TableName,\n\t\tComment:       params.Comment,\n",
    to:
      "\t// vulnscan: declared fields are filtered, sorted, skipped, limited and counted in SQL\n" +
      "\tif res, ok, vsErr := c.vsQuery(ctx, p, meta, params); ok || vsErr != nil {\n\t\treturn res, vsErr\n\t}\n\n" +
      "\tq := prepareSelectClause(&selectParams{\n\t\tSchema:        c.dbName,\n\t\tTable:         meta.TableName,\n\t\tComment:       params.Comment,\n",
  },
  {
    file: "internal/backends/postgresql/collection.go",
    from: "\tres := new(backends.ExplainResult)\n",
    to:
      "\t// vulnscan: the plan of the SQL vsQuery would run\n" +
      "\tif res, ok, vsErr := c.vsExplain(ctx, p, meta, params); ok || vsErr != nil {\n\t\treturn res, vsErr\n\t}\n\n" +
      "\tres := new(backends.ExplainResult)\n",
  },
  {
    file: "internal/handler/msg_find.go",
    from: '\th.L.DebugContext(ctx, fmt.Sprintf("Converted %+v for %+v to %+v.", params, cInfo, qp))\n',
    to:
      "\t// vulnscan: the backend may apply sort, skip and limit too (all or none: QueryResult.VsApplied)\n" +
      "\tif !h.DisablePushdown {\n\t\tqp.VsSort = params.Sort\n\t\tqp.VsLimit = params.Limit\n\t\tqp.VsSkip = params.Skip\n\t\tqp.VsProjection = params.Projection\n\t}\n\n" +
      '\th.L.DebugContext(ctx, fmt.Sprintf("Converted %+v for %+v to %+v.", params, cInfo, qp))\n',
  },
  {
    file: "internal/handler/msg_find.go",
    from: "\titer, err := h.makeFindIter(queryRes.Iter, closer, params)\n",
    to:
      "\titerParams := params\n" +
      "\tif queryRes.VsApplied && params.Skip != 0 {\n" +
      "\t\t// vulnscan: the backend skipped already\n" +
      "\t\tunskipped := *params\n\t\tunskipped.Skip = 0\n\t\titerParams = &unskipped\n\t}\n\n" +
      "\titer, err := h.makeFindIter(queryRes.Iter, closer, iterParams)\n",
  },
  {
    file: "internal/handler/msg_count.go",
    from: "\tqueryRes, err := c.Query(connCtx, &qp)\n",
    to:
      "\t// vulnscan: counted in the backend when it can filter exactly\n" +
      "\tif !h.DisablePushdown {\n" +
      "\t\tvsRes, vsErr := c.Query(connCtx, &backends.QueryParams{Filter: params.Filter, VsCount: true, VsSkip: params.Skip, VsLimit: params.Limit})\n" +
      "\t\tif vsErr != nil {\n\t\t\treturn nil, lazyerrors.Error(vsErr)\n\t\t}\n\n" +
      "\t\tvsN, vsOK, vsErr := vsCountOf(vsRes)\n" +
      "\t\tif vsErr != nil {\n\t\t\treturn nil, lazyerrors.Error(vsErr)\n\t\t}\n\n" +
      '\t\tif vsOK {\n\t\t\treturn documentOpMsg(must.NotFail(types.NewDocument("n", vsNumber(vsN), "ok", float64(1))))\n\t\t}\n\t}\n\n' +
      "\tqueryRes, err := c.Query(connCtx, &qp)\n",
  },
  {
    file: "internal/handler/msg_aggregate.go",
    from: "\tif len(collStatsDocuments) == len(stagesDocuments) {\n",
    to:
      "\tif vsIter, vsOK, vsErr := h.vsAggregateCount(ctx, c, aggregationStages); vsErr != nil || vsOK {\n" +
      "\t\t// vulnscan: a countDocuments pipeline counted in the backend\n" +
      "\t\titer, err = vsIter, vsErr\n" +
      "\t} else if len(collStatsDocuments) == len(stagesDocuments) {\n",
  },
  {
    file: "internal/handler/msg_explain.go",
    from: "\tres, err := coll.Explain(connCtx, qp)\n",
    to:
      "\t// vulnscan: explain what vsQuery would run\n" +
      "\tif !h.DisablePushdown {\n\t\tqp.VsSort = params.Sort\n\t\tqp.VsLimit = params.Limit\n\t\tqp.VsSkip = params.Skip\n\t}\n\n" +
      "\tres, err := coll.Explain(connCtx, qp)\n",
  },
  {
    file: "internal/handler/msg_explain.go",
    from: '\t\t\t"limitPushdown", res.LimitPushdown,\n',
    to: '\t\t\t"limitPushdown", res.LimitPushdown,\n\t\t\t"vulnscanSQL", res.VsSQL,\n\t\t\t"vulnscanArgs", vsArgsArray(res.VsArgs),\n',
  },
  // Every cursor and query iterator was registered in a pprof profile with a finalizer that panics
  // when it was not closed: a leak detector for FerretDB's own tests, 10% of FerretDB's CPU under
  // the capacity bench (runtime/pprof.(*Profile).Add), and a crash instead of a leak in production.
  {
    file: "internal/util/resource/resource.go",
    from: "func Track(obj any, token *Token) {\n\tcheckArgs(obj, token)\n",
    to: "func Track(obj any, token *Token) {\n\tcheckArgs(obj, token)\n\n\tif vsUntracked { // vulnscan: not tracked\n\t\treturn\n\t}\n",
  },
  {
    file: "internal/util/resource/resource.go",
    from: "func Untrack(obj any, token *Token) {\n\tcheckArgs(obj, token)\n",
    to: "func Untrack(obj any, token *Token) {\n\tcheckArgs(obj, token)\n\n\tif vsUntracked { // vulnscan: not tracked\n\t\treturn\n\t}\n",
  },
  {
    file: "internal/util/resource/resource.go",
    from: "// profilesM protects access to profiles.\n",
    to: "// vsUntracked turns lifetime tracking off (vulnscan: see scripts/stack/ferretdb.ts).\nvar vsUntracked = true\n\n// profilesM protects access to profiles.\n",
  },
  // Every message in both directions was decoded a second time, deeply, to refuse NaN values (9% of
  // FerretDB's CPU under the capacity bench). Stored documents cannot hold NaN (FerretDB's JSON
  // encoding has no NaN, so such a write fails), and our services never send one.
  {
    file: "internal/handler/wire.go",
    from: "\twire.CheckNaNs = true\n",
    to: "\twire.CheckNaNs = false // vulnscan: no second decoding of every message (scripts/stack/ferretdb.ts)\n",
  },
  // explain refused the skip every driver sends as int32 ("expected type 'long'").
  {
    file: "internal/handler/common/explain.go",
    from: '\tif skip, err = GetOptionalParam(explain, "skip", skip); err != nil {\n\t\treturn nil, err\n\t}\n',
    to:
      '\tif v, _ := explain.Get("skip"); v != nil { // vulnscan: any whole number, as find takes it\n' +
      "\t\tif skip, err = handlerparams.GetWholeNumberParam(v); err != nil {\n" +
      '\t\t\treturn nil, handlererrors.NewCommandErrorMsgWithArgument(handlererrors.ErrTypeMismatch, "BSON field \'skip\' is the wrong type", "skip")\n' +
      "\t\t}\n\t}\n",
  },
  // Indexes on a top-level field are built on the expression pushdown compares and sorts by:
  // missing counts as null, as in MongoDB (and in its unique indexes).
  {
    file: "internal/backends/postgresql/metadata/registry.go",
    from: '\t\t\tcolumns[i] = fmt.Sprintf("((%s->%s))", DefaultColumn, strings.Join(transformedParts, " -> "))\n',
    to:
      '\t\t\tcolumns[i] = fmt.Sprintf("((%s->%s))", DefaultColumn, strings.Join(transformedParts, " -> "))\n' +
      "\t\t\t// vulnscan: the expression of vsExpr (backends/postgresql/vulnscan_pushdown.go)\n" +
      '\t\t\tif len(fs) == 1 && key.Field != "_id" {\n' +
      "\t\t\t\tcolumns[i] = fmt.Sprintf(\"((COALESCE(%s->%s, 'null'::jsonb)))\", DefaultColumn, transformedParts[0])\n" +
      "\t\t\t}\n",
  },
  // Reading a document decoded every value with a json.Decoder of its own and the document's
  // schema anew: half of FerretDB's CPU on a list page (overlay internal/handler/sjson/vulnscan_decode.go).
  ...(
    [
      ["string.go", "var o string", "o", false],
      ["bool.go", "var o bool", "o", false],
      ["int32.go", "var o int32", "o", false],
      ["int64.go", "var o int64", "o", true],
      ["double.go", "var f float64", "f", true],
      ["datetime.go", "var o int64", "o", true],
      ["array.go", "var rawMessages []json.RawMessage", "rawMessages", false],
      ["document.go", "var rawMessages map[string]json.RawMessage", "rawMessages", false],
    ] as const
  ).map(([file, decl, name, disallow]) => ({
    file: `internal/handler/sjson/${file}`,
    from:
      "\tr := bytes.NewReader(data)\n\tdec := json.NewDecoder(r)\n" +
      (disallow ? "\tdec.DisallowUnknownFields()\n" : "") +
      `\n\t${decl}\n\tif err := dec.Decode(&${name}); err != nil {\n\t\treturn lazyerrors.Error(err)\n\t}\n\n` +
      "\tif err := checkConsumed(dec, r); err != nil {\n\t\treturn lazyerrors.Error(err)\n\t}\n",
    to: `\t${decl}\n\tif err := vsUnmarshal(data, &${name}); err != nil { // vulnscan: no json.Decoder per value\n\t\treturn lazyerrors.Error(err)\n\t}\n`,
  })),
  {
    file: "internal/handler/sjson/sjson.go",
    from:
      "\tvar v map[string]json.RawMessage\n\tr := bytes.NewReader(data)\n\tdec := json.NewDecoder(r)\n\n\terr := dec.Decode(&v)\n\tif err != nil {\n" +
      "\t\treturn nil, lazyerrors.Error(err)\n\t}\n\n\tif err = checkConsumed(dec, r); err != nil {\n\t\treturn nil, lazyerrors.Error(err)\n\t}\n",
    to: "\tvar v map[string]json.RawMessage\n\tif err := vsUnmarshal(data, &v); err != nil { // vulnscan: no json.Decoder\n\t\treturn nil, lazyerrors.Error(err)\n\t}\n",
  },
  {
    file: "internal/handler/sjson/sjson.go",
    from:
      "\tvar sch schema\n\tr = bytes.NewReader(jsch)\n\tdec = json.NewDecoder(r)\n\tdec.DisallowUnknownFields()\n\n" +
      "\tif err := dec.Decode(&sch); err != nil {\n\t\treturn nil, lazyerrors.Error(err)\n\t}\n\n" +
      "\tif err := checkConsumed(dec, r); err != nil {\n\t\treturn nil, lazyerrors.Error(err)\n\t}\n",
    to: "\tsch, err := vsSchema(jsch) // vulnscan: decoded once per distinct schema\n\tif err != nil {\n\t\treturn nil, lazyerrors.Error(err)\n\t}\n",
  },
];

function overlayFiles(dir = overlayDir, prefix = ""): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? overlayFiles(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`]))
    .sort();
}

/** A digest of the patches and overlay files, in the install's name: an install with other patches is never reused. */
function patchLevel(): string {
  const hash = createHash("sha256").update(JSON.stringify([PATCHES, WIRE_VERSION, WIRE_PATCHES]));
  for (const file of overlayFiles()) hash.update(`\0${file}\0`).update(fs.readFileSync(path.join(overlayDir, file)));
  return `vs-${hash.digest("hex").slice(0, 10)}`;
}

/** Applies the project's patches and overlay files to a writable copy of FerretDB's module source. */
export async function patchFerretdbSource(src: string): Promise<void> {
  for (const patch of PATCHES) await applyPatch(src, patch);
  for (const file of overlayFiles()) {
    const target = path.join(src, file);
    if (fs.existsSync(target)) throw new Error(`FerretDB overlay file would replace upstream's ${file}`);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.copyFile(path.join(overlayDir, file), target);
  }
}

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

/** A writable copy of a Go module's source, from the module proxy (the module cache is read-only). */
async function moduleCopy(go: string, module: string, dest: string, opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<string> {
  const info = JSON.parse(await run(go, ["mod", "download", "-json", module], opts)) as { Dir?: string; Error?: string };
  if (!info.Dir) throw new Error(`go mod download gave no source dir for ${module}: ${info.Error ?? "unknown error"}`);
  await fsp.cp(info.Dir, dest, { recursive: true });
  chmodUserWritable(dest);
  return dest;
}

export async function ensureFerretdb(log: (line: string) => void): Promise<string> {
  const PATCH_LEVEL = patchLevel();
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
    // fetching another toolchain; no cgo (FerretDB needs none).
    const env = { ...process.env, GOFLAGS: "-mod=mod -buildvcs=false", GOTOOLCHAIN: "local", CGO_ENABLED: "0" };
    log(`building FerretDB v${FERRETDB_VERSION} with ${go} into ${home} (first run only, a few minutes)`);
    const started = Date.now();
    // `go install ...@v1.24.0` cannot be used: the proxy refuses the module's version list here,
    // and the published module has an empty build/version/version.txt, so the binary panics at
    // start. Instead: build from a copy of the module source with version.txt filled in.
    const src = await moduleCopy(go, `github.com/FerretDB/FerretDB@v${FERRETDB_VERSION}`, path.join(build, "src"), { cwd: build, env });
    await fsp.writeFile(path.join(src, "build", "version", "version.txt"), `v${FERRETDB_VERSION}\n`);
    await patchFerretdbSource(src);
    const wire = await moduleCopy(go, `github.com/FerretDB/wire@v${WIRE_VERSION}`, path.join(build, "wire"), { cwd: build, env });
    for (const patch of WIRE_PATCHES) await applyPatch(wire, patch);
    await run(go, ["mod", "edit", "-replace", "github.com/FerretDB/FerretDB=./src", "-replace", "github.com/FerretDB/wire=./wire"], { cwd: build, env });
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

export interface FerretdbOptions {
  /** postgres://… of the PostgreSQL FerretDB stores into. */
  postgresqlUrl: string;
  /** Shown in the description, e.g. "PostgreSQL 15.8". */
  backendDescription: string;
}

export async function startFerretdb(ctx: StartContext, opts: FerretdbOptions): Promise<Started> {
  const ferretdb = await ensureFerretdb(ctx.log);
  const stateDir = path.join(ctx.dataDir, "ferretdb-state");
  const outFile = path.join(ctx.dataDir, "ferretdb.log");
  await fsp.mkdir(stateDir, { recursive: true });
  return startMongoServer(ctx, {
    name: "ferretdb",
    label: "FerretDB",
    bin: ferretdb,
    args: (port) => [
      "--handler=postgresql",
      `--postgresql-url=${opts.postgresqlUrl}`,
      `--state-dir=${stateDir}`,
      `--listen-addr=127.0.0.1:${port}`,
      `--test-batch-size=${BATCH_SIZE}`,
      "--telemetry=disable",
      process.env.VULNSCAN_FERRETDB_DEBUG_ADDR ? `--debug-addr=${process.env.VULNSCAN_FERRETDB_DEBUG_ADDR}` : "--debug-addr=-",
      "--log-level=warn",
    ],
    outFile,
    description: `FerretDB v${FERRETDB_VERSION} (${opts.backendDescription})`,
  });
}
