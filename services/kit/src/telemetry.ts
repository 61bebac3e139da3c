import {
  context,
  isSpanContextValid,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Context,
  type Span as ApiSpan,
  type SpanOptions,
  type TextMapGetter,
  type TextMapSetter,
  type Tracer,
  type TracerProvider,
} from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
// The propagator's own module, not the package's index: the index is CommonJS, so a bundle
// cannot shake it, and it loaded all of @opentelemetry/core (220 KB of source V8 keeps, plus
// what its modules build) in every process that only needs traceparent headers.
import { W3CTraceContextPropagator } from "@opentelemetry/core/build/src/trace/W3CTraceContextPropagator.js";
import type { Interceptor } from "@connectrpc/connect";
import { randomHex } from "./ids.js";

export interface Telemetry {
  shutdown(): Promise<void>;
}

/**
 * Without an exporter nothing is recorded, but spans still get ids: log lines carry trace ids
 * and calls carry a traceparent (a caller's sampled flag passes on unchanged, as the SDK's
 * parent-based sampler would). This tracer does only that, so a process without an OTLP
 * endpoint never loads the SDK and its exporter (about a megabyte of modules held in every
 * process: docs/decisions.md, "Compiled deployables").
 */
class IdOnlyTracer implements Tracer {
  startSpan(_name: string, options?: SpanOptions, ctx: Context = context.active()): ApiSpan {
    const parent = options?.root ? undefined : trace.getSpanContext(ctx);
    const inherit = parent !== undefined && isSpanContextValid(parent);
    return trace.wrapSpanContext({
      traceId: inherit ? parent.traceId : randomHex(16),
      spanId: randomHex(8),
      traceFlags: inherit ? parent.traceFlags : TraceFlags.NONE,
    });
  }

  startActiveSpan<F extends (span: ApiSpan) => unknown>(name: string, ...rest: [F] | [SpanOptions, F] | [SpanOptions, Context, F]): ReturnType<F> {
    const fn = rest.at(-1) as F;
    const options = rest.length > 1 ? (rest[0] as SpanOptions) : undefined;
    const ctx = rest.length > 2 ? (rest[1] as Context) : context.active();
    const span = this.startSpan(name, options, ctx);
    return context.with(trace.setSpan(ctx, span), () => fn(span)) as ReturnType<F>;
  }
}

const idOnlyProvider: TracerProvider = { getTracer: () => new IdOnlyTracer() };

/**
 * Registers tracing and W3C propagation. With an OTLP endpoint, the OpenTelemetry SDK (loaded
 * only then) records and exports spans; without one, spans are never recorded (recording spans
 * nobody reads cost about 15% of an RPC's CPU) and only carry ids.
 */
export async function initTelemetry(service: string, otlpEndpoint?: string): Promise<Telemetry> {
  if (otlpEndpoint) {
    const { startExportingTracer } = await import("./telemetry-sdk.js");
    return startExportingTracer(service, otlpEndpoint);
  }
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(idOnlyProvider);
  return {
    shutdown: async () => {
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}

export const tracer = () => trace.getTracer("vulnscan");

const headersGetter: TextMapGetter<Headers> = {
  get: (carrier, key) => carrier.get(key) ?? undefined,
  keys: (carrier) => [...carrier.keys()],
};
const headersSetter: TextMapSetter<Headers> = { set: (carrier, key, value) => carrier.set(key, value) };

/** Writes the active trace context (traceparent, tracestate) into a plain header map. */
export function injectTraceHeaders(carrier: Record<string, string> = {}, ctx: Context = context.active()) {
  propagation.inject(ctx, carrier);
  return carrier;
}

/** Reads a trace context from a plain header map (Kafka record headers, HTTP headers). */
export function extractTraceContext(carrier: Record<string, string | undefined>): Context {
  return propagation.extract(context.active(), carrier, {
    get: (c, k) => c[k] ?? undefined,
    keys: (c) => Object.keys(c),
  });
}

type Span = ReturnType<ReturnType<typeof tracer>["startSpan"]>;

/** Runs fn, records its failure on the span, and always ends the span. */
async function inSpan<T>(span: Span, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    span.recordException(err instanceof Error ? err : new Error(String(err)));
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw err;
  } finally {
    span.end();
  }
}

/** Client side: one span per call, its context carried in the request headers. */
export const tracingClientInterceptor: Interceptor = (next) => (req) =>
  tracer().startActiveSpan(`${req.service.typeName}/${req.method.name}`, { kind: SpanKind.CLIENT, attributes: { "rpc.system": "connect_rpc" } }, (span) => {
    propagation.inject(context.active(), req.header, headersSetter);
    return inSpan(span, () => next(req));
  });

/** Server side: continues the caller's trace from the request headers. */
export const tracingServerInterceptor: Interceptor = (next) => (req) => {
  const parent = propagation.extract(context.active(), req.header, headersGetter);
  return tracer().startActiveSpan(
    `${req.service.typeName}/${req.method.name}`,
    { kind: SpanKind.SERVER, attributes: { "rpc.system": "connect_rpc" } },
    parent,
    (span) => inSpan(span, () => next(req)),
  );
};
