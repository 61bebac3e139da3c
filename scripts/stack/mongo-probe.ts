// Starting a MongoDB-protocol server and waiting until it answers commands (wire-probes.ts).
import { freePorts, terminate } from "./process.ts";
import { spawnServer, waitReady, withPortRetry, type StartContext, type Started } from "./servers.ts";
import { mongoPing } from "./wire-probes.ts";

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
