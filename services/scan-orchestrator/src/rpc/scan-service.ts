import type { ConnectRouter, ServiceImpl } from "@connectrpc/connect";
import { validationError } from "@vulnscan/kit/errors";
import { ScanService, type CreateScanRequest, type CreateScheduleRequest } from "@vulnscan/proto/vulnscan/scans/v1/scans_service_pb.js";
import type { ScanUseCases } from "../domain/scans.js";
import type { ScheduleUseCases } from "../domain/schedules.js";
import { actorFrom, dateFrom, frequencyFrom, pageFrom, pageInfo, quotaTo, scanTo, scanTypeFrom, scheduleTo, statusFrom } from "./mappers.js";

const orgOf = (req: { orgId: string }) => {
  if (!req.orgId) throw validationError("org_id", "org_id is required");
  return req.orgId;
};

/** What a scan and a schedule are both asked with: the target and how to scan it. */
const scanRequestFrom = (req: CreateScanRequest | CreateScheduleRequest) => ({
  orgId: orgOf(req),
  target: req.target,
  scanType: scanTypeFrom(req.scanType),
  frameworks: req.frameworks,
  ports: req.ports,
  authorized: req.authorized,
  actor: actorFrom(req.actor),
});

/** vulnscan.scans.v1.ScanService: map, delegate, map back. */
export function scanServiceImpl(scans: ScanUseCases, schedules: ScheduleUseCases): ServiceImpl<typeof ScanService> {
  return {
    async createScan(req) {
      return { scan: scanTo(await scans.create(scanRequestFrom(req))) };
    },
    async listScans(req) {
      const page = pageFrom(req.pagination);
      const from = dateFrom(req.fromDate);
      const to = dateFrom(req.toDate);
      const result = await scans.list(
        orgOf(req),
        {
          status: statusFrom(req.status),
          ...(req.target !== undefined ? { target: req.target } : {}),
          ...(from ? { from } : {}),
          ...(to ? { to } : {}),
        },
        page,
        req.cursor,
      );
      return { scans: result.items.map(scanTo), pageInfo: pageInfo(result.page, result.total), nextCursor: result.nextCursor };
    },
    async getScan(req) {
      return { scan: scanTo(await scans.get(orgOf(req), req.scanId)) };
    },
    async cancelScan(req) {
      const scan = await scans.cancel(orgOf(req), req.scanId);
      return { scan: scanTo(scan), message: "Scan cancelled" };
    },
    async getQuota(req) {
      return { quota: quotaTo(await scans.quota(orgOf(req))) };
    },
    async createSchedule(req) {
      const schedule = await schedules.create({
        ...scanRequestFrom(req),
        frequency: frequencyFrom(req.frequency),
        dayOfWeek: req.dayOfWeek,
        dayOfMonth: req.dayOfMonth,
        hour: req.hour,
        timezone: req.timezone,
      });
      return { schedule: scheduleTo(schedule) };
    },
    async listSchedules(req) {
      const page = pageFrom(req.pagination);
      const result = await schedules.list(orgOf(req), page);
      return { schedules: result.items.map(scheduleTo), pageInfo: pageInfo(page, result.total) };
    },
    async deleteSchedule(req) {
      await schedules.delete(orgOf(req), req.scheduleId);
      return {};
    },
  };
}

export const scanServiceNames = [ScanService.typeName];

export const scanRoutes = (impl: ServiceImpl<typeof ScanService>) => (router: ConnectRouter) => {
  router.service(ScanService, impl);
};
