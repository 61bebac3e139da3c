// Readiness of a MongoDB-protocol server, asked through the driver the services use: "ready"
// means "answers commands" (FerretDB opens its backend lazily, so an open port is not enough).
import { MongoClient } from "mongodb";
import { freePorts, terminate } from "./process.ts";
import { spawnServer, waitReady, withPortRetry, type StartContext, type Started } from "./servers.ts";

export async function mongoPing(port: number): Promise<boolean> {
  const client = new MongoClient(`mongodb://127.0.0.1:${port}/?directConnection=true`, {
    serverSelectionTimeoutMS: 2_000,
    connectTimeoutMS: 2_000,
  });
  try {
    const reply = await client.db("admin").command({ ping: 1 });
    return reply.ok === 1;
  } finally {
    await client.close().catch(() => undefined);
  }
}

const MONGO_READY_TIMEOUT_MS = 60_000;

export interface MongoServerSpec {
  /** Process name in the stack's logs and state, e.g. "mongod". */
  name: string;
  /** Name in readiness messages, e.g. "FerretDB". */
  label: string;
  bin: string;
  args: (port: number) => string[];
  outFile: string;
  description: string;
}

/**
 * Starts a MongoDB-protocol server on a free loopback port and waits until it answers a ping;
 * a port taken between choosing and binding it is retried with a new one.
 */
export function startMongoServer(ctx: StartContext, spec: MongoServerSpec): Promise<Started> {
  return withPortRetry(ctx, spec.name, async () => {
    const [port] = (await freePorts(1)) as [number];
    const managed = spawnServer(ctx, spec.name, spec.bin, spec.args(port), spec.outFile);
    try {
      await waitReady(ctx, managed, spec.label, MONGO_READY_TIMEOUT_MS, [spec.outFile], () => mongoPing(port));
    } catch (error) {
      await terminate(managed);
      throw error;
    }
    return { address: `mongodb://127.0.0.1:${port}/`, description: spec.description, managed };
  });
}
