import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { ensureBuilt } from "../../scripts/lib/build.js";
import { startStack } from "../../scripts/stack/index.js";
import { checkRecording } from "./query-coverage.js";

declare module "vitest" {
  export interface ProvidedContext {
    kafkaBrokers: string;
    mongoUrl: string;
    /** "mongodb" where explain() can prove index use; "ferretdb" or "external" otherwise. */
    mongoKind: "mongodb" | "ferretdb" | "external";
    mongoServer: string;
  }
}

/**
 * One real Kafka and one real MongoDB-protocol server for the whole integration run, and the
 * recording of every query shape the services send, checked against their indexes at the end.
 */
export default async function setup(project: TestProject) {
  // The systems the tests start run the compiled deployables (scripts/system.ts): built here
  // when a source is newer than dist/, so one test file run alone tests the code as it is.
  const why = await ensureBuilt();
  if (why) process.stdout.write(`[build] built dist/ (${why})\n`);
  const started = Date.now();
  const stack = await startStack({ log: (line) => process.stdout.write(`[stack] ${line}\n`) });
  process.stdout.write(
    `[stack] ${stack.kafkaServer} at ${stack.kafkaBrokers}; ${stack.mongoServer} at ${stack.mongoUrl}` +
      `${stack.scaleNote ? ` (${stack.scaleNote})` : ""} (${Date.now() - started} ms)\n`,
  );
  // Test files and the services they start inherit these (FERRETDB_POSTGRESQL_URL: the kit's
  // ensureIndexes then adds the indexes FerretDB on PostgreSQL needs).
  Object.assign(process.env, stack.serviceEnv);
  const shapesDir = fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-shapes-"));
  const shapesFile = path.join(shapesDir, "shapes.jsonl");
  process.env.VULNSCAN_QUERY_SHAPES_FILE ??= shapesFile;
  project.provide("kafkaBrokers", stack.kafkaBrokers);
  project.provide("mongoUrl", stack.mongoUrl);
  project.provide("mongoKind", stack.mongoKind);
  project.provide("mongoServer", stack.mongoServer);
  return async () => {
    await stack.stop();
    try {
      for (const line of checkRecording(process.env.VULNSCAN_QUERY_SHAPES_FILE!)) process.stdout.write(`[coverage] ${line}\n`);
    } finally {
      fs.rmSync(shapesDir, { recursive: true, force: true });
    }
  };
}
