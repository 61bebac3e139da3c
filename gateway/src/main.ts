import { createLogger, createMetrics, initTelemetry, main, Readiness, startAdminServer } from "@vulnscan/kit";
import { buildApp } from "./app.js";
import { loadGatewayConfig } from "./config.js";
import { createUpstreams } from "./upstreams.js";

await main(async () => {
  const config = loadGatewayConfig();
  const telemetry = initTelemetry("gateway", config.OTEL_EXPORTER_OTLP_ENDPOINT);
  const logger = createLogger("gateway", config.LOG_LEVEL);
  const { registry } = createMetrics("gateway");
  const readiness = new Readiness();
  const app = await buildApp({ config, logger, registry, upstreams: createUpstreams(config) });
  await app.listen({ host: config.HOST, port: config.PORT });
  const admin = await startAdminServer({ host: config.HOST, port: config.ADMIN_PORT, readiness, registry });
  readiness.markStarted();
  return {
    stop: async () => {
      readiness.markStopping();
      await app.close();
      await admin.close();
      await telemetry.shutdown().catch(() => undefined);
    },
  };
});
