import type { FastifyPluginAsync, FastifyReply } from "fastify";
import { checkUpstreams, type Upstreams } from "../upstreams.js";

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
    app.get("/api/health", { config: { public: true } }, health);
  };
