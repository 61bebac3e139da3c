import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { createLogger, createMetrics } from "@vulnscan/kit";
import { AuthService, PlanSchema } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import type { FastifyInstance } from "fastify";
import { orchestratorEnv, plans, startAuthStub, startOrchestrator, type AuthStub, type Orchestrator } from "../../services/scan-orchestrator/test/harness.js";
import { buildApp } from "../src/app.js";
import { testAuthenticator } from "../src/auth/testing.js";
import { TokenVerifier } from "../src/auth/token-verifier.js";
import { gatewayEnvSchema } from "../src/config.js";
import type { GuardDeps } from "../src/auth/guard.js";
import { PlanCache } from "../src/plans.js";
import type { Upstreams } from "../src/upstreams.js";

export type Keys = Record<string, { orgId: string; permissions: string[]; name: string }>;

export interface ScansGateway {
  app: FastifyInstance;
  orch: Orchestrator;
  planAuth: AuthStub;
  close(): Promise<void>;
}

/**
 * The gateway's scan routes in-process against the real scan-orchestrator (its own test harness:
 * real Kafka and MongoDB-protocol server, no scanner, so scans stay pending), every organization
 * on the Enterprise plan, authenticated by the API keys given (a fake auth upstream).
 */
export async function startScansGateway(keys: Keys, limiter: GuardDeps["limiter"] = { hit: async () => undefined }): Promise<ScansGateway> {
  const planAuth = await startAuthStub();
  for (const k of Object.values(keys)) planAuth.set(k.orgId, plans.enterprise);
  const orch = await startOrchestrator(orchestratorEnv(planAuth));
  const auth = createClient(
    AuthService,
    createRouterTransport(({ service }) =>
      service(AuthService, {
        getJwks: () => ({ keys: [], issuer: "vulnscan-auth", audience: "vulnscan-api", cacheSeconds: 300 }),
        verifyApiKey: (req) => {
          const k = keys[req.key];
          if (!k) throw new ConnectError("Could not validate credentials", Code.Unauthenticated);
          return { orgId: k.orgId, apiKeyId: `apikey_${req.key}`, permissions: k.permissions, name: k.name };
        },
        getPlan: () => ({
          plan: create(PlanSchema, { apiKeysEnabled: true, limits: { requestsPerHour: { unlimited: true }, requestsPerDay: { unlimited: true } } }),
        }),
      }),
    ),
  );
  const upstreams = { urls: {}, health: {}, auth, scans: orch.client } as unknown as Upstreams;
  const verifier = new TokenVerifier(async () => ({ keys: [], issuer: "vulnscan-auth", audience: "vulnscan-api", cacheSeconds: 300 }));
  const plansCache = new PlanCache(auth);
  const app = await buildApp({
    config: gatewayEnvSchema.parse({}),
    logger: createLogger("scans-gateway-test", "silent"),
    registry: createMetrics("scans-gateway-test").registry,
    upstreams,
    guard: { authenticator: testAuthenticator({ verifier, auth, plans: plansCache }).authenticator, plans: plansCache, limiter },
  });
  return {
    app,
    orch,
    planAuth,
    async close() {
      await app.close();
      await orch.stop();
      await planAuth.close();
    },
  };
}
