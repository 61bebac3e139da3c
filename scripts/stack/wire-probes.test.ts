import net from "node:net";
import { describe, expect, inject, it } from "vitest";
import { freePort } from "../lib/net.js";
import { kafkaBrokerCount, kafkaCoordinatorReady, mongoPing } from "./wire-probes.ts";

// Against the integration run's real servers (the global setup's stack): the probes must read
// what a real MongoDB-protocol server and a real Kafka broker answer, not what we think they do.
function loopbackPort(address: string): number | undefined {
  const match = /^(?:mongodb:\/\/)?(?:127\.0\.0\.1|localhost):(\d+)/.exec(address);
  return match ? Number(match[1]) : undefined;
}

const mongoPort = loopbackPort(inject("mongoUrl"));
const kafkaPort = loopbackPort(inject("kafkaBrokers"));

describe("wire-protocol readiness probes", () => {
  it.skipIf(mongoPort === undefined)(`mongoPing: ok from the stack's ${inject("mongoServer")}`, async () => {
    expect(await mongoPing(mongoPort!)).toBe(true);
  });

  it.skipIf(kafkaPort === undefined)("kafkaBrokerCount: the stack's single broker", async () => {
    expect(await kafkaBrokerCount(kafkaPort!)).toBe(1);
  });

  it.skipIf(kafkaPort === undefined)("kafkaCoordinatorReady: the stack's broker coordinates consumer groups", async () => {
    expect(await kafkaCoordinatorReady(kafkaPort!, "wire-probes-test")).toBe(true);
  });

  it("rejects when nothing listens, and when the server speaks another protocol", async () => {
    const closed = await freePort();
    await expect(mongoPing(closed)).rejects.toThrow();
    await expect(kafkaBrokerCount(closed)).rejects.toThrow();
    await expect(kafkaCoordinatorReady(closed)).rejects.toThrow();
    // A server that accepts and closes without a reply (as a half-started process may).
    const server = net.createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as net.AddressInfo).port;
    try {
      await expect(mongoPing(port)).rejects.toThrow(/closed the connection/);
      await expect(kafkaBrokerCount(port)).rejects.toThrow(/closed the connection/);
      await expect(kafkaCoordinatorReady(port)).rejects.toThrow(/closed the connection/);
    } finally {
      server.close();
    }
  });
});
