// Local Kafka + MongoDB-protocol servers as plain processes (the machines here run no Docker
// engine; DESIGN.md §4). Installs what is missing into a cache outside git, starts the
// servers on loopback with free ports, waits until they answer and stops only what it started.
//
// Only Node built-ins: this module runs before `npm install` has necessarily settled the
// workspaces, and it must not depend on the services' dependencies.

import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface StackHandle {
  kafkaBrokers: string; // "127.0.0.1:PORT"
  mongoUrl: string; // "mongodb://127.0.0.1:PORT/"
  mongoServer: string; // e.g. "FerretDB v1.24.0 (SQLite)" / "mongod 7.0.x" / "external MONGO_URL"
  kafkaServer: string; // e.g. "Apache Kafka 3.9.0 (KRaft)" / "external KAFKA_BROKERS"
  stop(): Promise<void>; // stops only what this call started, idempotent
}

export interface StackOptions {
  dataDir?: string;
  persistent?: boolean;
  log?: (line: string) => void;
}

const KAFKA_VERSION = '3.9.0';
const FERRETDB_VERSION = '1.24.0';
const KAFKA_READY_TIMEOUT_MS = 90_000;
const MONGO_READY_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 10_000;
const LOCK_STALE_MS = 15 * 60_000;
const PORT_ATTEMPTS = 3;

const here = path.dirname(fileURLToPath(import.meta.url));
const kafkaPom = path.join(here, '..', 'kafka', 'pom.xml');
const ferretdbModuleDir = path.join(here, '..', 'ferretdb');

export function cacheDir(): string {
  const fromEnv = process.env.VULNSCAN_CACHE_DIR;
  return fromEnv ? path.resolve(fromEnv) : path.join(os.homedir(), '.cache', 'vulnscan');
}

function defaultLog(line: string): void {
  process.stderr.write(`[stack] ${line}\n`);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// Process bookkeeping. Every child is its own process group leader, so a signal to -pid reaches
// whatever it forked too (go build runs compilers, a JVM may fork helpers).

interface Managed {
  name: string;
  child: ChildProcess;
  exited: Promise<void>;
  done: boolean;
  stopping: boolean;
  // SIGKILL when the data dir is about to be deleted: a clean shutdown would race the removal.
  exitSignal: NodeJS.Signals;
}

const liveChildren = new Set<Managed>();
const liveStacks = new Set<() => Promise<void>>();
const tempDirs = new Set<string>();
const heldLocks = new Set<string>();
let hooksInstalled = false;
let signalStopInProgress = false;

function signalGroup(pid: number | undefined, sig: NodeJS.Signals | 0): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(-pid, sig);
    return true;
  } catch {
    return false;
  }
}

function startManaged(
  name: string,
  command: string,
  args: string[],
  options: SpawnOptions & { exitSignal: NodeJS.Signals; onUnexpectedExit?: (code: number | null, sig: string | null) => void },
): Managed {
  installHooks();
  const { exitSignal, onUnexpectedExit, ...spawnOptions } = options;
  const child = spawn(command, args, { ...spawnOptions, detached: true });
  let resolveExited!: () => void;
  const exited = new Promise<void>((resolve) => (resolveExited = resolve));
  const managed: Managed = { name, child, exited, done: false, stopping: false, exitSignal };
  const finish = () => {
    if (managed.done) return;
    managed.done = true;
    liveChildren.delete(managed);
    resolveExited();
  };
  child.on('exit', (code, sig) => {
    if (!managed.stopping) onUnexpectedExit?.(code, sig);
    finish();
  });
  child.on('error', finish);
  liveChildren.add(managed);
  return managed;
}

async function terminate(managed: Managed): Promise<void> {
  managed.stopping = true;
  if (managed.done) {
    signalGroup(managed.child.pid, 'SIGKILL'); // stragglers the leader left behind
    return;
  }
  signalGroup(managed.child.pid, 'SIGTERM');
  const graceful = await Promise.race([managed.exited.then(() => true), sleep(STOP_GRACE_MS).then(() => false)]);
  if (!graceful) signalGroup(managed.child.pid, 'SIGKILL');
  await Promise.race([managed.exited, sleep(5_000)]);
  // The group outlives its leader if the leader forked; wait until the kernel reports it empty.
  signalGroup(managed.child.pid, 'SIGKILL');
  for (let i = 0; i < 50 && signalGroup(managed.child.pid, 0); i++) await sleep(100);
}

