import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { Health, HealthCheckResponseSchema } from "@vulnscan/proto/grpc/health/v1/health_pb.js";
import { describe, expect, it } from "vitest";
import { breakerInterceptor } from "./breaker.js";

function flakyClient(fail: () => ConnectError | undefined) {
  let calls = 0;
  const transport = createRouterTransport(
    ({ service }) => {
      service(Health, {
        check() {
          calls++;
          const err = fail();
          if (err) throw err;
          return create(HealthCheckResponseSchema, { status: 1 });
        },
        async *watch() {},
      });
    },
    { transport: { interceptors: [breakerInterceptor({ volumeThreshold: 3, resetTimeoutMs: 60_000 })] } },
  );
  return { client: createClient(Health, transport), calls: () => calls };
}

describe("breakerInterceptor", () => {
  it("opens after upstream failures and then fails fast with Unavailable", async () => {
    const { client, calls } = flakyClient(() => new ConnectError("boom", Code.Internal));
    for (let i = 0; i < 5; i++) await client.check({}).catch(() => undefined);
    const before = calls();
    const err = (await client.check({}).catch((e: unknown) => e)) as ConnectError;
    expect(err.code).toBe(Code.Unavailable);
    expect(err.rawMessage).toMatch(/circuit open/);
    expect(calls()).toBe(before); // the upstream was not called
  });

  it("ignores caller faults such as NotFound and InvalidArgument", async () => {
    let n = 0;
    const { client, calls } = flakyClient(() => new ConnectError("nope", n++ % 2 ? Code.NotFound : Code.InvalidArgument));
    for (let i = 0; i < 10; i++) await client.check({}).catch(() => undefined);
    expect(calls()).toBe(10); // never opened
  });
});
