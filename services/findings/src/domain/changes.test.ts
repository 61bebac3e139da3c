import { describe, expect, it } from "vitest";
import { addComment, applyDetection, applyDetections, applyUpdate, EVIDENCE_MAX_CHARS, newFinding, RECENT_DETECTIONS } from "./changes.js";
import { fingerprint } from "./fingerprint.js";
import { detection } from "./test-fixtures.js";
import type { Actor, FindingDoc } from "./types.js";

const t0 = new Date("2026-01-10T10:00:05Z");
const alice: Actor = { user_id: "user_1", api_key_id: "", display_name: "alice@a.test" };
const fresh = (over = {}) => newFinding(detection(over), fingerprint(detection(over)), "finding_1", t0);
const withSet = (f: FindingDoc, set: object) => ({ ...f, ...set }) as FindingDoc;

describe("fingerprint", () => {
  it("is the same for the same org, target, template and component, and differs otherwise", () => {
    const a = fingerprint(detection());
    expect(fingerprint(detection({ scan_id: "scan_2", detection_id: "x", title: "other" }))).toBe(a);
    expect(fingerprint(detection({ template_id: "TLS-Weak-Cipher " }))).toBe(a);
    expect(fingerprint(detection({ org_id: "org_b" }))).not.toBe(a);
    expect(fingerprint(detection({ target: "other.test" }))).not.toBe(a);
    expect(fingerprint(detection({ affected_component: "nginx on 10.0.0.6:443" }))).not.toBe(a);
    expect(a).toMatch(/^fp_[0-9a-f]{64}$/);
  });

  it("cannot be forged by moving separators between parts", () => {
    expect(fingerprint({ org_id: "o", target: "a|b", template_id: "c", affected_component: "d" })).not.toBe(
      fingerprint({ org_id: "o", target: "a", template_id: "b|c", affected_component: "d" }),
    );
  });
});

describe("a new finding", () => {
  it("starts open with the spec's first history entry and emits found + high", () => {
    const { doc, events } = fresh();
    expect(doc).toMatchObject({ status: "open", severity_rank: 2, scan_ids: ["scan_1"], cve_keys: ["CVE-2016-2183"], detection_ids: ["det-1"] });
    expect(doc.history).toEqual([{ action: "created", from: null, to: "open", user: "system", timestamp: t0 }]);
    expect(events.map((e) => e.type)).toEqual(["vulnerability.found", "vulnerability.high"]);
  });

  it("emits vulnerability.critical for a critical one, about the finding as created", () => {
    const { doc, events } = fresh({ severity: "critical", cvss_score: 9.8 });
    expect(events.map((e) => [e.type, e.finding, e.at])).toEqual([
      ["vulnerability.found", doc, t0],
      ["vulnerability.critical", doc, t0],
    ]);
  });

  it("emits only found for medium, low and info", () => {
    for (const severity of ["medium", "low", "info"] as const) expect(fresh({ severity }).events.map((e) => e.type)).toEqual(["vulnerability.found"]);
  });

  it("caps huge evidence", () => {
    const { doc } = fresh({ evidence: { request: "x".repeat(EVIDENCE_MAX_CHARS + 10), response: "", screenshot_url: null } });
    expect(doc.evidence.request.length).toBeLessThan(EVIDENCE_MAX_CHARS + 20);
    expect(doc.evidence.request.endsWith("[truncated]")).toBe(true);
  });
});

