import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { KafkaMetrics } from "./kafka-metrics.js";

async function lagSeries(registry: Registry): Promise<Record<string, number>> {
  const metric = await registry.getSingleMetric("kafka_consumer_lag")?.get();
  return Object.fromEntries((metric?.values ?? []).map((v) => [`${v.labels.group}/${v.labels.topic}/${v.labels.partition}`, v.value]));
}

describe("KafkaMetrics", () => {
  it("reports the lag of each partition after a batch, and forgets partitions a rebalance moved away", async () => {
    const registry = new Registry();
    const m = new KafkaMetrics(registry);
    m.batchDone("scanner", "jobs", 0, "5");
    m.batchDone("scanner", "jobs", 1, "2");
    m.batchDone("scanner", "jobs", 0, "3");
    m.batchDone("other", "jobs", 1, "9");
    expect(await lagSeries(registry)).toEqual({ "scanner/jobs/0": 3, "scanner/jobs/1": 2, "other/jobs/1": 9 });
    m.assigned("scanner", { jobs: [1] });
    expect(await lagSeries(registry)).toEqual({ "scanner/jobs/1": 2, "other/jobs/1": 9 });
  });

  it("counts dead-lettered records by group and source topic", async () => {
    const registry = new Registry();
    const m = new KafkaMetrics(registry);
    m.deadLettered("grc", "vulnscan.finding.events");
    m.deadLettered("grc", "vulnscan.finding.events");
    expect(await registry.getSingleMetricAsString("kafka_dead_letters_total")).toContain(
      'kafka_dead_letters_total{group="grc",topic="vulnscan.finding.events"} 2',
    );
  });
});
