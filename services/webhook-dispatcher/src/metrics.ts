import { counter, type Metrics } from "@vulnscan/kit";
import { Gauge, Histogram } from "prom-client";
import type { DispatchObserver } from "./domain/dispatch.js";
import type { DeliveryStore } from "./domain/ports.js";

/**
 * webhook_deliveries_total{outcome}: attempts by outcome (success, retry, failed, deferred);
 * webhook_attempt_duration_seconds{outcome}: how long receivers took; webhook_queue_depth and
 * webhook_oldest_pending_age_seconds: the deliveries with an attempt to come, read when scraped;
 * webhook_disabled_total: webhooks the dispatcher turned off.
 */
export function dispatchMetrics(metrics: Metrics, deliveries: Pick<DeliveryStore, "stats">, log: (msg: string, fields: object) => void): DispatchObserver {
  const registry = metrics.registry;
  const outcomes = counter(registry, "webhook_deliveries_total", "Delivery attempts by outcome", ["outcome"]);
  const disabled = counter(registry, "webhook_disabled_total", "Webhooks disabled because their deliveries kept failing");
  const duration = new Histogram({
    name: "webhook_attempt_duration_seconds",
    help: "Duration of delivery attempts (receiver response time), by outcome",
    labelNames: ["outcome"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  let stats: Promise<{ depth: number; oldestDueAt?: Date }> | undefined;
  // Both gauges read one stats call per scrape.
  const read = () => (stats ??= deliveries.stats().finally(() => setTimeout(() => (stats = undefined), 0)));
  new Gauge({
    name: "webhook_queue_depth",
    help: "Deliveries with an attempt scheduled (due now or later)",
    registers: [registry],
    async collect() {
      this.set((await read()).depth);
    },
  });
  new Gauge({
    name: "webhook_oldest_pending_age_seconds",
    help: "How far past due the earliest scheduled attempt is (0 when none is overdue)",
    registers: [registry],
    async collect() {
      const oldest = (await read()).oldestDueAt;
      this.set(oldest ? Math.max(0, (Date.now() - oldest.getTime()) / 1000) : 0);
    },
  });
  return {
    attempted(outcome, d) {
      outcomes.inc({ outcome });
      if (outcome !== "deferred") duration.observe({ outcome }, d.responseTimeMs / 1000);
    },
    disabled(w, reason) {
      disabled.inc();
      log("webhook disabled", { webhook_id: w.id, org_id: w.orgId, reason });
    },
  };
}