function killEverythingNow(): void {
  for (const m of liveChildren) {
    m.stopping = true;
    signalGroup(m.child.pid, m.exitSignal);
  }
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
  for (const lock of heldLocks) fs.rmSync(lock, { recursive: true, force: true });
}

function onSignal(sig: NodeJS.Signals): void {
  // An application with its own handler owns shutdown (it calls stop()); the 'exit' hook is
  // then only the backstop. Alone, we stop gracefully and re-raise so the exit status is right.
  if (process.listenerCount(sig) > 1) return;
  if (signalStopInProgress) {
    killEverythingNow();
    process.exit(128 + (os.constants.signals[sig] ?? 0));
  }
  signalStopInProgress = true;
  void Promise.allSettled([...liveStacks].map((stop) => stop())).finally(() => {
    killEverythingNow();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.kill(process.pid, sig);
  });
}

function installHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  // 'exit' handlers must be synchronous: signal the groups and delete temp data, no waiting.
  process.on('exit', killEverythingNow);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

// ---------------------------------------------------------------------------------------------
// Small helpers

interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

async function run(command: string, args: string[], options: RunOptions = {}): Promise<string> {
  const managed = startManaged(path.basename(command), command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    exitSignal: 'SIGKILL',
  });
  const chunks: Buffer[] = [];
  const errChunks: Buffer[] = [];
  managed.child.stdout?.on('data', (c: Buffer) => chunks.push(c));
  managed.child.stderr?.on('data', (c: Buffer) => errChunks.push(c));
  const result = await new Promise<{ code: number | null; signal: string | null; error?: Error }>((resolve) => {
    managed.child.on('error', (error) => resolve({ code: null, signal: null, error }));
    managed.child.on('close', (code, signal) => resolve({ code, signal }));
  });
  const stdout = Buffer.concat(chunks).toString('utf8');
  if (result.error || result.code !== 0) {
    const output = (stdout + Buffer.concat(errChunks).toString('utf8')).trim().split('\n').slice(-40).join('\n');
    const why = result.error ? result.error.message : result.signal ? `signal ${result.signal}` : `exit code ${result.code}`;
    throw new Error(`${command} ${args.join(' ')} failed (${why})${output ? `:\n${output}` : ''}`);
  }
  return stdout;
}

function which(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, command);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not in this PATH entry
    }
  }
  return undefined;
}

// Free ports come from the kernel (bind to port 0). All are held open together so one call
// never returns the same port twice; another process can still take one before the server
// binds it, which the start functions handle by retrying with new ports.
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, () => new Promise<net.Server>((resolve, reject) => {
      const server = net.createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve(server));
    })),
  );
  const ports = servers.map((s) => (s.address() as net.AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  return ports;
}

function tcpConnects(port: number, timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

// One request/response exchange over a fresh connection; `complete` says how many bytes of the
// buffered answer make a whole frame (or undefined while incomplete).
function exchange(port: number, request: Buffer, complete: (buf: Buffer) => number | undefined, timeoutMs = 2_000): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let buf = Buffer.alloc(0);
    const fail = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    socket.setTimeout(timeoutMs, () => fail(new Error('timeout')));
    socket.once('error', fail);
    socket.once('close', () => reject(new Error('connection closed')));
    socket.once('connect', () => socket.write(request));
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      const size = complete(buf);
      if (size !== undefined) {
        socket.destroy();
        resolve(buf.subarray(0, size));
      }
    });
  });
}

function tail(files: string[], lines = 40): string {
  const all: string[] = [];
  for (const file of files) {
    try {
      const text = fs.readFileSync(file, 'utf8').trimEnd();
      if (text) all.push(`--- ${file}`, ...text.split('\n').slice(-lines));
    } catch {
      // not written yet
    }
  }
  return all.join('\n');
}

const PORT_IN_USE = /address already in use|BindException|bind: address/i;

