import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { collectDefaultMetrics, Counter, Histogram, Registry } from "prom-client";

export interface Metrics {
  registry: Registry;
  rpcDuration: Histogram<"method" | "code">;
}

export function createMetrics(service: string): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  const rpcDuration = new Histogram({
    name: "rpc_server_duration_seconds",
    help: "Duration of RPCs handled by this service, by method and Connect code",
    labelNames: ["method", "code"],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return { registry, rpcDuration };
}

/** A service's own counter on its registry (snake_case name ending in _total, per DESIGN). */
export function counter<L extends string = never>(registry: Registry, name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
  return new Counter({ name, help, labelNames, registers: [registry] });
}

/** Connect code names in snake_case ("ok", "not_found"), as gRPC dashboards expect. */
export function codeLabel(code: Code | undefined): string {
  if (code === undefined) return "ok";
  return Code[code].replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase();
}

export function rpcMetricsInterceptor(metrics: Metrics): Interceptor {
  return (next) => async (req) => {
    const end = metrics.rpcDuration.startTimer({ method: `${req.service.typeName}/${req.method.name}` });
    try {
      const res = await next(req);
      end({ code: "ok" });
      return res;
    } catch (err) {
      end({ code: codeLabel(err instanceof ConnectError ? err.code : Code.Unknown) });
      throw err;
    }
  };
}
