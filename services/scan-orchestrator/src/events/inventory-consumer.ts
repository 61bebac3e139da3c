import { timestampDate } from "@bufbuild/protobuf/wkt";
import { Topics, type KafkaBus, type Logger, type Subscription } from "@vulnscan/kit";
import { EventEnvelopeSchema, type EventEnvelope } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import { DetectionSchema, type Detection } from "@vulnscan/proto/vulnscan/findings/v1/detection_pb.js";
import { OPEN_PORTS_TEMPLATE, parseOpenServices, type TargetInventory } from "../domain/inventory.js";

/*
 * Thin consumers feeding target inventories (issue 29): the orchestrator's own scan.completed /
 * scan.failed from the scan events topic, and the scanner's port inventory detections from the
 * detections topic (a group of its own next to findings'). Every update the inventory makes only
 * moves forward, so a redelivery needs no record of event ids.
 */

/** Consumer groups: `<REPORTS_CONSUMER_GROUP>-inventory-scans` / `-ports`, so an instance isolated for tests is isolated here too. */
export const inventoryGroups = (base: string) => ({ scans: `${base}-inventory-scans`, ports: `${base}-inventory-ports` });

/** A scan's end as the inventory takes it; undefined for every other event. */
export function scanEndOf(env: EventEnvelope) {
  const p = env.payload;
  if (p.case !== "scanCompleted" && p.case !== "scanFailed") return undefined;
  if (!env.orgId || !p.value.scanId) return undefined;
  return {
    orgId: env.orgId,
    target: p.value.target,
    scan: {
      scan_id: p.value.scanId,
      status: p.case === "scanCompleted" ? ("completed" as const) : ("failed" as const),
      ended_at: env.occurredAt ? timestampDate(env.occurredAt) : new Date(),
    },
  };
}

/** A host's open ports from the scanner's inventory detection; undefined for every other record. */
export function portsSeenOf(d: Detection) {
  if (d.templateId !== OPEN_PORTS_TEMPLATE || !d.orgId || !d.target) return undefined;
  return {
    org_id: d.orgId,
    scan_id: d.scanId,
    host: d.target,
    // The inventory detection names the host's address as its component.
    address: d.affectedComponent,
    services: parseOpenServices(d.evidence?.response ?? ""),
    seen_at: d.detectedAt ? timestampDate(d.detectedAt) : new Date(),
  };
}

export async function consumeInventoryEvents(opts: {
  kafka: KafkaBus;
  inventory: TargetInventory;
  logger: Logger;
  /** The orchestrator's reports group; the inventory's groups are named after it. */
  groupBase: string;
  /** Where a new group starts: the oldest record (default) or the newest (tests on a shared broker). */
  fromBeginning?: boolean;
}): Promise<Subscription[]> {
  const log = opts.logger.child({ component: "inventory" });
  const groups = inventoryGroups(opts.groupBase);
  const fromBeginning = opts.fromBeginning ?? true;
  const scans = await opts.kafka.subscribe({
    groupId: groups.scans,
    topic: Topics.scanEvents,
    schema: EventEnvelopeSchema,
    fromBeginning,
    handle: async (env) => {
      const end = scanEndOf(env);
      if (!end) return;
      const n = await opts.inventory.scanEnded(end.orgId, end.target, end.scan);
      log.debug({ scan_id: end.scan.scan_id, targets: n }, "scan end recorded on target inventories");
    },
  });
  const ports = await opts.kafka.subscribeBatch({
    groupId: groups.ports,
    topic: Topics.findingsDetected,
    schema: DetectionSchema,
    fromBeginning,
    maxBatch: 500,
    handleBatch: async (items) => {
      for (const it of items) {
        const seen = portsSeenOf(it.message);
        if (seen) await opts.inventory.portsSeen(seen);
      }
    },
    handleOne: async (d) => {
      const seen = portsSeenOf(d);
      if (seen) await opts.inventory.portsSeen(seen);
    },
  });
  return [scans, ports];
}
