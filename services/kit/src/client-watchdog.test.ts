import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { watchClient } from "./client-watchdog.js";

const quiet = { warn: () => undefined, error: () => undefined };
const until = async (cond: () => boolean, ms = 2000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("condition not met");
    await sleep(5);
  }
};

describe("watchClient", () => {
  it("declares the client stuck once it has failed long enough while a fresh client succeeds", async () => {
    const stuck: string[] = [];
    let clientUp = true;
    const job = watchClient({
      name: "mongo",
      ping: async () => {
        if (!clientUp) throw new Error("connection 2 to 127.0.0.1:1 closed");
      },
      pingFresh: async () => undefined,
      onStuck: (why) => stuck.push(why),
      logger: quiet,
      intervalMs: 5,
      failingForMs: 60,
    });
    await sleep(40);
    expect(stuck).toEqual([]);
    clientUp = false;
    await until(() => stuck.length > 0);
    await sleep(40);
    expect(stuck).toHaveLength(1); // said once
    expect(stuck[0]).toMatch(/mongo client has failed .*connection 2 to 127\.0\.0\.1:1 closed.*new connection succeeds/);
    await job.stop();
  });

  it("only waits while the server itself is down (the fresh client fails too), and forgets a failure that cleared", async () => {
    const stuck: string[] = [];
    let pings = 0;
    const job = watchClient({
      name: "mongo",
      ping: async () => {
        pings++;
        if (pings % 20 !== 0) throw new Error("ECONNREFUSED");
      },
      pingFresh: async () => {
        throw new Error("ECONNREFUSED");
      },
      onStuck: (why) => stuck.push(why),
      logger: quiet,
      intervalMs: 2,
      failingForMs: 20,
    });
    await until(() => pings > 100);
    await job.stop();
    expect(stuck).toEqual([]);
  });
});
