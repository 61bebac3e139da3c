// The OpenTelemetry SDK and its OTLP exporter: imported by telemetry.ts only when
// OTEL_EXPORTER_OTLP_ENDPOINT is set, so processes that export nothing never load them.
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";

/** Records every span (or as a caller's traceparent says) and exports batches to the endpoint. */
export function startExportingTracer(service: string, otlpEndpoint: string): { shutdown(): Promise<void> } {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": service }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${otlpEndpoint.replace(/\/$/, "")}/v1/traces` }))],
  });
  provider.register({ propagator: new W3CTraceContextPropagator() });
  return { shutdown: () => provider.shutdown() };
}
