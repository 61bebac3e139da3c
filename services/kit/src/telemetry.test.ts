import { trace } from "@opentelemetry/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { extractTraceContext, initTelemetry, injectTraceHeaders, type Telemetry } from "./telemetry.js";

let telemetry: Telemetry;
beforeAll(async () => {
  telemetry = await initTelemetry("telemetry-test");
});
afterAll(() => telemetry.shutdown());

describe("trace context without an exporter", () => {
  it("carries a caller's trace id and sampled flag through a call, with a span id of its own", () => {
    const parent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    const ctx = extractTraceContext({ traceparent: parent });
    const span = trace.getTracer("t").startSpan("call", {}, ctx);
    const headers = injectTraceHeaders({}, trace.setSpan(ctx, span));
    expect(headers.traceparent).toMatch(/^00-0af7651916cd43dd8448eb211c80319c-[0-9a-f]{16}-01$/);
    expect(headers.traceparent).not.toBe(parent);
  });

  it("ignores a malformed traceparent and starts a trace of its own", () => {
    const ctx = extractTraceContext({ traceparent: "00-not-a-trace-01" });
    const span = trace.getTracer("t").startSpan("call", {}, ctx);
    expect(injectTraceHeaders({}, trace.setSpan(ctx, span)).traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
  });
});
