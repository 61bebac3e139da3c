import { describe, expect, it } from "vitest";
import { testGrc } from "../testing.js";
import { controlIdOf } from "./view.js";

const ORG = "org_a";
const cc61 = controlIdOf(ORG, "soc2:CC6.1");
const pci = controlIdOf(ORG, "pci_dss:6.2.4");
const sqli = [
  { name: "soc2", controls: ["CC6.1", "CC7.1"] },
  { name: "pci_dss", controls: ["6.2.4", "not-a-ref"] },
];

describe("controls", () => {
  it("a change that fails rejects for its caller only: no unhandled rejection, the next change runs", async () => {
    const t = await testGrc();
    const unhandled: unknown[] = [];
    const listen = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", listen);
    try {
      await expect(t.controls.settle(ORG, "system", async () => Promise.reject(new Error("index row size exceeds maximum")))).rejects.toThrow("index row size");
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
      await t.controls.update(ORG, cc61, { status: "implemented" }, "Ana");
      expect(await t.controls.get(ORG, cc61)).toMatchObject({ status: "implemented" });
    } finally {
      process.off("unhandledRejection", listen);
    }
  });

  it("two replicas settling one organization at once publish each change once", async () => {
    const t = await testGrc();
    const other = t.replica();
    await Promise.all([t.controls.update(ORG, cc61, { status: "implemented" }, "Ana"), other.controls.update(ORG, pci, { status: "implemented" }, "Ben")]);
    const changed = t.eventsOf("control.status_changed").map((e) => (e.payload?.value as { controlId: string } | undefined)?.controlId);
    expect(changed.sort()).toEqual([cc61, pci].sort());
    expect(await other.controls.get(ORG, cc61)).toMatchObject({ status: "implemented" });
  });

  it("lists the whole catalogue per organization, filtered by framework and status and paged", async () => {
    const t = await testGrc();
    const all = await t.controls.list(ORG, {}, 1, 20);
    expect(all.total).toBe(t.catalogue.controls.length);
    expect(all.items[0]).toMatchObject({ id: controlIdOf(ORG, "soc2:CC1.1"), framework: "soc2", ref: "CC1.1", status: "not_started", evidenceCount: 0 });
    const soc2 = await t.controls.list(ORG, { framework: "soc2" }, 2, 50);
    expect(soc2).toMatchObject({ total: 61, page: 2, perPage: 50 });
    expect(soc2.items).toHaveLength(11);
    expect((await t.controls.list("org_b", {}, 1, 1)).items[0]!.id).not.toBe(all.items[0]!.id);
    await expect(t.controls.list(ORG, { framework: "sox" }, 1, 20)).rejects.toMatchObject({ field: "framework" });
    await expect(t.controls.list(ORG, { status: "done" }, 1, 20)).rejects.toMatchObject({ field: "status" });
    await expect(t.controls.get("org_b", "ctrl_nope")).rejects.toMatchObject({ errorCode: "NOT_FOUND" });
  });

  it("answers not modified while the version a caller holds is current, and a page again after any change", async () => {
    const t = await testGrc();
    const cc61 = controlIdOf(ORG, "soc2:CC6.1");
    const first = await t.controls.list(ORG, {}, 1, 100);
    expect(await t.controls.list(ORG, {}, 1, 100, first.version)).toEqual({ version: first.version, notModified: true });
    await expect(t.controls.list(ORG, { status: "done" }, 1, 100, first.version)).rejects.toMatchObject({ field: "status" });
    await t.controls.update(ORG, cc61, { owner: "ana@example.test" }, "Ana");
    const after = await t.controls.list(ORG, {}, 1, 100, first.version);
    expect(after.notModified).toBe(false);
    expect(after.version).not.toBe(first.version);
    expect(await t.controls.list(ORG, {}, 1, 100, undefined)).toMatchObject({ notModified: false, total: first.total });
  });

  it("updates status, owner and notes; a status change emits control.status_changed and the score", async () => {
    const t = await testGrc();
    const c = await t.controls.update(ORG, cc61, { status: "implemented", owner: " ana@example.com ", notes: "SSO everywhere" }, "Ana");
    expect(c).toMatchObject({ status: "implemented", setStatus: "implemented", owner: "ana@example.com", notes: "SSO everywhere" });
    expect(t.eventsOf("control.status_changed").map((e) => e.payload?.value)).toEqual([
      expect.objectContaining({ controlId: cc61, from: "not_started", to: "implemented", user: "Ana", frameworks: ["soc2"] }),
    ]);
    expect(t.eventsOf("framework.score_changed").map((e) => e.payload?.value)).toEqual([
      expect.objectContaining({ framework: "soc2", previousScore: 0, score: 1.6 }),
    ]);
    await t.controls.update(ORG, cc61, { owner: "bo" }, "Ana");
    expect(t.eventsOf("control.status_changed", "framework.score_changed")).toHaveLength(2);
    await expect(t.controls.update(ORG, cc61, { status: "failing" }, "Ana")).rejects.toMatchObject({ field: "status" });
    await expect(t.controls.update("org_b", cc61, { status: "implemented" }, "Ana")).rejects.toMatchObject({ errorCode: "NOT_FOUND" });
    const soc2 = (await t.controls.frameworks(ORG)).find((f) => f.id === "soc2");
    expect(soc2).toMatchObject({ implemented: 1, total: 61, score: 1.6 });
  });

  it("a critical finding turns its controls failing, resolving restores the set status, and redelivery emits nothing", async () => {
    const t = await testGrc();
    await t.controls.update(ORG, cc61, { status: "implemented" }, "Ana");
    const before = t.stores.events.length;
    const found = { orgId: ORG, findingId: "finding_1", severity: "critical", frameworks: sqli };
    await t.findings.found(found);
    const failing = await t.controls.list(ORG, { status: "failing" }, 1, 100);
    expect(failing.items.map((c) => c.key).sort()).toEqual(["pci_dss:6.2.4", "soc2:CC6.1", "soc2:CC7.1"]);
    expect(await t.controls.get(ORG, cc61)).toMatchObject({ status: "failing", setStatus: "implemented", findingIds: ["finding_1"] });
    const changed = t.stores.events.slice(before);
    expect(changed.filter((e) => e.type === "control.status_changed").map((e) => (e.payload?.value as { user: string } | undefined)?.user)).toEqual([
      "system",
      "system",
      "system",
    ]);
    expect(changed.filter((e) => e.type === "framework.score_changed").map((e) => (e.payload?.value as { framework: string } | undefined)?.framework)).toEqual([
      "soc2",
    ]);

    const n = t.stores.events.length;
    await t.findings.found(found);
    await t.findings.statusChanged({ orgId: ORG, findingId: "finding_1", to: "in_progress" });
    expect(t.stores.events.length).toBe(n);

    await t.findings.statusChanged({ orgId: ORG, findingId: "finding_1", to: "resolved" });
    expect(await t.controls.get(ORG, cc61)).toMatchObject({ status: "implemented", findingIds: [] });
    expect((await t.controls.get(ORG, pci)).status).toBe("not_started");
    expect(
      t.stores.events
        .slice(n)
        .map((e) => e.type)
        .sort(),
    ).toEqual(["control.status_changed", "control.status_changed", "control.status_changed", "framework.score_changed"]);
    // A redelivered found after the resolution does not reopen the link.
    await t.findings.found(found);
    expect((await t.controls.get(ORG, cc61)).status).toBe("implemented");
  });

  it("serves its cached view for viewMaxAgeMs, then sees another replica's change by the stored version", async () => {
    const t = await testGrc({ viewMaxAgeMs: 60_000 });
    await t.controls.update(ORG, cc61, { status: "in_progress" }, "Ana");
    // Another replica stores a change and a new version.
    await t.stores.controls.set(ORG, cc61, "soc2:CC6.1", { set_status: "implemented" });
    t.stores.states.set(ORG, { ...t.stores.states.get(ORG)!, version: "from-another-replica" });
    expect((await t.controls.get(ORG, cc61)).status).toBe("in_progress");
    const fresh = await testGrc();
    await fresh.controls.update(ORG, cc61, { status: "in_progress" }, "Ana");
    await fresh.stores.controls.set(ORG, cc61, "soc2:CC6.1", { set_status: "implemented" });
    fresh.stores.states.set(ORG, { ...fresh.stores.states.get(ORG)!, version: "from-another-replica" });
    expect((await fresh.controls.get(ORG, cc61)).status).toBe("implemented");
  });

  it("medium findings only mark the controls tested; unmapped findings change nothing", async () => {
    const t = await testGrc();
    await t.findings.found({ orgId: ORG, findingId: "finding_2", severity: "medium", frameworks: sqli });
    expect(await t.controls.get(ORG, cc61)).toMatchObject({ status: "not_started", lastTestedAt: new Date("2026-03-01T12:00:00.000Z") });
    await t.findings.found({ orgId: ORG, findingId: "finding_3", severity: "critical", frameworks: [] });
    await t.findings.statusChanged({ orgId: ORG, findingId: "finding_9", to: "resolved" });
    expect(t.eventsOf("control.status_changed")).toEqual([]);
  });
});
