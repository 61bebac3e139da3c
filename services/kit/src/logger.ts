import { context, trace } from "@opentelemetry/api";
import { pino, stdTimeFunctions, type Logger } from "pino";

export type { Logger };

/** One logger per process; every line carries the active trace and span ids. */
export function createLogger(service: string, level: string): Logger {
  return pino({
    level,
    base: { service },
    timestamp: stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin() {
      const span = trace.getSpan(context.active());
      if (!span) return {};
      const { traceId, spanId } = span.spanContext();
      return { trace_id: traceId, span_id: spanId };
    },
  });
}
