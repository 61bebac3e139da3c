import os from "node:os";
import { randomUUID } from "node:crypto";
import type { Plan } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import { EventEnvelopeSchema, type EventEnvelope } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import type { KafkaBus, Subscription } from "./kafka.js";
import type { Logger } from "./logger.js";
import { Topics } from "./topics.js";

/** What a plan cache offers the follower (PlanClient does). */
export interface PlanSink {
  applyPlan(orgId: string, plan: Plan): void;
  clear(): void;
}

/** The plan an auth.plan_changed envelope carries, with its organization; undefined for any other event. */
export function planChangeOf(event: EventEnvelope): { orgId: string; plan: Plan } | undefined {
  const p = event.payload;
  return p.case === "authPlanChanged" && p.value.plan && event.orgId ? { orgId: event.orgId, plan: p.value.plan } : undefined;
}

/**
 * Keeps a plan cache current from vulnscan.auth.events, so a downgrade limits the next request
 * instead of the next one after the cache's TTL. Each process reads in a consumer group of its
 * own (every replica caches, so every replica must see every change), positioned at the latest
 * offsets when it starts: it commits nothing and the broker forgets it once it stops. Changes
 * published before the start need nothing — the cache was empty then. When the reader stops by
 * itself, the cache is cleared (changes may have been missed) and the reader starts again after
 * `retryMs`; while the broker is away the cache's TTL is what bounds a stale plan.
 */
export function followPlanChanges(opts: {
  kafka: KafkaBus;
  plans: PlanSink;
  logger: Logger;
  /** The consumer group's prefix: the service's name. */
  groupPrefix: string;
  retryMs?: number;
}): { stop(): Promise<void> } {
  const log = opts.logger.child({ component: "plan-events" });
  const retryMs = opts.retryMs ?? 5000;
  let stopped = false;
  let current: Subscription | undefined;
  let timer: NodeJS.Timeout | undefined;

  const start = async (): Promise<void> => {
    if (stopped) return;
    try {
      const startAt = await opts.kafka.latestOffsets(Topics.authEvents);
      current = await opts.kafka.subscribe({
        groupId: `${opts.groupPrefix}-plans-${os.hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`,
        topic: Topics.authEvents,
        schema: EventEnvelopeSchema,
        startAt,
        onCrash: (err) => {
          log.warn({ err: err.message }, "plan events stopped; plans will be asked for again");
          opts.plans.clear();
          later();
        },
        handle: async (event) => {
          const change = planChangeOf(event);
          if (change) opts.plans.applyPlan(change.orgId, change.plan);
        },
      });
      if (stopped) await current.stop();
    } catch (err) {
      log.warn({ err: (err as Error).message }, "plan events not followed yet; retrying");
      later();
    }
  };
  const later = () => {
    if (stopped) return;
    timer = setTimeout(() => void start(), retryMs);
    timer.unref();
  };

  void start();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current?.stop();
    },
  };
}
