import type { Interceptor } from "@connectrpc/connect";
import { context, createContextKey } from "@opentelemetry/api";

/*
 * What a served call knows of itself while it runs, carried in the active context (the async
 * local storage the tracing already keeps per call): the moment it arrived. A read that began
 * after that moment reflects every write the caller saw answered before it called, so one
 * request can use such a read again instead of making its own (versioned-cache.ts).
 */

const ARRIVED = createContextKey("vulnscan.request.arrived");

/** When (`performance.now()`) the call being served arrived; undefined outside one. */
export function requestArrival(): number | undefined {
  return context.active().getValue(ARRIVED) as number | undefined;
}

/** Server side: records the call's arrival for everything it runs. */
export const requestContextInterceptor: Interceptor = (next) => (req) => context.with(context.active().setValue(ARRIVED, performance.now()), () => next(req));
