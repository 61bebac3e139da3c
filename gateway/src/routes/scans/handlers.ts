import { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import type { Client } from "@connectrpc/connect";
import { ScanStatus, ScheduleFrequency, type ScanService } from "@vulnscan/proto/vulnscan/scans/v1/scans_service_pb.js";
import { enumName, enumValue } from "@vulnscan/kit";
import { principalOf } from "../../auth/guard.js";
import { actorOf, cursorEnvelope, envelope, dateParam } from "../../rest.js";
import type { ReplyOf, RequestOf } from "../typed.js";
import * as map from "./mappers.js";
import type * as schema from "./schemas.js";

/** How a scan's event stream follows it (GET /api/v1/scans/{scan_id}/events). */
export interface ScanEventTiming {
  /** How often the stream reads the scan (one GetScan by id); an event goes out only when it changed. */
  pollMs: number;
  /** A comment line after this much silence, so proxies keep the connection. */
  keepAliveMs: number;
  /** The stream closes after this long (the client reconnects: one more request). */
  maxMs: number;
}
export const SCAN_EVENT_TIMING: ScanEventTiming = { pollMs: 500, keepAliveMs: 15_000, maxMs: 10 * 60_000 };
const ENDED = new Set<number>([ScanStatus.COMPLETED, ScanStatus.FAILED, ScanStatus.CANCELLED]);

/** The scans routes' handlers: validated request → one scan-orchestrator RPC → the spec's JSON. */
export function scanHandlers(scans: Client<typeof ScanService>, timing: ScanEventTiming = SCAN_EVENT_TIMING) {
  async function createScan(req: RequestOf<typeof schema.createScan>, reply: ReplyOf<typeof schema.createScan>) {
    const { scan } = await scans.createScan(map.scanSpecOf(req.body, principalOf(req)));
    return reply.code(201).send(map.created(scan!));
  }

  async function listScans(req: RequestOf<typeof schema.listScans>) {
    const q = req.query;
    const res = await scans.listScans({
      orgId: principalOf(req).orgId,
      pagination: { page: q.page, perPage: q.per_page },
      status: q.status ? enumValue(ScanStatus, q.status) : undefined,
      target: q.target,
      fromDate: dateParam(q.from_date, "from_date"),
      toDate: dateParam(q.to_date, "to_date"),
      cursor: q.cursor ?? "",
    });
    return cursorEnvelope(res.scans.map(map.listItem), res.pageInfo, res.nextCursor);
  }

  async function getQuota(req: RequestOf<typeof schema.getQuota>) {
    const { quota } = await scans.getQuota({ orgId: principalOf(req).orgId });
    return map.quotaJson(quota!);
  }

  async function createSchedule(req: RequestOf<typeof schema.createSchedule>, reply: ReplyOf<typeof schema.createSchedule>) {
    const b = req.body;
    const { schedule } = await scans.createSchedule({
      ...map.scanSpecOf(b, principalOf(req)),
      frequency: enumValue(ScheduleFrequency, b.frequency),
      dayOfWeek: b.day_of_week,
      dayOfMonth: b.day_of_month,
      hour: b.hour,
      timezone: b.timezone,
    });
    return reply.code(201).send(map.scheduleJson(schedule!));
  }

  async function listSchedules(req: RequestOf<typeof schema.listSchedules>) {
    const q = req.query;
    const res = await scans.listSchedules({ orgId: principalOf(req).orgId, pagination: { page: q.page, perPage: q.per_page } });
    return envelope(res.schedules.map(map.scheduleJson), res.pageInfo);
  }

  async function deleteSchedule(req: RequestOf<typeof schema.deleteSchedule>) {
    const { schedule_id } = req.params;
    await scans.deleteSchedule({ orgId: principalOf(req).orgId, scheduleId: schedule_id });
    return { id: schedule_id, status: "deleted", message: "Schedule deleted" };
  }

  async function getScan(req: RequestOf<typeof schema.getScan>) {
    const { scan } = await scans.getScan({ orgId: principalOf(req).orgId, scanId: req.params.scan_id });
    return map.detail(scan!);
  }

  /*
   * Server-sent events: the gateway reads the scan where every reader reads it (the orchestrator's
   * GetScan, fed by the scanner's progress events) every pollMs and sends it when it changed. One
   * HTTP request however long the scan runs, so the hourly rate limit counts it once.
   */
  async function scanEvents(req: RequestOf<typeof schema.scanEvents>, reply: ReplyOf<typeof schema.scanEvents>) {
    const orgId = principalOf(req).orgId;
    const scanId = req.params.scan_id;
    // Unknown or another organization's scan: 404 as JSON, before the stream starts.
    const first = (await scans.getScan({ orgId, scanId })).scan!;
    const closed = new AbortController();
    reply.raw.on("close", () => closed.abort());
    async function* events() {
      const started = Date.now();
      let scan = first;
      let sent = "";
      let lastWrite = Date.now();
      yield `retry: ${Math.max(1000, timing.pollMs * 4)}\n\n`;
      for (;;) {
        const json = JSON.stringify(map.detail(scan));
        if (json !== sent) {
          sent = json;
          lastWrite = Date.now();
          yield `event: scan\ndata: ${json}\n\n`;
        }
        if (ENDED.has(scan.status)) {
          yield `event: end\ndata: ${JSON.stringify({ status: enumName(ScanStatus, scan.status) })}\n\n`;
          return;
        }
        if (Date.now() - started >= timing.maxMs) return;
        if (Date.now() - lastWrite >= timing.keepAliveMs) {
          lastWrite = Date.now();
          yield ": still running\n\n";
        }
        try {
          await sleep(timing.pollMs, undefined, { signal: closed.signal });
          scan = (await scans.getScan({ orgId, scanId })).scan!;
        } catch (err) {
          if (closed.signal.aborted) return;
          // The orchestrator did not answer: say so and close; the client reconnects after `retry`.
          req.log.warn({ err, scanId }, "scan events: reading the scan failed");
          yield `event: error\ndata: ${JSON.stringify({ detail: "The scan's state could not be read; reconnecting." })}\n\n`;
          return;
        }
      }
    }
    return reply
      .header("content-type", "text/event-stream; charset=utf-8")
      .header("cache-control", "no-store")
      .header("x-accel-buffering", "no")
      .send(Readable.from(events(), { objectMode: false }));
  }

  async function cancelScan(req: RequestOf<typeof schema.cancelScan>) {
    const res = await scans.cancelScan({ orgId: principalOf(req).orgId, scanId: req.params.scan_id, actor: actorOf(principalOf(req)) });
    return { id: res.scan!.id, status: enumName(ScanStatus, res.scan!.status), message: res.message || "Scan cancelled" };
  }

  return { createScan, listScans, getQuota, createSchedule, listSchedules, deleteSchedule, getScan, scanEvents, cancelScan };
}
