import type { FastifyPluginAsync, FastifyReply } from "fastify";
import { timestamp } from "../schemas.js";
import { checkUpstreams, type Upstreams } from "../upstreams.js";

const healthRecord = {
  type: "object",
  required: ["status", "version", "timestamp", "services"],
  properties: {
    status: { type: "string", enum: ["healthy", "degraded"] },
    version: { type: "string" },
    timestamp,
    services: { type: "object", additionalProperties: { type: "string", enum: ["up", "down"] }, description: "Each internal service by name" },
  },
} as const;

const healthSchema = {
  tags: ["health"],
  summary: "Health of the API and its services",
  description: "`healthy` with 200 when every internal service answers, `degraded` with 503 (and which service is down) otherwise. No credentials needed.",
  // Public: load balancers and uptime checks call it without credentials.
  security: [],
  response: {
    200: { ...healthRecord, description: "Every service is up" },
    503: { ...healthRecord, description: "A required service is down (status degraded)" },
  },
} as const;

/**
 * GET /api/health: the spec's health record. Any required upstream down → `degraded`
 * with 503, so load balancers and uptime checks see it without parsing the body.
 */
export const healthRoutes =
  (opts: { upstreams: Upstreams; version: string }): FastifyPluginAsync =>
  async (app) => {
    async function health(_req: unknown, reply: FastifyReply) {
      const services = await checkUpstreams(opts.upstreams);
      const healthy = Object.values(services).every((s) => s === "up");
      return reply.code(healthy ? 200 : 503).send({
        status: healthy ? "healthy" : "degraded",
        version: opts.version,
        timestamp: new Date().toISOString(),
        services,
      });
    }
    app.get("/api/health", { config: { public: true }, schema: healthSchema }, health);
  };
