import type { MessageShape } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { createLogger, KafkaBus, Topics, type Subscription } from "@vulnscan/kit";
import { PlanTier } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import { EventEnvelopeSchema } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { unique } from "../../../test/support/names.js";
import { totpCode, TOTP_PERIOD_SECONDS } from "../src/domain/totp.js";
import { Collections } from "../src/storage/collections.js";
import { MongoUserRepository } from "../src/storage/users.js";
import { closeDatabases, database, failure, freshStep, PASSWORD, startAuth, until, type AuthUnderTest } from "./harness.js";

type Envelope = MessageShape<typeof EventEnvelopeSchema>;

let auth: AuthUnderTest;
let bus: KafkaBus;
let sub: Subscription;
const received: { key: string | undefined; env: Envelope }[] = [];

beforeAll(async () => {
  auth = await startAuth();
  bus = new KafkaBus({ clientId: "auth-events-test", brokers: [inject("kafkaBrokers")], logger: createLogger("auth-events-test", "silent") });
  sub = await bus.subscribe({
    groupId: unique("auth-events-test"),
    topic: Topics.authEvents,
    schema: EventEnvelopeSchema,
    fromBeginning: true,
    handle: async (env, meta) => {
      received.push({ key: meta.key, env });
    },
  });
});
afterAll(async () => {
  await sub?.stop();
  await bus?.close();
  await auth?.stop();
  await database(auth.dbName)
    .dropDatabase()
    .catch(() => undefined);
  await closeDatabases();
});

/**
 * The user's events of a type, each once: delivery is at least once (an event published at once
 * can be published again by the outbox relay when the first publish was not yet marked), and
 * consumers de-duplicate by envelope id, as this does.
 */
const eventsOf = (userId: string, type: string) =>
  received.filter((r, i) => r.key === userId && r.env.type === type && received.findIndex((o) => o.env.id === r.env.id) === i);

async function orgWithUser() {
  const { organization } = await auth.client.createOrganization({ name: unique("Org"), tier: PlanTier.PROFESSIONAL });
  const email = `${unique("ev")}@example.com`;
  const { user } = await auth.client.createUser({ orgId: organization!.id, email, password: PASSWORD });
  return { orgId: organization!.id, userId: user!.id, email };
}

