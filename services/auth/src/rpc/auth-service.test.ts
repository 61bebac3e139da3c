import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { createLogger } from "@vulnscan/kit/logger";
import { errorInterceptor, errorInfoOf } from "@vulnscan/kit/errors";
import { AuthService, PlanTier } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import { describe, expect, it } from "vitest";
import { testAuth } from "../testing.js";
import { AuthRpcService } from "./auth-service.js";
import { authRoutes } from "./routes.js";

function rpcFor() {
  const a = testAuth();
  const impl = new AuthRpcService(a, { issuer: "vulnscan-auth", audience: "vulnscan-api", cacheSeconds: 300 });
  const transport = createRouterTransport(authRoutes(impl), {
    router: { interceptors: [errorInterceptor(createLogger("auth-rpc-test", "silent"))] },
  });
  return { a, rpc: createClient(AuthService, transport) };
}

async function failure(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    const ce = ConnectError.from(err);
    return { code: ce.code, ...errorInfoOf(ce), message: ce.rawMessage };
  }
  throw new Error("expected a failure");
}

describe("AuthService mapping (in-memory transport)", () => {
  it("maps tiers, limits and feature flags", async () => {
    const { rpc } = rpcFor();
    const { organization } = await rpc.createOrganization({ name: "Acme", tier: PlanTier.ENTERPRISE });
    expect(organization!.plan).toMatchObject({
      tier: PlanTier.ENTERPRISE,
      apiKeysEnabled: true,
      limits: { concurrentScans: { unlimited: true }, requestsPerHour: { unlimited: false, max: 10_000 }, minCidrPrefixLength: 20 },
    });
    const set = await rpc.setPlan({ orgId: organization!.id, tier: PlanTier.ENTERPRISE, customLimits: { scansPerMonth: { max: 7 } } });
    expect(set.organization!.plan!.limits!.scansPerMonth).toMatchObject({ unlimited: false, max: 7 });
    expect(set.organization!.plan!.limits!.concurrentScans).toMatchObject({ unlimited: true });
  });

  it("turns domain errors into Connect codes with the error_code and field attached", async () => {
    const { rpc } = rpcFor();
    const { organization } = await rpc.createOrganization({ name: "Small", tier: PlanTier.STARTUP });
    const { user } = await rpc.createUser({ orgId: organization!.id, email: "a@example.com", password: "long enough pass" });
    expect(await failure(rpc.createApiKey({ orgId: organization!.id, userId: user!.id, name: "k", permissions: ["read:scans"] }))).toEqual({
      code: Code.PermissionDenied,
      errorCode: "PLAN_UPGRADE_REQUIRED",
      message: "API keys require the Professional or Enterprise plan",
    });
    expect(await failure(rpc.issueToken({ username: "a@example.com", password: "nope" }))).toMatchObject({
      code: Code.Unauthenticated,
      errorCode: "INVALID_CREDENTIALS",
    });
    expect(await failure(rpc.createUser({ orgId: organization!.id, email: "A@example.com", password: "long enough pass" }))).toMatchObject({
      code: Code.AlreadyExists,
      errorCode: "VALIDATION_ERROR",
      field: "email",
    });
  });

  it("API keys come back without value or hash, with timestamps", async () => {
    const { rpc } = rpcFor();
    const { organization } = await rpc.createOrganization({ name: "Pro", tier: PlanTier.PROFESSIONAL });
    const { user } = await rpc.createUser({ orgId: organization!.id, email: "p@example.com", password: "long enough pass" });
    const expiresAt = timestampFromDate(new Date("2026-04-01T00:00:00Z"));
    const created = await rpc.createApiKey({ orgId: organization!.id, userId: user!.id, name: "ci", permissions: ["read:grc"], expiresAt });
    const { apiKeys } = await rpc.listApiKeys({ orgId: organization!.id });
    expect(apiKeys[0]).toMatchObject({ id: created.apiKey!.id, name: "ci", permissions: ["read:grc"], revoked: false, expiresAt });
    expect(Object.keys(apiKeys[0]!).sort()).toEqual(
      ["$typeName", "createdAt", "createdByUserId", "expiresAt", "id", "name", "permissions", "prefix", "revoked"].sort(),
    );
  });
});
