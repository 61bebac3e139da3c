import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { Health, HealthCheckResponseSchema } from "@vulnscan/proto/grpc/health/v1/health_pb.js";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { errorInfoOf, errorInterceptor, notFound, toConnectError, validationError } from "./errors.js";

const silent = pino({ level: "silent" });

/** A Health service whose Check throws whatever the test hands it, behind the error interceptor. */
function clientThrowing(err: unknown) {
  const transport = createRouterTransport(
    ({ service }) => {
      service(Health, {
        check() {
          throw err;
        },
        async *watch() {
          yield create(HealthCheckResponseSchema, {});
        },
      });
    },
    { router: { interceptors: [errorInterceptor(silent)] } },
  );
  return createClient(Health, transport);
}

describe("domain errors over RPC", () => {
  it("carry error code and field to the caller", async () => {
    const err = await clientThrowing(validationError("target", "target must be a domain, IP or CIDR"))
      .check({})
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectError);
    const ce = err as ConnectError;
    expect(ce.code).toBe(Code.InvalidArgument);
    expect(ce.rawMessage).toBe("target must be a domain, IP or CIDR");
    expect(errorInfoOf(ce)).toEqual({ errorCode: "VALIDATION_ERROR", field: "target" });
  });

  it("maps not found to NotFound without a field", async () => {
    const ce = (await clientThrowing(notFound("Scan"))
      .check({})
      .catch((e: unknown) => e)) as ConnectError;
    expect(ce.code).toBe(Code.NotFound);
    expect(errorInfoOf(ce)).toEqual({ errorCode: "NOT_FOUND", field: undefined });
  });

  it("never leaks internals of unexpected errors", async () => {
    const ce = (await clientThrowing(new Error("E11000 secret connection string mongodb://u:p@h"))
      .check({})
      .catch((e: unknown) => e)) as ConnectError;
    expect(ce.code).toBe(Code.Internal);
    expect(ce.rawMessage).toBe("Internal error");
  });

  it("passes ConnectErrors through unchanged", () => {
    const original = new ConnectError("slow", Code.DeadlineExceeded);
    expect(toConnectError(original)).toBe(original);
  });
});
