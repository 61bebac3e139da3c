import { PlanTier } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import { decodeProtectedHeader } from "jose";
import { afterAll, describe, expect, it } from "vitest";
import { unique } from "../../../test/support/names.js";
import { Collections } from "../src/storage/collections.js";
import { closeDatabases, database, PASSWORD, startAuth, until, type AuthUnderTest } from "./harness.js";

const started: AuthUnderTest[] = [];
const dbs: string[] = [];
afterAll(async () => {
  await Promise.all(started.map((s) => s.stop()));
  for (const d of dbs)
    await database(d)
      .dropDatabase()
      .catch(() => undefined);
  await closeDatabases();
});

describe("signing keys", () => {
  it("two replicas starting together on one database end up with one active key and accept each other's tokens", async () => {
    const db = unique("authkeys");
    dbs.push(db);
    const [a, b] = await Promise.all([startAuth({}, db), startAuth({}, db)]);
    started.push(a!, b!);
    expect(await database(db).collection(Collections.signingKeys).countDocuments()).toBe(1);
    const [ja, jb] = await Promise.all([a!.client.getJwks({}), b!.client.getJwks({})]);
    expect(ja.keys.map((k) => k.kid)).toEqual(jb.keys.map((k) => k.kid));
    expect(ja.keys).toHaveLength(1);

    const { organization } = await a!.client.createOrganization({ name: "Replicas", tier: PlanTier.STARTUP });
    const email = `${unique("rep")}@example.com`;
    await a!.client.createUser({ orgId: organization!.id, email, password: PASSWORD });
    const t = await a!.client.issueToken({ username: email, password: PASSWORD });
    expect(decodeProtectedHeader(t.accessToken).kid).toBe(ja.keys[0]!.kid);
    const r = await b!.client.refreshToken({ orgId: organization!.id, accessToken: t.accessToken });
    expect(r.sessionId).toBe(t.sessionId);
    // A session revoked through one replica is inactive through the other at once.
    await b!.client.revokeSession({ orgId: organization!.id, userId: t.userId, sessionId: t.sessionId });
    expect((await a!.client.checkSession({ orgId: organization!.id, sessionId: t.sessionId })).active).toBe(false);
  });

  it("rotates after the configured period; the retired key stays in GetJwks and its tokens still refresh", async () => {
    const db = unique("authrot");
    dbs.push(db);
    const auth = await startAuth({ AUTH_KEY_ROTATION_SECONDS: "10" }, db);
    started.push(auth);
    const { organization } = await auth.client.createOrganization({ name: "Rotation", tier: PlanTier.STARTUP });
    const email = `${unique("rot")}@example.com`;
    await auth.client.createUser({ orgId: organization!.id, email, password: PASSWORD });
    const before = await auth.client.issueToken({ username: email, password: PASSWORD });
    const oldKid = decodeProtectedHeader(before.accessToken).kid;

    // The maintenance timer (every 2.5 s here) creates the next generation once 10 s have passed.
    const jwks = await until(async () => {
      const j = await auth.client.getJwks({});
      return j.keys.length === 2 ? j : undefined;
    }, 30_000);
    expect(jwks.keys.map((k) => k.kid)).toContain(oldKid);
    const after = await auth.client.issueToken({ username: email, password: PASSWORD });
    const newKid = decodeProtectedHeader(after.accessToken).kid;
    expect(newKid).not.toBe(oldKid);
    expect(jwks.keys[0]!.kid).toBe(newKid); // newest first
    const refreshed = await auth.client.refreshToken({ orgId: organization!.id, accessToken: before.accessToken });
    expect(decodeProtectedHeader(refreshed.accessToken).kid).toBe(newKid);
  }, 60_000);
});
