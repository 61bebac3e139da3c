import { Health, HealthCheckResponse_ServingStatus } from "@vulnscan/proto/grpc/health/v1/health_pb.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../scripts/lib/net.js";
import { createRpcClient } from "../src/rpc-client.js";
import { startRpcServer, type RpcServer } from "../src/rpc-server.js";

/*
 * Three replicas of one service on one port of three loopback addresses (127.0.0.1-3), as a
 * headless Service's name resolves to one address per pod. One client, many calls: each
 * replica must get its share, and a replica that leaves the name stops getting calls.
 */
const ADDRESSES = ["127.0.0.1", "127.0.0.2", "127.0.0.3"];
const calls = new Map<string, number>(ADDRESSES.map((a) => [a, 0]));
let servers: RpcServer[] = [];
let port: number;

beforeAll(async () => {
  port = await freePort();
  servers = await Promise.all(
    ADDRESSES.map((host) =>
      startRpcServer({
        host,
        port,
        interceptors: [],
        routes: (router) =>
          router.service(Health, {
            check: () => {
              calls.set(host, (calls.get(host) ?? 0) + 1);
              return { status: HealthCheckResponse_ServingStatus.SERVING };
            },
          }),
      }),
    ),
  );
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close(1000)));
});

describe("createRpcClient on a name with several addresses", () => {
  it("spreads calls evenly over every address, and follows the name when a replica leaves", async () => {
    let current = [...ADDRESSES];
    const client = createRpcClient(Health, `http://replicas.vulnscan.test:${port}`, {
      breaker: false,
      resolve: async () => current,
      refreshMs: 200,
    });
    for (let i = 0; i < 300; i++) await client.check({ service: "" });
    expect([...calls.values()]).toEqual([100, 100, 100]);

    current = ["127.0.0.1", "127.0.0.3"];
    await new Promise((r) => setTimeout(r, 250));
    await client.check({ service: "" }); // starts the background lookup
    await new Promise((r) => setTimeout(r, 50));
    for (const a of ADDRESSES) calls.set(a, 0);
    for (let i = 0; i < 100; i++) await client.check({ service: "" });
    expect(Object.fromEntries(calls)).toEqual({ "127.0.0.1": 50, "127.0.0.2": 0, "127.0.0.3": 50 });
  });

  it("uses an IP address or localhost as given", async () => {
    const direct = createRpcClient(Health, `http://127.0.0.2:${port}`, { breaker: false });
    for (const a of ADDRESSES) calls.set(a, 0);
    await direct.check({ service: "" });
    expect(calls.get("127.0.0.2")).toBe(1);

    const local = createRpcClient(Health, `http://localhost:${port}`, { breaker: false });
    await local.check({ service: "" });
    expect(calls.get("127.0.0.1")).toBe(1);
  });
});
