import { describe, expect, it } from "vitest";
import { anchorOf, listQuery, normalizePage, pagesOf } from "../domain/list.js";
import { newFinding } from "../domain/changes.js";
import { detection } from "../domain/test-fixtures.js";
import { afterQuery, filterQuery, listDescription, mongoSort, sortSpec as specOf } from "./list-query.js";

const sortSpec = (field?: "created_at" | "severity" | "cvss_score", order?: "asc" | "desc") => specOf(listQuery({}, field, order).sort);

describe("filters", () => {
  it("scopes by org and turns each filter into an indexed equality", () => {
    expect(filterQuery("org_a", {})).toEqual({ org_id: "org_a" });
    expect(filterQuery("org_a", { severity: "critical", status: "accepted", scan_id: "scan_1", target: "t", tool: "nmap", cve: " cve-2021-44228 " })).toEqual({
      org_id: "org_a",
      severity_rank: 1,
      status: "accepted",
      scan_ids: "scan_1",
      target: "t",
      tool: "nmap",
      cve_keys: "CVE-2021-44228",
    });
  });
});

describe("sorting", () => {
  it("orders created_at by id, severity by rank (critical first when desc), cvss by score, ties by id", () => {
    expect(mongoSort(sortSpec())).toEqual({ _id: -1 });
    expect(mongoSort(sortSpec("created_at", "asc"))).toEqual({ _id: 1 });
    expect(mongoSort(sortSpec("severity", "desc"))).toEqual({ severity_rank: 1, _id: -1 });
    expect(mongoSort(sortSpec("severity", "asc"))).toEqual({ severity_rank: -1, _id: 1 });
    expect(mongoSort(sortSpec("cvss_score", "desc"))).toEqual({ cvss_score: -1, _id: -1 });
    expect(mongoSort(sortSpec("cvss_score", "asc"))).toEqual({ cvss_score: 1, _id: 1 });
  });

  it("continues after a row with a range on (key, id), never a skip", () => {
    expect(afterQuery(sortSpec(), { key: "finding_9", id: "finding_9" })).toEqual({ _id: { $lt: "finding_9" } });
    expect(afterQuery(sortSpec("cvss_score", "desc"), { key: 7.5, id: "finding_5" })).toEqual({
      $or: [{ cvss_score: { $lt: 7.5 } }, { cvss_score: 7.5, _id: { $lt: "finding_5" } }],
    });
    expect(afterQuery(sortSpec("severity", "desc"), { key: 2, id: "finding_5" })).toEqual({
      $or: [{ severity_rank: { $gt: 2 } }, { severity_rank: 2, _id: { $lt: "finding_5" } }],
    });
  });

  it("anchors a row by the key its order compares, as the stored hops do", () => {
    const f = newFinding(detection({ severity: "medium", cvss_score: 5.5 }), "fp", "finding_1", new Date("2026-01-10T10:00:00Z")).doc;
    expect(anchorOf(listQuery({}), f)).toEqual({ key: "finding_1", id: "finding_1" });
    expect(anchorOf(listQuery({}, "severity"), f)).toEqual({ key: 3, id: "finding_1" });
    expect(anchorOf(listQuery({}, "cvss_score", "asc"), f)).toEqual({ key: 5.5, id: "finding_1" });
  });

  it("describes a list for cursors exactly as before the split (issued cursors stay valid)", () => {
    expect(listDescription("org_a", listQuery({ severity: "high", cve: "cve-1" }, "cvss_score", "asc"))).toEqual([
      { org_id: "org_a", severity_rank: 2, cve_keys: "CVE-1" },
      { key: "cvss_score", keyDir: 1, idDir: 1 },
    ]);
  });

  it("applies the pagination defaults and clamps", () => {
    expect(normalizePage(0, 0)).toEqual({ page: 1, perPage: 20, offset: 0 });
    expect(normalizePage(3, 500)).toEqual({ page: 3, perPage: 100, offset: 200 });
    expect(pagesOf(0, 20)).toBe(0);
    expect(pagesOf(41, 20)).toBe(3);
  });
});
