import { createLogger, createMetrics, initTelemetry, main, Readiness, startAdminServer } from "@vulnscan/kit";
import { startPeriodic } from "@vulnscan/kit/periodic";
import { composeGateway } from "./compose.js";
import { loadGatewayConfig } from "./config.js";

await main(async () => {
  const config = loadGatewayConfig();
  const telemetry = await initTelemetry("gateway", config.OTEL_EXPORTER_OTLP_ENDPOINT);
  const logger = createLogger("gateway", config.LOG_LEVEL);
  const { registry } = createMetrics("gateway");
  const readiness = new Readiness();
  const gw = await composeGateway(config, { logger, registry });
  // Ready only while the AuthView is current: a replica that cannot vouch for revocations
  // refuses authenticated requests (503), so the load balancer should prefer others.
  readiness.add({
    name: "auth-view",
    check: async () => {
      if (!gw.view.isCurrent()) throw new Error(`auth view not current (${gw.view.staleness()} ms behind)`);
    },
  });
  await gw.app.listen({ host: config.HOST, port: config.PORT });
  const admin = await startAdminServer({ host: config.HOST, port: config.ADMIN_PORT, readiness, registry });
  // A probe that came a moment before the view was loaded would otherwise see "not current" until
  // the next background check, up to a second later.
  void gw.viewReady.then(() => readiness.recheck());

  // Indexes and pruning need the database; the gateway serves meanwhile (rate limiting
  // answers 503 until Mongo does), so they run in the background.
  void gw.indexed.then(() => readiness.markStarted()).catch(() => undefined);
  const prune = startPeriodic({ name: "rate counter prune", intervalMs: 10 * 60_000, run: () => gw.limiter.prune(), logger });

  return {
    stop: async () => {
      readiness.markStopping();
      await prune.stop();
      await gw.stop();
      await admin.close();
      await telemetry.shutdown().catch(() => undefined);
    },
  };
});
