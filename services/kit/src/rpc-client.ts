import type { DescService } from "@bufbuild/protobuf";
import { createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { breakerInterceptor, type BreakerOptions } from "./breaker.js";
import { tracingClientInterceptor } from "./telemetry.js";

/**
 * A gRPC client (HTTP/2) for one upstream: tracing outermost so the span covers breaker
 * rejections too, then the breaker, then the caller's own interceptors.
 */
export function createRpcClient<S extends DescService>(
  service: S,
  baseUrl: string,
  opts: { timeoutMs?: number; breaker?: BreakerOptions | false; interceptors?: Interceptor[] } = {},
): Client<S> {
  const interceptors: Interceptor[] = [tracingClientInterceptor];
  if (opts.breaker !== false) interceptors.push(breakerInterceptor(opts.breaker ?? {}));
  interceptors.push(...(opts.interceptors ?? []));
  const transport = createGrpcTransport({
    baseUrl,
    interceptors,
    defaultTimeoutMs: opts.timeoutMs ?? 10_000,
    pingIntervalMs: 30_000,
  });
  return createClient(service, transport);
}
