import type { Client } from "@connectrpc/connect";
import type { ScanService } from "@vulnscan/proto/vulnscan/scans/v1/scans_service_pb.js";
import type { FastifyPluginAsync } from "fastify";
import { typed } from "../typed.js";
import { scanHandlers } from "./handlers.js";
import * as schema from "./schemas.js";

const read = { permission: "read:scans" } as const;
const write = { permission: "write:scans" } as const;

/** Scans, quota and schedules (spec "Scans"), served by scan-orchestrator. */
export const scanRoutes =
  (scans: Client<typeof ScanService>): FastifyPluginAsync =>
  async (fastify) => {
    const app = typed(fastify);
    const h = scanHandlers(scans);
    app.post("/api/v1/scans", { config: write, schema: schema.createScan }, h.createScan);
    app.get("/api/v1/scans", { config: read, schema: schema.listScans }, h.listScans);
    app.get("/api/v1/scans/quota", { config: read, schema: schema.getQuota }, h.getQuota);
    app.post("/api/v1/scans/schedules", { config: write, schema: schema.createSchedule }, h.createSchedule);
    app.get("/api/v1/scans/schedules", { config: read, schema: schema.listSchedules }, h.listSchedules);
    app.delete("/api/v1/scans/schedules/:schedule_id", { config: write, schema: schema.deleteSchedule }, h.deleteSchedule);
    app.get("/api/v1/scans/:scan_id", { config: read, schema: schema.getScan }, h.getScan);
    app.get("/api/v1/scans/:scan_id/events", { config: read, schema: schema.scanEvents }, h.scanEvents);
    app.delete("/api/v1/scans/:scan_id", { config: write, schema: schema.cancelScan }, h.cancelScan);
  };
