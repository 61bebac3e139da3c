import { describe, expect, it } from "vitest";
import { parseNetworkList } from "@vulnscan/kit/core";
import { parseTarget } from "./target.js";
import { addressesOf, coverageOf, listAddresses } from "./targets-coverage.js";
import type { TargetRecord } from "./targets-types.js";

const verified = (target: string, kind: TargetRecord["kind"], extra: Partial<TargetRecord> = {}): TargetRecord => ({
  _id: `target_${target}`,
  org_id: "org_1",
  target,
  kind,
  token: "t",
  created_at: new Date(0),
  status: "verified",
  last_error: "",
  include_subdomains: false,
  proven_addresses: [],
  version: 1,
  ...extra,
});

const cover = (text: string, targets: TargetRecord[], addresses: string[] = [], exempt = "203.0.113.0/24") =>
  coverageOf(parseTarget(text), addresses, parseNetworkList(exempt), targets);

describe("coverage of a scan target by verified targets", () => {
  it("enumerates a range first to last, across octets", () => {
    const p = parseTarget("10.0.0.254/31");
    expect(p.kind === "cidr" && addressesOf(p.address, p.prefix).map(String)).toEqual(["10.0.0.254", "10.0.0.255"]);
    const q = parseTarget("10.0.0.0/23");
    const all = q.kind === "cidr" ? addressesOf(q.address, q.prefix).map(String) : [];
    expect(all).toHaveLength(512);
    expect(all[256]).toBe("10.0.1.0");
  });

  it("lists exactly the addresses of a range that no target covers", () => {
    const c = cover("192.0.2.0/28", [verified("192.0.2.0/29", "cidr"), verified("192.0.2.9", "ip")]);
    expect(c.uncovered).toEqual(["192.0.2.8", ...Array.from({ length: 6 }, (_, i) => `192.0.2.${i + 10}`)]);
    expect(cover("192.0.2.0/29", [verified("192.0.2.0/28", "cidr")]).uncovered).toEqual([]);
  });

  it("needs nothing inside the operator's networks, and nothing from the database for them", () => {
    expect(cover("203.0.113.0/24", [])).toMatchObject({ uncovered: [], nameCovered: true });
    expect(cover("lab.example.test", [], ["203.0.113.7"])).toMatchObject({ uncovered: [], nameCovered: true });
  });

  it("a name needs a verified domain (itself, or a parent with include-subdomains) and every address it resolves to proved", () => {
    const txt = verified("example.test", "domain", { include_subdomains: true });
    const exact = verified("shop.example.org", "domain");
    expect(cover("a.example.test", [txt], ["198.51.100.1"])).toMatchObject({ nameCovered: true, uncovered: ["198.51.100.1"] });
    expect(cover("a.example.test", [txt, verified("198.51.100.1", "ip")], ["198.51.100.1"])).toMatchObject({ nameCovered: true, uncovered: [] });
    expect(cover("a.shop.example.org", [exact], ["203.0.113.9", "198.51.100.2"]).nameCovered).toBe(false);
    const http = verified("www.example.org", "domain", { proven_addresses: ["198.51.100.3"] });
    expect(cover("www.example.org", [http], ["198.51.100.3"])).toMatchObject({ nameCovered: true, uncovered: [] });
    expect(cover("www.example.org", [http], ["198.51.100.3", "198.51.100.4"]).uncovered).toEqual(["198.51.100.4"]);
    // An address proved for one name proves it for the organization's other names too, not the name.
    expect(cover("other.example.org", [http], ["198.51.100.3"])).toMatchObject({ nameCovered: false, uncovered: [] });
  });

  it("shortens long lists", () => {
    expect(listAddresses(["a", "b", "c"], 2)).toBe("a, b and 1 more");
  });
});
