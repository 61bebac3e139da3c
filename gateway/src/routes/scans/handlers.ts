import type { Client } from "@connectrpc/connect";
import { ScanStatus, ScheduleFrequency, type ScanService } from "@vulnscan/proto/vulnscan/scans/v1/scans_service_pb.js";
import { enumName, enumValue } from "@vulnscan/kit";
import { principalOf } from "../../auth/guard.js";
import { actorOf, cursorEnvelope, envelope, dateParam } from "../../rest.js";
import type { ReplyOf, RequestOf } from "../typed.js";
import * as map from "./mappers.js";
import type * as schema from "./schemas.js";

/** The scans routes' handlers: validated request → one scan-orchestrator RPC → the spec's JSON. */
export function scanHandlers(scans: Client<typeof ScanService>) {
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

  async function cancelScan(req: RequestOf<typeof schema.cancelScan>) {
    const res = await scans.cancelScan({ orgId: principalOf(req).orgId, scanId: req.params.scan_id, actor: actorOf(principalOf(req)) });
    return { id: res.scan!.id, status: enumName(ScanStatus, res.scan!.status), message: res.message || "Scan cancelled" };
  }

  return { createScan, listScans, getQuota, createSchedule, listSchedules, deleteSchedule, getScan, cancelScan };
}
