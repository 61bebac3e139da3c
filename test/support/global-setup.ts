import type { TestProject } from "vitest/node";
import { startStack } from "../../scripts/stack/index.js";

declare module "vitest" {
  export interface ProvidedContext {
    kafkaBrokers: string;
    mongoUrl: string;
  }
}

/** One real Kafka and one real MongoDB-protocol server for the whole integration run. */
export default async function setup(project: TestProject) {
  const started = Date.now();
  const stack = await startStack({ log: (line) => process.stdout.write(`[stack] ${line}\n`) });
  process.stdout.write(
    `[stack] ${stack.kafkaServer} at ${stack.kafkaBrokers}; ${stack.mongoServer} at ${stack.mongoUrl} (${Date.now() - started} ms)\n`,
  );
  project.provide("kafkaBrokers", stack.kafkaBrokers);
  project.provide("mongoUrl", stack.mongoUrl);
  return async () => {
    await stack.stop();
  };
}