describe("auth events on vulnscan.auth.events", () => {
  it("user.login_failed for each failure of an existing user (keyed by user id), none for unknown emails", async () => {
    const { orgId, userId, email } = await orgWithUser();
    await failure(auth.client.issueToken({ username: email.toUpperCase(), password: "wrong password!!", ip: "192.0.2.1", userAgent: "UA/1" }));
    const ghost = `${unique("ghost")}@example.com`;
    await failure(auth.client.issueToken({ username: ghost, password: "whatever", ip: "192.0.2.1" }));

    const [ev] = await until(() => {
      const found = eventsOf(userId, "user.login_failed");
      return found.length ? found : undefined;
    });
    expect(ev!.env).toMatchObject({
      type: "user.login_failed",
      orgId,
      payload: { case: "userLoginFailed", value: { email: email.toUpperCase(), ip: "192.0.2.1", userAgent: "UA/1", reason: "invalid_credentials" } },
    });
    expect(ev!.env.id).toMatch(/^evt_/);
    expect(Math.abs(timestampDate(ev!.env.occurredAt!).getTime() - Date.now())).toBeLessThan(60_000);
    // The outbox of the user document is empty again once published.
    const doc = await until(async () => {
      const d = await database(auth.dbName)
        .collection(Collections.users)
        .findOne({ _id: userId as never });
      return d && d.outbox_pending === false ? d : undefined;
    });
    expect(doc.outbox).toEqual([]);
    expect(received.some((r) => r.env.payload.case === "userLoginFailed" && r.env.payload.value.email === ghost)).toBe(false);
  });

  it("user.mfa_disabled when MFA is turned off, and reason mfa_required / invalid_mfa_code on MFA failures", async () => {
    const { orgId, userId, email } = await orgWithUser();
    await freshStep();
    const { secret } = await auth.client.setupMfa({ orgId, userId });
    const t0 = Date.now();
    const code = (k: number) => totpCode(secret, new Date(t0 + k * TOTP_PERIOD_SECONDS * 1000));
    await auth.client.enableMfa({ orgId, userId, code: code(0) });
    await failure(auth.client.issueToken({ username: email, password: PASSWORD }));
    await failure(auth.client.issueToken({ username: email, password: PASSWORD, mfaCode: code(0) }));
    await auth.client.disableMfa({ orgId, userId, code: code(1), ip: "192.0.2.2", userAgent: "UA/2" });

    const [disabled] = await until(() => {
      const found = eventsOf(userId, "user.mfa_disabled");
      return found.length ? found : undefined;
    });
    expect(disabled!.env).toMatchObject({
      type: "user.mfa_disabled",
      orgId,
      payload: { case: "userMfaDisabled", value: { userId, email, ip: "192.0.2.2", userAgent: "UA/2" } },
    });
    const reasons = await until(() => {
      const r = eventsOf(userId, "user.login_failed").map((e) => (e.env.payload.case === "userLoginFailed" ? e.env.payload.value.reason : ""));
      return r.length >= 2 ? r : undefined;
    });
    expect(reasons).toEqual(["mfa_required", "invalid_mfa_code"]);
  });

  it("the relay publishes an event left in a user's outbox (a crash between store and publish)", async () => {
    const { orgId, userId, email } = await orgWithUser();
    // Store the event the way the service does, but without flushing it (no outbox given).
    await new MongoUserRepository(database(auth.dbName)).recordEvent(userId, {
      type: "user.login_failed",
      orgId,
      userId,
      email,
      ip: "192.0.2.3",
      userAgent: "crashed",
      reason: "invalid_credentials",
      occurredAt: new Date(),
    });
    const [ev] = await until(() => {
      const found = eventsOf(userId, "user.login_failed");
      return found.length ? found : undefined;
    });
    expect(ev!.env.payload).toMatchObject({ case: "userLoginFailed", value: { userAgent: "crashed" } });
  });

  it("auth.* events for what gateways must know, each stored with its change; GetAuthState lists what still matters", async () => {
    const { orgId, userId, email } = await orgWithUser();
    const t = await auth.client.issueToken({ username: email, password: PASSWORD });
    const other = await auth.client.issueToken({ username: email, password: PASSWORD });
    const k = await auth.client.createApiKey({ orgId, userId, name: "ci", permissions: ["read:scans"] });
    await auth.client.revokeSession({ orgId, userId, sessionId: t.sessionId });
    await auth.client.revokeApiKey({ orgId, apiKeyId: k.apiKey!.id });
    await auth.client.setPlan({ orgId, tier: PlanTier.ENTERPRISE, customLimits: { requestsPerHour: { max: 12_345 } } });
    expect(await auth.client.setUserDisabled({ orgId, userId, disabled: true })).toMatchObject({ disabled: true, revokedSessions: 1 });

    const of = (key: string, type: string) => until(() => received.find((r) => r.key === key && r.env.type === type));
    const revoked = await of(userId, "auth.session_revoked");
    expect(revoked.env).toMatchObject({ orgId, payload: { case: "authSessionRevoked", value: { sessionId: t.sessionId, userId, reason: "revoked" } } });
    const byDisable = await until(() => received.find((r) => r.env.payload.case === "authSessionRevoked" && r.env.payload.value.sessionId === other.sessionId));
    expect(byDisable.env.payload.value).toMatchObject({ reason: "user_disabled" });
    expect((await of(k.apiKey!.id, "auth.api_key_revoked")).env.payload).toMatchObject({ case: "authApiKeyRevoked", value: { apiKeyId: k.apiKey!.id } });
    expect((await of(orgId, "auth.plan_changed")).env.payload).toMatchObject({
      case: "authPlanChanged",
      value: { plan: { tier: PlanTier.ENTERPRISE, limits: { requestsPerHour: { max: 12_345 } } } },
    });
    expect((await of(userId, "auth.user_disabled")).env.payload).toMatchObject({ case: "authUserDisabled", value: { userId } });

    const state = await auth.client.getAuthState({});
    expect(state.revokedSessions.map((r) => r.sessionId)).toEqual(expect.arrayContaining([t.sessionId, other.sessionId]));
    expect(state.revokedApiKeys.map((r) => r.apiKeyId)).toContain(k.apiKey!.id);
    expect(state.disabledUsers).toContainEqual(expect.objectContaining({ userId, orgId }));
    await auth.client.setUserDisabled({ orgId, userId, disabled: false });
    await of(userId, "auth.user_enabled");
    expect((await auth.client.getAuthState({})).disabledUsers.map((u) => u.userId)).not.toContain(userId);
    // Every outbox is empty again once published.
    for (const [c, id] of [
      [Collections.sessions, t.sessionId],
      [Collections.apiKeys, k.apiKey!.id],
      [Collections.organizations, orgId],
      [Collections.users, userId],
    ] as const) {
      await until(async () =>
        (
          await database(auth.dbName)
            .collection(c)
            .findOne({ _id: id as never })
        )?.outbox_pending === false
          ? true
          : undefined,
      );
    }
  });

  it("auth.heartbeat reaches every partition every few seconds", async () => {
    const since = Date.now();
    const all = (await bus.latestOffsets(Topics.authEvents)).map((p) => p.partition);
    const partitions = await until(() => {
      const seen = new Set(
        received
          .filter((r) => r.env.payload.case === "authHeartbeat" && timestampDate(r.env.occurredAt!).getTime() >= since)
          .map((r) => (r.env.payload.value as { partition: number }).partition),
      );
      return seen.size >= all.length ? seen : undefined;
    }, 15_000);
    expect([...partitions].sort((x, y) => x - y)).toEqual(all);
  });
});