describe("a known finding seen again", () => {
  const later = new Date("2026-02-01T00:00:00Z");
  it("changes nothing for a detection it has recorded (redelivery)", () => {
    expect(applyDetection(fresh().doc, detection(), later)).toBeNull();
    const twice = applyDetections(fresh().doc, [detection({ detection_id: "det-2" }), detection(), detection({ detection_id: "det-2" })], later)!;
    expect(twice.set.detection_ids).toEqual(["det-1", "det-2"]);
    expect(applyDetections(withSet(fresh().doc, twice.set), [detection(), detection({ detection_id: "det-2" })], later)).toBeNull();
  });

  it("keeps the latest RECENT_DETECTIONS detection ids", () => {
    const ds = Array.from({ length: RECENT_DETECTIONS + 5 }, (_, i) => detection({ detection_id: `d-${i}` }));
    const c = applyDetections(fresh().doc, ds, later)!;
    expect(c.set.detection_ids).toHaveLength(RECENT_DETECTIONS);
    expect(c.set.detection_ids!.at(-1)).toBe(`d-${RECENT_DETECTIONS + 4}`);
  });

  it("records the scan and last_seen of an open finding without history or events", () => {
    const c = applyDetection(fresh().doc, detection({ detection_id: "det-2", scan_id: "scan_2", detected_at: later }), later)!;
    expect(c.set).toMatchObject({ scan_ids: ["scan_1", "scan_2"], last_seen_at: later, detection_ids: ["det-1", "det-2"] });
    expect(c.set.history).toBeUndefined();
    expect(c.set.status).toBeUndefined();
    expect(c.events).toEqual([]);
  });

  it("reopens a resolved finding: system history entry and a status_changed event", () => {
    const resolved = withSet(fresh().doc, { status: "resolved", resolved_at: t0, resolution_minutes: 0 });
    const c = applyDetection(resolved, detection({ detection_id: "det-2", scan_id: "scan_2", detected_at: later }), later)!;
    expect(c.set).toMatchObject({ status: "open", resolved_at: null, resolution_minutes: null });
    expect(c.set.history!.at(-1)).toEqual({ action: "reopened", from: "resolved", to: "open", user: "system", timestamp: later });
    expect(c.events.map((e) => e.type)).toEqual(["vulnerability.status_changed"]);
    expect(c.events[0]!.status).toEqual({ from: "resolved", to: "open", user: "system" });
    expect(c.events[0]!.finding).toMatchObject({ _id: "finding_1", status: "open" });
  });

  it("keeps false_positive and accepted as they are, recording last_seen", () => {
    for (const status of ["false_positive", "accepted", "in_progress"] as const) {
      const c = applyDetection(withSet(fresh().doc, { status }), detection({ detection_id: "det-3", detected_at: later }), later)!;
      expect(c.set.status).toBeUndefined();
      expect(c.set.last_seen_at).toEqual(later);
      expect(c.events).toEqual([]);
    }
  });

  it("never moves last_seen backwards for an older detection delivered late", () => {
    const f = withSet(fresh().doc, { last_seen_at: later });
    expect(applyDetection(f, detection({ detection_id: "old", detected_at: t0 }), later)!.set.last_seen_at).toEqual(later);
  });
});

describe("triage updates", () => {
  const now = new Date("2026-01-12T10:00:05Z");
  it("records every changed field with the actor and emits status events", () => {
    const c = applyUpdate(
      fresh().doc,
      { status: "resolved", assignee: "bob", priority: "high", due_date: new Date("2026-02-01T00:00:00Z"), notes: "fixed" },
      alice,
      now,
    )!;
    expect(c.set.history!.slice(1).map((h) => [h.action, h.from, h.to, h.user])).toEqual([
      ["status_changed", "open", "resolved", "alice@a.test"],
      ["assignee_changed", null, "bob", "alice@a.test"],
      ["priority_changed", null, "high", "alice@a.test"],
      ["due_date_changed", null, "2026-02-01T00:00:00.000Z", "alice@a.test"],
      ["notes_changed", null, "fixed", "alice@a.test"],
    ]);
    expect(c.set).toMatchObject({ status: "resolved", resolved_at: now, resolution_minutes: 2 * 24 * 60, updated_at: now });
    expect(c.events.map((e) => e.type)).toEqual(["vulnerability.status_changed", "vulnerability.resolved"]);
    expect(c.events[1]).toMatchObject({ at: now, status: { user: "alice@a.test" }, finding: { _id: "finding_1", status: "resolved" } });
  });

  it("is no change when every value is already set (no history, no event)", () => {
    const f = fresh().doc;
    expect(applyUpdate(f, { status: "open", assignee: "", notes: "" }, alice, now)).toBeNull();
  });

  it("clears values and leaves resolution data when leaving resolved", () => {
    const f = withSet(fresh().doc, { status: "resolved", resolved_at: t0, resolution_minutes: 5, assignee: "bob", due_date: now });
    const c = applyUpdate(f, { status: "in_progress", assignee: "", due_date: null }, alice, now)!;
    expect(c.set).toMatchObject({ status: "in_progress", resolved_at: null, resolution_minutes: null, assignee: "", due_date: null });
    expect(c.events.map((e) => e.type)).toEqual(["vulnerability.status_changed"]);
  });

  it("names an API key by its name", () => {
    const c = applyUpdate(fresh().doc, { status: "accepted" }, { user_id: "", api_key_id: "apikey_1", display_name: "ci-bot" }, now)!;
    expect(c.set.history!.at(-1)!.user).toBe("ci-bot");
  });

  it("adds comments with a commented history entry", () => {
    const c = addComment(fresh().doc, { id: "comment_1", user: "alice@a.test", user_id: "user_1", text: "hi", created_at: now });
    expect(c.set.comments).toHaveLength(1);
    expect(c.set.history!.at(-1)).toMatchObject({ action: "commented", to: "comment_1", user: "alice@a.test" });
  });
});
