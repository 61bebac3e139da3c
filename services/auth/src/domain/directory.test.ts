import { describe, expect, it } from "vitest";
import { testAuth } from "../testing.js";

describe("organizations", () => {
  it("create with a name and a tier; both required", async () => {
    const a = testAuth();
    const v = await a.directory.createOrganization("  Acme  ", "professional");
    expect(v.organization).toMatchObject({ name: "Acme", tier: "professional", createdAt: a.now() });
    expect(v.organization.id).toMatch(/^org_[0-9a-f]{28}$/);
    expect(v.plan.apiKeysEnabled).toBe(true);
    await expect(a.directory.createOrganization("", "startup")).rejects.toMatchObject({ field: "name" });
    await expect(a.directory.createOrganization("Acme", undefined)).rejects.toMatchObject({ field: "tier" });
  });

  it("set a plan with per-field custom limits, validated", async () => {
    const a = testAuth();
    const { organization: org } = await a.directory.createOrganization("Big", "startup");
    const v = await a.directory.setPlan(org.id, "enterprise", { requestsPerHour: { unlimited: false, max: 42 } });
    expect(v.plan.tier).toBe("enterprise");
    expect(v.plan.limits.requestsPerHour).toEqual({ unlimited: false, max: 42 });
    expect(v.plan.limits.requestsPerDay).toEqual({ unlimited: false, max: 100_000 });
    expect((await a.directory.getPlan(org.id)).limits.requestsPerHour.max).toBe(42);
    // Without custom limits the tier's defaults come back.
    expect((await a.directory.setPlan(org.id, "enterprise")).plan.limits.requestsPerHour.max).toBe(10_000);
    await expect(a.directory.setPlan(org.id, "enterprise", { scansPerMonth: { unlimited: false, max: -1 } })).rejects.toMatchObject({
      field: "custom_limits.scans_per_month",
    });
    await expect(a.directory.setPlan(org.id, "enterprise", { minCidrPrefixLength: 4 })).rejects.toMatchObject({
      field: "custom_limits.min_cidr_prefix_length",
    });
    await expect(a.directory.setPlan("org_missing", "startup")).rejects.toMatchObject({ errorCode: "NOT_FOUND" });
    await expect(a.directory.setPlan(org.id, undefined)).rejects.toMatchObject({ field: "tier" });
  });

  it("list oldest first, paged", async () => {
    const a = testAuth();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await a.directory.createOrganization(`O${i}`, "startup")).organization.id);
      a.advance(10);
    }
    const p = await a.directory.listOrganizations(2, 2);
    expect(p.items.map((v) => v.organization.id)).toEqual(ids.slice(2, 4));
    expect(p).toMatchObject({ total: 5, page: 2, perPage: 2, pages: 3 });
    expect(await a.directory.listOrganizations(0, 500)).toMatchObject({ page: 1, perPage: 100 });
    await expect(a.directory.listOrganizations(-1, 0)).rejects.toMatchObject({ field: "page" });
  });
});

describe("users", () => {
  it("normalise and validate emails, which are unique across organizations", async () => {
    const a = testAuth();
    const { organization: o1 } = await a.directory.createOrganization("One", "startup");
    const { organization: o2 } = await a.directory.createOrganization("Two", "startup");
    const u = await a.directory.createUser(o1.id, "  Jane.Doe@Example.COM ", "long enough password");
    expect(u).toMatchObject({ email: "jane.doe@example.com", orgId: o1.id, mfa: { enabled: false } });
    expect(u.id).toMatch(/^user_/);
    await expect(a.directory.createUser(o2.id, "JANE.DOE@example.com", "long enough password")).rejects.toMatchObject({
      kind: "conflict",
      errorCode: "VALIDATION_ERROR",
      field: "email",
    });
    for (const bad of ["", "no-at-sign", "a@b", "a b@c.de", "a@@c.de"]) {
      await expect(a.directory.createUser(o1.id, bad, "long enough password")).rejects.toMatchObject({ field: "email" });
    }
    await expect(a.directory.createUser(o1.id, "short@example.com", "elevenchars")).rejects.toMatchObject({ field: "password" });
    await expect(a.directory.createUser("org_missing", "x@example.com", "long enough password")).rejects.toMatchObject({ errorCode: "NOT_FOUND" });
  });
});
