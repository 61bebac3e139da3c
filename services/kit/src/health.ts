import { setTimeout as sleep } from "node:timers/promises";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import { Health, HealthCheckResponse_ServingStatus as ServingStatus, HealthCheckResponseSchema } from "@vulnscan/proto/grpc/health/v1/health_pb.js";
import type { Readiness } from "./readiness.js";

/**
 * grpc.health.v1 backed by the same readiness as /readyz, so Kubernetes' gRPC probe,
 * grpc_health_probe and the admin port never disagree.
 */
export function healthRoutes(readiness: Readiness, serviceNames: string[]) {
  const known = new Set(["", ...serviceNames]);
  const statusOf = async (service: string) => {
    if (!known.has(service)) throw new ConnectError(`unknown service ${service}`, Code.NotFound);
    const { ready } = await readiness.report();
    return ready ? ServingStatus.SERVING : ServingStatus.NOT_SERVING;
  };
  return (router: ConnectRouter) =>
    router.service(Health, {
      async check(req) {
        return create(HealthCheckResponseSchema, { status: await statusOf(req.service) });
      },
      async *watch(req, ctx) {
        let last: ServingStatus | undefined;
        while (!ctx.signal.aborted) {
          const status = known.has(req.service) ? await statusOf(req.service) : ServingStatus.SERVICE_UNKNOWN;
          if (status !== last) {
            last = status;
            yield create(HealthCheckResponseSchema, { status });
          }
          await sleep(1000);
        }
      },
    });
}
