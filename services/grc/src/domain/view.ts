import { createHash } from "node:crypto";
import type { Catalogue } from "@vulnscan/compliance-catalogue";
import { notFound } from "@vulnscan/kit/core";
import type { ControlOverride, ControlStatus, ControlView, FindingLink, FrameworkScore, GrcEvent, PublishedState } from "./types.js";

/** An organization's control id: derived from the catalogue key, so it needs no stored document until someone changes it. */
export function controlIdOf(orgId: string, key: string): string {
  return `ctrl_${createHash("sha256").update(`${orgId}|${key}`).digest("hex").slice(0, 28)}`;
}

/** At most this many finding ids are shown on a control (the count is exact). */
const MAX_FINDING_IDS = 100;

/** Everything an organization's listing, detail and scores are computed from, at one version. */
export class OrgView {
  readonly controls: ControlView[];
  private readonly byId: Map<string, ControlView>;

  constructor(
    readonly orgId: string,
    catalogue: Catalogue,
    overrides: ControlOverride[],
    openLinks: FindingLink[],
    evidenceCounts: Map<string, number>,
  ) {
    const byOverride = new Map(overrides.map((o) => [o._id, o]));
    const findings = new Map<string, string[]>();
    for (const link of openLinks) for (const id of link.control_ids) findings.set(id, [...(findings.get(id) ?? []), link.finding_id]);
    this.controls = catalogue.controls.map((c) => {
      const id = controlIdOf(orgId, c.key);
      const o = byOverride.get(id);
      const findingIds = (findings.get(id) ?? []).sort();
      const setStatus = o?.set_status ?? "not_started";
      return {
        id,
        key: c.key,
        framework: c.framework,
        ref: c.ref,
        name: c.name,
        requirement: c.requirement,
        setStatus,
        // Open findings win over what people set; resolving them brings the set status back.
        status: findingIds.length ? "failing" : setStatus,
        owner: o?.owner ?? "",
        notes: o?.notes ?? "",
        evidenceCount: evidenceCounts.get(id) ?? 0,
        findingIds: findingIds.slice(0, MAX_FINDING_IDS),
        openFindingCount: findingIds.length,
        ...(o?.last_tested_at ? { lastTestedAt: o.last_tested_at } : {}),
        ...(o?.updated_at ? { updatedAt: o.updated_at } : {}),
      };
    });
    this.byId = new Map(this.controls.map((c) => [c.id, c]));
  }

  get(id: string): ControlView | undefined {
    return this.byId.get(id);
  }

  /** Statuses other than not_started (the default a missing entry stands for), to publish and diff against. */
  statuses(): Record<string, ControlStatus> {
    return Object.fromEntries(this.controls.filter((c) => c.status !== "not_started").map((c) => [c.id, c.status]));
  }

  scores(catalogue: Catalogue): FrameworkScore[] {
    return catalogue.frameworks.map((f) => {
      const mine = this.controls.filter((c) => c.framework === f.id);
      const count = (s: ControlStatus) => mine.filter((c) => c.status === s).length;
      const notApplicable = count("not_applicable");
      const implemented = count("implemented");
      const applicable = mine.length - notApplicable;
      return {
        id: f.id,
        name: f.name,
        score: applicable > 0 ? Math.round((implemented / applicable) * 1000) / 10 : 0,
        total: mine.length,
        implemented,
        failing: count("failing"),
        notApplicable,
        inProgress: count("in_progress"),
        notStarted: count("not_started"),
      };
    });
  }
}

/**
 * The events a change of an organization's controls causes, diffed against what was last
 * published: only a real change emits, so a redelivered finding event emits nothing.
 * Before anything was published every control was not_started and every score 0.
 */
export function changeEvents(orgId: string, before: PublishedState | null, view: OrgView, scores: FrameworkScore[], user: string): GrcEvent[] {
  const events: GrcEvent[] = [];
  for (const c of view.controls) {
    const from = before?.statuses[c.id] ?? "not_started";
    if (from === c.status) continue;
    events.push({ type: "control.status_changed", orgId, control: c, from, user: c.status === "failing" || from === "failing" ? "system" : user });
  }
  for (const s of scores) {
    const previousScore = before?.scores[s.id] ?? 0;
    if (previousScore !== s.score) events.push({ type: "framework.score_changed", orgId, score: s, previousScore });
  }
  return events;
}

/** The document, or NOT_FOUND naming `what` (another organization's id is unknown too). */
export function found<T>(doc: T | null | undefined, what: string): T {
  if (!doc) throw notFound(what);
  return doc;
}

/** Filters then pages (1-based) a listing in catalogue order. */
export function pageOf<T>(items: T[], page: number, perPage: number) {
  const start = (page - 1) * perPage;
  return { items: items.slice(start, start + perPage), total: items.length, page, perPage };
}
