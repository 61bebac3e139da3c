import { context, propagation, SpanKind, SpanStatusCode, trace, type Span } from "@opentelemetry/api";
import type { FastifyInstance } from "fastify";
import { Histogram, type Registry } from "prom-client";
import { tracer } from "@vulnscan/kit";

declare module "fastify" {
  interface FastifyRequest {
    span?: Span;
  }
}

/**
 * One server span per request, made the active context for the rest of the request
 * lifecycle (so RPC calls carry its traceparent), and a request-duration histogram.
 */
export function registerObservability(app: FastifyInstance, registry: Registry): void {
  const duration = new Histogram({
    name: "http_server_duration_seconds",
    help: "Duration of HTTP requests served by the gateway",
    labelNames: ["method", "route", "status_code"],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  app.addHook("onRequest", (req, reply, done) => {
    const parent = propagation.extract(context.active(), req.headers);
    const span = tracer().startSpan(`${req.method} ${req.routeOptions.url ?? "unmatched"}`, { kind: SpanKind.SERVER }, parent);
    req.span = span;
    reply.header("x-request-id", req.id);
    // Running the rest of the lifecycle inside the span's context makes it the parent of upstream calls.
    context.with(trace.setSpan(parent, span), done);
  });

  // One child per method, route and status, looked up by a string key: prom-client would
  // otherwise hash the label object on every request.
  const series = new Map<string, ReturnType<typeof duration.labels>>();
  app.addHook("onResponse", (req, reply, done) => {
    const route = req.routeOptions.url ?? "unmatched";
    const key = `${req.method} ${route} ${reply.statusCode}`;
    let child = series.get(key);
    if (!child) {
      child = duration.labels({ method: req.method, route, status_code: String(reply.statusCode) });
      series.set(key, child);
    }
    child.observe(reply.elapsedTime / 1000);
    // One access-log line per request (Fastify's own request logging, two lines, is off).
    req.log.info({ method: req.method, url: req.url, status_code: reply.statusCode, ms: Math.round(reply.elapsedTime) }, "request");
    if (req.span) {
      req.span.setAttribute("http.response.status_code", reply.statusCode);
      if (reply.statusCode >= 500) req.span.setStatus({ code: SpanStatusCode.ERROR });
      req.span.end();
    }
    done();
  });
}
