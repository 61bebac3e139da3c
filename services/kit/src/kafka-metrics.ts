import { Counter, Gauge, type Registry } from "prom-client";

/**
 * Kafka consumer metrics on a service's registry, for lag alerts and dashboards (deploy/,
 * charts/vulnscan PrometheusRule). Lag is what kafkajs reports after each fetched batch
 * (high watermark minus the batch's last offset), so it is fresh while a consumer fetches and
 * frozen while it is stuck: the rules pair it with the processing counters.
 */
export class KafkaMetrics {
  private readonly lag: Gauge<"group" | "topic" | "partition">;
  private readonly deadLetters: Counter<"group" | "topic">;

  constructor(registry: Registry) {
    this.lag = new Gauge({
      name: "kafka_consumer_lag",
      help: "Records behind the partition's high watermark after the last fetched batch, by consumer group, topic and partition",
      labelNames: ["group", "topic", "partition"],
      registers: [registry],
    });
    this.deadLetters = new Counter({
      name: "kafka_dead_letters_total",
      help: "Records sent to a dead-letter topic (<topic>.dlq), by consumer group and source topic",
      labelNames: ["group", "topic"],
      registers: [registry],
    });
  }

  /** Partitions whose lag this process reported, by group: forgotten when a rebalance moves them away. */
  private readonly reported = new Map<string, Set<string>>();

  batchDone(group: string, topic: string, partition: number, offsetLag: string): void {
    this.lag.set({ group, topic, partition: String(partition) }, Number(offsetLag));
    const set = this.reported.get(group) ?? new Set<string>();
    this.reported.set(group, set);
    set.add(`${topic}\u0000${partition}`);
  }

  /** After a rebalance: drop the lag of partitions this member no longer owns (another reports them now). */
  assigned(group: string, assignment: Record<string, number[]>): void {
    const set = this.reported.get(group);
    if (!set) return;
    for (const key of set) {
      const [topic = "", partition = ""] = key.split("\u0000");
      if (assignment[topic]?.includes(Number(partition))) continue;
      this.lag.remove({ group, topic, partition });
      set.delete(key);
    }
  }

  deadLettered(group: string, topic: string): void {
    this.deadLetters.inc({ group, topic });
  }
}
