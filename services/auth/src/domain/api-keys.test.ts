import { describe, expect, it } from "vitest";
import { testAuth } from "../testing.js";
import { checkPermissions, hashApiKey } from "./api-keys.js";

const DAY = 24 * 3600 * 1000;

describe("API key validation", () => {
  it("permissions: a non-empty subset of the spec's six, deduplicated, in canonical order", () => {
    expect(checkPermissions(["write:grc", "read:scans", "read:scans"])).toEqual(["read:scans", "write:grc"]);
    expect(() => checkPermissions([])).toThrow(/At least one/);
    let err: unknown;
    try {
      checkPermissions(["read:scans", "admin:*"]);
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ errorCode: "VALIDATION_ERROR", field: "permissions" });
    expect((err as Error).message).toContain("admin:*");
  });
});

describe("API keys", () => {
  it("need the Professional or Enterprise plan", async () => {
    const a = testAuth();
    const { org, user } = await a.orgWithUser("startup");
    await expect(a.apiKeys.create({ orgId: org.id, userId: user.id, name: "ci", permissions: ["read:scans"] })).rejects.toMatchObject({
      kind: "forbidden",
      errorCode: "PLAN_UPGRADE_REQUIRED",
      message: "API keys require the Professional or Enterprise plan",
    });
  });

  it("are shown once; only a SHA-256 and an 8-character prefix are stored", async () => {
    const a = testAuth();
    const { org, user } = await a.orgWithUser();
    const { apiKey, key } = await a.apiKeys.create({ orgId: org.id, userId: user.id, name: "  CI pipeline ", permissions: ["read:scans", "write:scans"] });
    expect(key).toMatch(/^vsk_[A-Za-z0-9_-]{43}$/);
    expect(apiKey).toMatchObject({ name: "CI pipeline", prefix: key.slice(0, 8), createdByUserId: user.id, keyHash: hashApiKey(key) });
    expect(apiKey.id).toMatch(/^apikey_/);
    expect(apiKey.expiresAt.getTime() - a.now().getTime()).toBe(90 * DAY);
    const stored = JSON.stringify([...a.repos.apiKeys.rows.values()]);
    expect(stored).not.toContain(key);
  });

  it("validate name and expiry", async () => {
    const a = testAuth();
    const { org, user } = await a.orgWithUser();
    const create = (over: Record<string, unknown>) => a.apiKeys.create({ orgId: org.id, userId: user.id, name: "k", permissions: ["read:scans"], ...over });
    await expect(create({ name: "  " })).rejects.toMatchObject({ field: "name" });
    await expect(create({ name: "x".repeat(101) })).rejects.toMatchObject({ field: "name" });
    await expect(create({ name: "x".repeat(100) })).resolves.toBeDefined();
    await expect(create({ expiresAt: a.now() })).rejects.toMatchObject({ field: "expires_at" });
    await expect(create({ expiresAt: new Date(a.now().getTime() + 731 * DAY) })).rejects.toMatchObject({ field: "expires_at" });
    const in30 = new Date(a.now().getTime() + 30 * DAY);
    await expect(create({ expiresAt: in30 })).resolves.toMatchObject({ apiKey: { expiresAt: in30 } });
    await expect(create({ permissions: ["read:everything"] })).rejects.toMatchObject({ field: "permissions" });
    await expect(create({ userId: "user_elsewhere" })).rejects.toMatchObject({ errorCode: "NOT_FOUND" });
  });

  it("verify: valid → org, permissions, name; revoked, expired, unknown, malformed or plan lost → INVALID_TOKEN", async () => {
    const a = testAuth();
    const { org, user } = await a.orgWithUser();
    const { apiKey, key } = await a.apiKeys.create({
      orgId: org.id,
      userId: user.id,
      name: "ci",
      permissions: ["read:findings"],
      expiresAt: new Date(a.now().getTime() + DAY),
    });
    await expect(a.apiKeys.verify(key)).resolves.toEqual({
      orgId: org.id,
      apiKeyId: apiKey.id,
      permissions: ["read:findings"],
      name: "ci",
      expiresAt: apiKey.expiresAt,
      createdByUserId: user.id,
    });
    const invalid = { kind: "unauthenticated", errorCode: "INVALID_TOKEN", message: "Could not validate credentials" };
    await expect(a.apiKeys.verify(`${key.slice(0, -1)}${key.endsWith("A") ? "B" : "A"}`)).rejects.toMatchObject(invalid);
    await expect(a.apiKeys.verify("garbage")).rejects.toMatchObject(invalid);

    await a.directory.setPlan(org.id, "startup");
    await expect(a.apiKeys.verify(key)).rejects.toMatchObject(invalid);
    await a.directory.setPlan(org.id, "enterprise");
    await expect(a.apiKeys.verify(key)).resolves.toBeDefined();

    a.advance(DAY);
    await expect(a.apiKeys.verify(key)).rejects.toMatchObject(invalid);
  });

  it("verify writes last_used_at at most once a minute", async () => {
    const a = testAuth();
    const { org, user } = await a.orgWithUser();
    const { apiKey, key } = await a.apiKeys.create({ orgId: org.id, userId: user.id, name: "ci", permissions: ["read:scans"] });
    await a.apiKeys.verify(key);
    await a.apiKeys.verify(key);
    expect(a.repos.apiKeys.touches).toBe(1);
    a.advance(60_000);
    await a.apiKeys.verify(key);
    expect(a.repos.apiKeys.touches).toBe(2);
    expect(a.repos.apiKeys.rows.get(apiKey.id)!.lastUsedAt).toEqual(a.now());
  });

  it("revoke is scoped to the organization and idempotent", async () => {
    const a = testAuth();
    const { org, user } = await a.orgWithUser();
    const { org: other } = await a.orgWithUser();
    const { apiKey, key } = await a.apiKeys.create({ orgId: org.id, userId: user.id, name: "ci", permissions: ["read:scans"] });
    await expect(a.apiKeys.revoke(other.id, apiKey.id)).rejects.toMatchObject({ errorCode: "NOT_FOUND" });
    await expect(a.apiKeys.verify(key)).resolves.toBeDefined();
    const revoked = await a.apiKeys.revoke(org.id, apiKey.id);
    expect(revoked.revokedAt).toEqual(a.now());
    a.advance(1000);
    expect((await a.apiKeys.revoke(org.id, apiKey.id)).revokedAt).toEqual(revoked.revokedAt);
    await expect(a.apiKeys.verify(key)).rejects.toMatchObject({ errorCode: "INVALID_TOKEN" });
    expect((await a.apiKeys.list(org.id)).map((k) => k.id)).toEqual([apiKey.id]);
    expect(await a.apiKeys.list(other.id)).toEqual([]);
  });

  it("caps active keys per organization", async () => {
    const a = testAuth({ settings: { maxActiveApiKeys: 2 } });
    const { org, user } = await a.orgWithUser();
    const create = () => a.apiKeys.create({ orgId: org.id, userId: user.id, name: "k", permissions: ["read:scans"] });
    const k1 = await create();
    await create();
    await expect(create()).rejects.toMatchObject({ kind: "quota", errorCode: "API_KEY_LIMIT_EXCEEDED" });
    await a.apiKeys.revoke(org.id, k1.apiKey.id);
    await expect(create()).resolves.toBeDefined();
  });
});
