// Readiness of a MongoDB-protocol server, asked through the driver the services use: "ready"
// means "answers commands" (FerretDB opens its backend lazily, so an open port is not enough).
import { MongoClient } from "mongodb";

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