// ---------------------------------------------------------------------------------------------
// Install lock: a directory (mkdir is atomic) holding the owner's host and pid. A lock older than
// 15 minutes, or one whose owner on this host is gone (an interrupted install), is stale.

function lockIsStale(lock: string): boolean {
  try {
    const stat = fs.statSync(lock);
    if (Date.now() - stat.mtimeMs > LOCK_STALE_MS) return true;
    const [host, pid] = fs.readFileSync(path.join(lock, 'owner'), 'utf8').trim().split(' ');
    if (host !== os.hostname() || !pid) return false;
    try {
      process.kill(Number(pid), 0);
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ESRCH';
    }
  } catch {
    return false; // gone already, or owner file not written yet: wait
  }
}

async function withLock<T>(name: string, log: (line: string) => void, fn: () => Promise<T>): Promise<T> {
  const locks = path.join(cacheDir(), 'locks');
  await fsp.mkdir(locks, { recursive: true });
  const lock = path.join(locks, `${name}.lock`);
  let announced = false;
  for (;;) {
    try {
      await fsp.mkdir(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (lockIsStale(lock)) {
      log(`removing stale install lock ${lock}`);
      await fsp.rm(lock, { recursive: true, force: true });
      continue;
    }
    if (!announced) {
      log(`waiting for another install of ${name} (lock ${lock})`);
      announced = true;
    }
    await sleep(1_000);
  }
  heldLocks.add(lock);
  installHooks();
  await fsp.writeFile(path.join(lock, 'owner'), `${os.hostname()} ${process.pid}\n`);
  // Keeps a slow but live install (a cold Go build) from being judged stale by a waiter.
  const heartbeat = setInterval(() => {
    const now = new Date();
    fs.utimes(lock, now, now, () => undefined);
  }, 60_000);
  heartbeat.unref();
  try {
    return await fn();
  } finally {
    clearInterval(heartbeat);
    heldLocks.delete(lock);
    await fsp.rm(lock, { recursive: true, force: true });
  }
}

// Prints a line now and then so a long silent step (Maven -q, go build) does not look hung.
async function withProgress<T>(log: (line: string) => void, what: string, fn: () => Promise<T>): Promise<T> {
  const started = Date.now();
  const timer = setInterval(() => log(`${what}: still working (${Math.round((Date.now() - started) / 1000)} s)`), 30_000);
  timer.unref();
  try {
    return await fn();
  } finally {
    clearInterval(timer);
  }
}

async function removeLeftovers(prefix: string): Promise<void> {
  const dir = path.dirname(prefix);
  const base = path.basename(prefix);
  for (const entry of await fsp.readdir(dir).catch(() => [] as string[])) {
    if (entry.startsWith(base)) await fsp.rm(path.join(dir, entry), { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Installs. Each one builds into a temp dir and renames it into place when complete, so the
// presence of the final path means a finished install and an interrupted one is simply redone.

async function ensureKafka(log: (line: string) => void): Promise<string> {
  const home = path.join(cacheDir(), `kafka-${KAFKA_VERSION}`);
  const libs = path.join(home, 'libs');
  const marker = path.join(libs, `kafka_2.13-${KAFKA_VERSION}.jar`);
  if (fs.existsSync(marker)) return libs;
  return withLock(`kafka-${KAFKA_VERSION}`, log, async () => {
    if (fs.existsSync(marker)) return libs;
    const mvn = which('mvn');
    if (!mvn) throw new Error('Kafka is installed with Maven, but `mvn` is not on PATH (or set KAFKA_BROKERS to an external broker)');
    if (!which('java')) throw new Error('Kafka needs Java 17, but `java` is not on PATH (or set KAFKA_BROKERS to an external broker)');
    await removeLeftovers(`${home}.tmp-`);
    const tmp = `${home}.tmp-${process.pid}`;
    await fsp.mkdir(tmp, { recursive: true });
    // A copy of the pom, so Maven writes nothing into the git work tree.
    await fsp.copyFile(kafkaPom, path.join(tmp, 'pom.xml'));
    log(`installing Apache Kafka ${KAFKA_VERSION} jars from Maven Central into ${home} (first run only)`);
    const started = Date.now();
    await withProgress(log, 'maven', () =>
      run(mvn, ['-q', '-B', '-f', path.join(tmp, 'pom.xml'), 'dependency:copy-dependencies', `-DoutputDirectory=${path.join(tmp, 'libs')}`, '-DincludeScope=runtime'], { cwd: tmp }),
    );
    if (!fs.existsSync(path.join(tmp, 'libs', path.basename(marker)))) throw new Error(`Maven finished but ${path.basename(marker)} is missing in ${tmp}/libs`);
    const jars = (await fsp.readdir(path.join(tmp, 'libs'))).filter((f) => f.endsWith('.jar')).length;
    await fsp.rm(home, { recursive: true, force: true });
    await fsp.rename(tmp, home);
    log(`Kafka ${KAFKA_VERSION}: ${jars} jars installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return libs;
  });
}

function chmodUserWritable(target: string): void {
  const stat = fs.lstatSync(target);
  if (stat.isSymbolicLink()) return;
  fs.chmodSync(target, stat.mode | 0o200);
  if (stat.isDirectory()) for (const entry of fs.readdirSync(target)) chmodUserWritable(path.join(target, entry));
}

async function ensureFerretdb(log: (line: string) => void): Promise<string> {
  const home = path.join(cacheDir(), `ferretdb-${FERRETDB_VERSION}`);
  const bin = path.join(home, 'ferretdb');
  if (fs.existsSync(bin)) return bin;
  return withLock(`ferretdb-${FERRETDB_VERSION}`, log, async () => {
    if (fs.existsSync(bin)) return bin;
    const go = which('go');
    if (!go) throw new Error('no `mongod` on PATH and FerretDB needs the Go toolchain, but `go` is not on PATH (or set MONGO_URL)');
    await removeLeftovers(`${home}.tmp-`);
    const buildRoot = path.join(cacheDir(), 'build');
    await removeLeftovers(path.join(buildRoot, `ferretdb-${FERRETDB_VERSION}-`));
    const build = path.join(buildRoot, `ferretdb-${FERRETDB_VERSION}-${process.pid}`);
    const tmp = `${home}.tmp-${process.pid}`;
    await fsp.mkdir(build, { recursive: true });
    await fsp.mkdir(tmp, { recursive: true });
    for (const file of ['go.mod', 'go.sum', 'tools.go']) await fsp.copyFile(path.join(ferretdbModuleDir, file), path.join(build, file));
    // -mod=mod lets go fill in go.sum lines the toolchain wants; GOTOOLCHAIN=local stops go from
    // fetching another toolchain; no cgo, because FerretDB's SQLite is pure Go (modernc).
    const env = { ...process.env, GOFLAGS: '-mod=mod -buildvcs=false', GOTOOLCHAIN: 'local', CGO_ENABLED: '0' };
    log(`building FerretDB v${FERRETDB_VERSION} with ${go} into ${home} (first run only, a few minutes)`);
    const started = Date.now();
    // `go install ...@v1.24.0` cannot be used: the proxy refuses the module's version list here,
    // and the published module has an empty build/version/version.txt, so the binary panics at
    // start. Instead: build from a copy of the module source with version.txt filled in.
    const info = JSON.parse(await run(go, ['mod', 'download', '-json', `github.com/FerretDB/FerretDB@v${FERRETDB_VERSION}`], { cwd: build, env })) as { Dir?: string; Error?: string };
    if (!info.Dir) throw new Error(`go mod download gave no source dir for FerretDB: ${info.Error ?? 'unknown error'}`);
    const src = path.join(build, 'src');
    await fsp.cp(info.Dir, src, { recursive: true });
    chmodUserWritable(src); // the module cache is read-only
    await fsp.writeFile(path.join(src, 'build', 'version', 'version.txt'), `v${FERRETDB_VERSION}\n`);
    await run(go, ['mod', 'edit', '-replace', 'github.com/FerretDB/FerretDB=./src'], { cwd: build, env });
    await withProgress(log, 'go build', () =>
      run(go, ['build', '-trimpath', '-o', path.join(tmp, 'ferretdb'), 'github.com/FerretDB/FerretDB/cmd/ferretdb'], { cwd: build, env }),
    );
    const version = await run(path.join(tmp, 'ferretdb'), ['--version']);
    if (!version.includes(`v${FERRETDB_VERSION}`)) throw new Error(`built FerretDB reports an unexpected version:\n${version}`);
    await fsp.rm(home, { recursive: true, force: true });
    await fsp.rename(tmp, home);
    await fsp.rm(build, { recursive: true, force: true });
    await fsp.rmdir(buildRoot).catch(() => undefined); // only if empty
    log(`FerretDB v${FERRETDB_VERSION} built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return bin;
  });
}

/** Installs what startStack would need (nothing for external servers or a mongod on PATH). */
export async function installStack(opts: { log?: (line: string) => void } = {}): Promise<{ kafka: string; mongo: string }> {
  const log = opts.log ?? defaultLog;
  const [kafka, mongo] = await Promise.all([
    process.env.KAFKA_BROKERS ? Promise.resolve('external KAFKA_BROKERS: nothing to install') : ensureKafka(log).then((libs) => `Apache Kafka ${KAFKA_VERSION} in ${path.dirname(libs)}`),
    process.env.MONGO_URL
      ? Promise.resolve('external MONGO_URL: nothing to install')
      : which('mongod')
        ? Promise.resolve(`mongod on PATH (${which('mongod')}): nothing to install`)
        : ensureFerretdb(log).then((bin) => `FerretDB v${FERRETDB_VERSION} at ${bin}`),
  ]);
  return { kafka, mongo };
}

// ---------------------------------------------------------------------------------------------
// Readiness probes speaking the servers' own protocols, so "ready" means "answers requests",
// not merely "accepts TCP".

// Kafka Metadata v1 for no topics. The broker lists itself only once it is registered and
// unfenced, which is when producers and consumers can use it.
async function kafkaBrokerCount(port: number): Promise<number> {
  const clientId = Buffer.from('vulnscan-stack');
  const body = Buffer.alloc(2 + 2 + 4 + 2 + clientId.length + 4);
  let o = body.writeInt16BE(3, 0); // api key Metadata
  o = body.writeInt16BE(1, o); // version 1
  o = body.writeInt32BE(1, o); // correlation id
  o = body.writeInt16BE(clientId.length, o);
  o += clientId.copy(body, o);
  body.writeInt32BE(0, o); // empty topic list (null would mean all topics)
  const size = Buffer.alloc(4);
  size.writeInt32BE(body.length);
  const response = await exchange(port, Buffer.concat([size, body]), (buf) => (buf.length >= 4 && buf.length >= 4 + buf.readInt32BE(0) ? 4 + buf.readInt32BE(0) : undefined));
  if (response.length < 12 || response.readInt32BE(4) !== 1) throw new Error('unexpected Kafka response');
  return response.readInt32BE(8);
}

function bsonOkIsOne(doc: Buffer): boolean {
  let o = 4;
  while (o < doc.length - 1) {
    const type = doc[o++]!;
    const end = doc.indexOf(0, o);
    if (end < 0) return false;
    const name = doc.toString('utf8', o, end);
    o = end + 1;
    let value: number | undefined;
    let size: number;
    switch (type) {
      case 0x01: value = doc.readDoubleLE(o); size = 8; break;
      case 0x10: value = doc.readInt32LE(o); size = 4; break;
      case 0x12: value = Number(doc.readBigInt64LE(o)); size = 8; break;
      case 0x08: value = doc[o]; size = 1; break;
      case 0x02: case 0x0d: case 0x0e: size = 4 + doc.readInt32LE(o); break;
      case 0x03: case 0x04: size = doc.readInt32LE(o); break;
      case 0x05: size = 5 + doc.readInt32LE(o); break;
      case 0x07: size = 12; break;
      case 0x09: case 0x11: size = 8; break;
      case 0x13: size = 16; break;
      case 0x06: case 0x0a: case 0x7f: case 0xff: size = 0; break;
      default: return false; // a type a ping reply never carries
    }
    if (name === 'ok') return value === 1;
    o += size;
  }
  return false;
}

// OP_MSG {ping: 1, $db: "admin"}: understood by mongod 3.6+ and FerretDB, and answered only once
// the server can run commands (FerretDB opens its SQLite backend lazily).
async function mongoPing(port: number): Promise<boolean> {
  const elements = Buffer.concat([
    Buffer.from([0x10]), Buffer.from('ping\0'), Buffer.from([1, 0, 0, 0]),
    Buffer.from([0x02]), Buffer.from('$db\0'), Buffer.from([6, 0, 0, 0]), Buffer.from('admin\0'),
  ]);
  const doc = Buffer.alloc(4 + elements.length + 1);
  doc.writeInt32LE(doc.length, 0);
  elements.copy(doc, 4);
  const header = Buffer.alloc(16 + 4 + 1);
  header.writeInt32LE(header.length + doc.length, 0);
  header.writeInt32LE(1, 4); // request id
  header.writeInt32LE(0, 8);
  header.writeInt32LE(2013, 12); // OP_MSG
  header.writeUInt32LE(0, 16); // flags
  header[20] = 0; // section kind 0: body
  const reply = await exchange(port, Buffer.concat([header, doc]), (buf) => (buf.length >= 4 && buf.length >= buf.readInt32LE(0) ? buf.readInt32LE(0) : undefined));
  if (reply.length < 26 || reply.readInt32LE(12) !== 2013 || reply[20] !== 0) return false;
  return bsonOkIsOne(reply.subarray(21));
}

// ---------------------------------------------------------------------------------------------
// Servers

interface Started {
  address: string;
  description: string;
  managed: Managed;
}

interface StartContext {
  dataDir: string;
  tempData: boolean;
  persistent: boolean;
  log: (line: string) => void;
  isStopped: () => boolean;
  track: (managed: Managed) => void;
}

function spawnServer(ctx: StartContext, name: string, command: string, args: string[], outFile: string): Managed {
  if (ctx.isStopped()) throw new Error('stack was stopped while starting');
  const out = fs.openSync(outFile, 'a');
  try {
    const managed = startManaged(name, command, args, {
      cwd: ctx.dataDir, // a JVM crash writes hs_err files into its working directory
      stdio: ['ignore', out, out],
      exitSignal: ctx.tempData ? 'SIGKILL' : 'SIGTERM',
      onUnexpectedExit: (code, sig) => ctx.log(`${name} exited unexpectedly (${sig ?? `code ${code}`}); see ${outFile}`),
    });
    ctx.track(managed);
    return managed;
  } finally {
    fs.closeSync(out);
  }
}

async function waitReady(
  ctx: StartContext,
  managed: Managed,
  name: string,
  timeoutMs: number,
  logFiles: string[],
  probe: () => Promise<boolean>,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (managed.done) {
      const logs = tail(logFiles);
      const error = new Error(`${name} exited during start-up (code ${managed.child.exitCode ?? managed.child.signalCode})\n${logs}`);
      (error as Error & { portInUse?: boolean }).portInUse = PORT_IN_USE.test(logs);
      throw error;
    }
    if (ctx.isStopped()) throw new Error('stack was stopped while starting');
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${name} did not become ready within ${timeoutMs / 1000} s\n${tail(logFiles)}`);
    await sleep(250);
  }
}

async function withPortRetry(ctx: StartContext, name: string, attempt: () => Promise<Started>): Promise<Started> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (i >= PORT_ATTEMPTS || !(error as { portInUse?: boolean }).portInUse) throw error;
      ctx.log(`${name}: a chosen port was taken by another process, retrying with new ports`);
    }
  }
}

// Kafka's cluster ids are 16 random bytes in URL-safe base64 without padding and never begin
// with '-' (see org.apache.kafka.common.Uuid). Generating one here spares a JVM start.
function kafkaClusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-') && id !== 'AAAAAAAAAAAAAAAAAAAAAA' && id !== 'AAAAAAAAAAAAAAAAAAAAAQ') return id;
  }
}

async function startKafka(ctx: StartContext): Promise<Started> {
  const libs = await ensureKafka(ctx.log);
  const classpath = path.join(libs, '*'); // expanded by java itself
  const logDir = path.join(ctx.dataDir, 'kafka');
  const props = path.join(ctx.dataDir, 'kafka-server.properties');
  const log4j = path.join(ctx.dataDir, 'kafka-log4j.properties');
  const logFile = path.join(ctx.dataDir, 'kafka.log');
  const outFile = path.join(ctx.dataDir, 'kafka.out');
  await fsp.writeFile(
    log4j,
    [
      'log4j.rootLogger=WARN, file',
      'log4j.appender.file=org.apache.log4j.FileAppender',
      `log4j.appender.file.File=${logFile}`,
      'log4j.appender.file.layout=org.apache.log4j.PatternLayout',
      'log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n',
      // The one INFO line worth keeping: it tells a reader of kafka.log when the broker was up.
      'log4j.logger.kafka.server.KafkaRaftServer=INFO',
      '',
    ].join('\n'),
  );
  const log4jFlag = `-Dlog4j.configuration=file:${log4j}`;

  return withPortRetry(ctx, 'kafka', async () => {
    const [port, controllerPort] = (await freePorts(2)) as [number, number];
    await fsp.writeFile(
      props,
      [
        'process.roles=broker,controller',
        'node.id=1',
        `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
        `listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
        `advertised.listeners=PLAINTEXT://127.0.0.1:${port}`,
        'controller.listener.names=CONTROLLER',
        'inter.broker.listener.name=PLAINTEXT',
        'listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
        `log.dirs=${logDir}`,
        'num.partitions=3',
        'offsets.topic.replication.factor=1',
        // The defaults (50 partitions each) make the first consumer group or transaction of a
        // test run wait seconds for partitions a single-node stack never needs.
        'offsets.topic.num.partitions=5',
        'transaction.state.log.num.partitions=5',
        'transaction.state.log.replication.factor=1',
        'transaction.state.log.min.isr=1',
        'group.initial.rebalance.delay.ms=0',
        'auto.create.topics.enable=true',
        '',
      ].join('\n'),
    );
    if (!(ctx.persistent && fs.existsSync(path.join(logDir, 'meta.properties')))) {
      await run('java', ['-cp', classpath, log4jFlag, 'kafka.tools.StorageTool', 'format', '-t', kafkaClusterId(), '-c', props], { cwd: ctx.dataDir });
    }
    const managed = spawnServer(
      ctx,
      'kafka',
      'java',
      ['-Xms256m', '-Xmx768m', '-XX:+UseG1GC', '-Djava.awt.headless=true', log4jFlag, '-cp', classpath, 'kafka.Kafka', props],
      outFile,
    );
    try {
      await waitReady(ctx, managed, 'Kafka', KAFKA_READY_TIMEOUT_MS, [logFile, outFile], async () => (await kafkaBrokerCount(port)) > 0);
    } catch (error) {
      await terminate(managed);
      throw error;
    }
    return { address: `127.0.0.1:${port}`, description: `Apache Kafka ${KAFKA_VERSION} (KRaft)`, managed };
  });
}

async function mongodVersion(mongod: string): Promise<string> {
  const out = await run(mongod, ['--version']).catch(() => '');
  return /db version v?(\S+)/.exec(out)?.[1] ?? 'unknown version';
}

async function startMongo(ctx: StartContext): Promise<Started> {
  const mongod = which('mongod');
  if (mongod) {
    const version = await mongodVersion(mongod);
    const dbPath = path.join(ctx.dataDir, 'mongod');
    const outFile = path.join(ctx.dataDir, 'mongod.log');
    await fsp.mkdir(dbPath, { recursive: true });
    return withPortRetry(ctx, 'mongod', async () => {
      const [port] = (await freePorts(1)) as [number];
      // No unix socket: loopback TCP only, and no stale /tmp/mongodb-PORT.sock after a kill.
      const managed = spawnServer(ctx, 'mongod', mongod, ['--bind_ip', '127.0.0.1', '--port', String(port), '--dbpath', dbPath, '--quiet', '--nounixsocket'], outFile);
      try {
        await waitReady(ctx, managed, 'mongod', MONGO_READY_TIMEOUT_MS, [outFile], () => mongoPing(port));
      } catch (error) {
        await terminate(managed);
        throw error;
      }
      return { address: `mongodb://127.0.0.1:${port}/`, description: `mongod ${version}`, managed };
    });
  }

  const ferretdb = await ensureFerretdb(ctx.log);
  const sqliteDir = path.join(ctx.dataDir, 'ferretdb');
  const stateDir = path.join(ctx.dataDir, 'ferretdb-state');
  const outFile = path.join(ctx.dataDir, 'ferretdb.log');
  await fsp.mkdir(sqliteDir, { recursive: true });
  await fsp.mkdir(stateDir, { recursive: true });
  return withPortRetry(ctx, 'ferretdb', async () => {
    const [port] = (await freePorts(1)) as [number];
    const managed = spawnServer(
      ctx,
      'ferretdb',
      ferretdb,
      [
        '--handler=sqlite',
        `--sqlite-url=file:${sqliteDir}/`,
        `--state-dir=${stateDir}`,
        `--listen-addr=127.0.0.1:${port}`,
        '--telemetry=disable',
        '--debug-addr=-',
        '--log-level=warn',
      ],
      outFile,
    );
    try {
      await waitReady(ctx, managed, 'FerretDB', MONGO_READY_TIMEOUT_MS, [outFile], () => mongoPing(port));
    } catch (error) {
      await terminate(managed);
      throw error;
    }
    return { address: `mongodb://127.0.0.1:${port}/`, description: `FerretDB v${FERRETDB_VERSION} (SQLite)`, managed };
  });
}

// ---------------------------------------------------------------------------------------------

export async function startStack(opts: StackOptions = {}): Promise<StackHandle> {
  const log = opts.log ?? defaultLog;
  const persistent = opts.persistent ?? false;
  const startsSomething = !process.env.KAFKA_BROKERS || !process.env.MONGO_URL;
  let dataDir = '';
  let tempData = false;
  if (!startsSomething) {
    // both external: no data dir to create or clean up
  } else if (opts.dataDir) {
    dataDir = path.resolve(opts.dataDir);
  } else if (persistent) {
    dataDir = path.join(cacheDir(), 'data');
  } else {
    dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'vulnscan-stack-'));
    tempData = true;
    tempDirs.add(dataDir);
  }
  if (dataDir) await fsp.mkdir(dataDir, { recursive: true });
  installHooks();

  const children: Managed[] = [];
  let stopped = false;
  let stopPromise: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopPromise ??= (async () => {
      stopped = true;
      // Kafka (and everything else) must be gone before its data dir is deleted.
      await Promise.all(children.map((m) => terminate(m)));
      if (tempData) {
        await fsp.rm(dataDir, { recursive: true, force: true });
        tempDirs.delete(dataDir);
      }
      liveStacks.delete(stop);
    })();
    return stopPromise;
  };
  liveStacks.add(stop);

  const ctx: StartContext = {
    dataDir,
    tempData,
    persistent,
    log,
    isStopped: () => stopped,
    track: (m) => children.push(m),
  };

  const [kafka, mongo] = await Promise.allSettled([
    process.env.KAFKA_BROKERS ? Promise.resolve(undefined) : startKafka(ctx),
    process.env.MONGO_URL ? Promise.resolve(undefined) : startMongo(ctx),
  ]);
  if (kafka.status === 'rejected' || mongo.status === 'rejected') {
    await stop();
    const reasons = [kafka, mongo].filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => (r.reason instanceof Error ? r.reason.message : String(r.reason)));
    throw new Error(`local stack failed to start:\n${reasons.join('\n\n')}`);
  }

  const handle: StackHandle = {
    kafkaBrokers: kafka.value?.address ?? process.env.KAFKA_BROKERS!,
    mongoUrl: mongo.value?.address ?? process.env.MONGO_URL!,
    kafkaServer: kafka.value?.description ?? 'external KAFKA_BROKERS',
    mongoServer: mongo.value?.description ?? 'external MONGO_URL',
    stop,
  };
  log(`ready: ${handle.kafkaServer} at ${handle.kafkaBrokers}; ${handle.mongoServer} at ${handle.mongoUrl}${dataDir ? `; data in ${dataDir}${tempData ? ' (removed on stop)' : ''}` : ''}`);
  return handle;
}
