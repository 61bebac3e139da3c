import { describe, expect, it } from "vitest";
import { PLANS, testDispatcher } from "../testing.js";

const good = { name: "ci", url: "https://hooks.example.com/in", events: ["scan.completed"] };

describe("WebhookRegistry", () => {
  it("refuses Startup with PLAN_UPGRADE_REQUIRED and enforces the plan's count exactly under concurrency", async () => {
    const startup = testDispatcher({ plan: () => PLANS.startup! });
    await expect(startup.registry.create("org_a", good)).rejects.toMatchObject({ kind: "forbidden", errorCode: "PLAN_UPGRADE_REQUIRED" });
    const t = testDispatcher();
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => t.registry.create("org_a", good)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(5);
    expect((await t.registry.list("org_a", 1, 20)).total).toBe(5);
    const first = (await t.registry.list("org_a", 1, 1)).items[0]!;
    await t.registry.remove("org_a", first.id);
    await expect(t.registry.create("org_a", good)).resolves.toMatchObject({ name: "ci" });
  });

  it.each([
    [{ ...good, events: [] }, "events"],
    [{ ...good, events: ["scan.completed", "auth.session_revoked"] }, "events"],
    [{ ...good, url: "http://hooks.example.com/in" }, "url"],
    [{ ...good, url: "::::" }, "url"],
    [{ ...good, url: "https://127.0.0.1/in" }, "url"],
    [{ ...good, name: " " }, "name"],
    [{ ...good, secret: "short" }, "secret"],
  ])("refuses %j naming the field", async (input, field) => {
    await expect(testDispatcher().registry.create("org_a", input)).rejects.toMatchObject({ kind: "validation", field });
  });

  it("scopes every webhook to its organization and keeps the secret write-only", async () => {
    const t = testDispatcher();
    const w = await t.registry.create("org_a", { ...good, secret: "s3cret-value" });
    await expect(t.registry.get("org_b", w.id)).rejects.toMatchObject({ kind: "not_found" });
    await expect(t.registry.update("org_b", w.id, { name: "x" })).rejects.toMatchObject({ kind: "not_found" });
    await expect(t.registry.remove("org_b", w.id)).rejects.toMatchObject({ kind: "not_found" });
    const updated = await t.registry.update("org_a", w.id, { secret: "", events: ["scan.failed", "scan.failed"] });
    expect(updated.secret).toBeUndefined();
    expect(updated.events).toEqual(["scan.failed"]);
  });
});
