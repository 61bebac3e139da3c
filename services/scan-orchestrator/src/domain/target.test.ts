import { DomainError } from "@vulnscan/kit/core";
import { describe, expect, it } from "vitest";
import { fakeResolver } from "./testing.js";
import { parseNetworkList } from "@vulnscan/kit/core";
import { checkRangeSize, hostCount, parseTarget, TargetPolicy, type ParsedTarget } from "./target.js";

function fieldOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return `${err.errorCode}:${err.field}`;
    throw err;
  }
  return undefined;
}

async function refusal(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
    return undefined;
  } catch (err) {
    if (err instanceof DomainError) return `${err.field}: ${err.message}`;
    throw err;
  }
}

describe("parseTarget", () => {
  it.each([
    ["example.com", "domain"],
    ["sub.example.co.uk", "domain"],
    ["xn--bcher-kva.example", "domain"],
    ["  example.com  ", "domain"],
    ["a-b.example", "domain"],
    ["93.184.216.34", "ip"],
    ["2606:2800:220:1:248:1893:25c8:1946", "ip"],
    ["::1", "ip"],
    ["203.0.113.0/28", "cidr"],
    ["2001:db8::/120", "cidr"],
    ["10.0.0.5/24", "cidr"],
  ])("accepts %s as %s", (input, kind) => {
    expect(parseTarget(input).kind).toBe(kind);
  });

  it.each([
    "",
    "   ",
    "localhost",
    "example",
    "-bad.example.com",
    "bad-.example.com",
    "exa mple.com",
    "under_score.example.com",
    "https://example.com",
    "example.com/path",
    "example.com:443",
    "1.2.3.999",
    "1.2.3",
    "10.1",
    "0x0a.0.0.1",
    "010.0.0.1",
    "256.1.1.1",
    "1.2.3.4/33",
    "1.2.3.4/",
    "1.2.3.4/-1",
    "2001:db8::/129",
    "fe80::1%eth0",
    `${"a".repeat(64)}.example.com`,
    `${"a.".repeat(127)}com`,
  ])("refuses %j on field target", (input) => {
    expect(fieldOf(() => parseTarget(input))).toBe("VALIDATION_ERROR:target");
  });

  it("counts hosts", () => {
    expect(hostCount(parseTarget("example.com"))).toBe(1);
    expect(hostCount(parseTarget("1.2.3.4"))).toBe(1);
    expect(hostCount(parseTarget("1.2.3.0/24"))).toBe(256);
    expect(hostCount(parseTarget("2001:db8::/120"))).toBe(256);
  });
});

describe("checkRangeSize (plan CIDR cap; IPv6 compared as prefix - 96)", () => {
  it.each([
    ["203.0.113.0/28", 28, true],
    ["203.0.113.0/27", 28, false],
    ["203.0.113.0/24", 24, true],
    ["203.0.112.0/23", 24, false],
    ["203.0.112.0/20", 20, true],
    ["203.0.96.0/19", 20, false],
    ["2001:db8::/124", 28, true],
    ["2001:db8::/123", 28, false],
    ["2001:db8::/116", 20, true],
    ["2001:db8::/64", 20, false],
    ["1.2.3.4", 28, true],
    ["example.com", 28, true],
  ])("%s with min prefix /%i → allowed %s", (target, min, ok) => {
    const f = fieldOf(() => checkRangeSize(parseTarget(target), min));
    expect(f === undefined).toBe(ok);
    if (!ok) expect(f).toBe("VALIDATION_ERROR:target");
  });

  it("says the cap in the message", () => {
    expect(() => checkRangeSize(parseTarget("203.0.113.0/24"), 28)).toThrow(/\/28/);
  });
});

describe("TargetPolicy", () => {
  const resolver = fakeResolver({
    "public.example": ["93.184.216.34"],
    "internal.example": ["10.1.2.3"],
    "mixed.example": ["93.184.216.34", "127.0.0.1"],
    "lab.example": ["127.0.0.1"],
    "meta.example": ["169.254.169.254"],
  });
  const strict = new TargetPolicy({ allowPrivate: false, allowedNetworks: undefined, resolver });
  const check = (p: TargetPolicy, t: string) => refusal(p.check(parseTarget(t) as ParsedTarget));

  it.each(["93.184.216.34", "8.8.8.0/24", "2606:2800:220:1:248:1893:25c8:1946", "public.example"])("allows public %s", async (t) => {
    expect(await check(strict, t)).toBeUndefined();
  });

  it.each([
    ["127.0.0.1", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.5.4", "private"],
    ["192.168.1.0/24", "private"],
    ["169.254.169.254", "cloud metadata"],
    ["169.254.10.10", "linkLocal"],
    ["100.64.0.1", "carrierGradeNat"],
    ["224.0.0.1", "multicast"],
    ["0.0.0.0", "unspecified"],
    ["255.255.255.255", "broadcast"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "linkLocal"],
    ["fd00:ec2::254", "cloud metadata"],
    ["fc00::1", "uniqueLocal"],
    ["ff02::1", "multicast"],
    ["::ffff:10.0.0.1", "private"],
    ["192.0.2.0/28", "reserved"],
    ["internal.example", "private"],
    ["mixed.example", "loopback"],
    ["meta.example", "cloud metadata"],
  ])("refuses %s (%s) on field target", async (t, why) => {
    const r = await check(strict, t);
    expect(r).toMatch(/^target: /);
    expect(r).toContain(why);
  });

  it("refuses a range that only partly covers a special range", async () => {
    // 192.0.0.0/20 starts in 192.0.0.0/24 (reserved); 198.51.96.0/20 holds 198.51.100.0/24 (documentation).
    expect(await check(strict, "198.51.96.0/20")).toMatch(/reserved/);
  });

  it("refuses domains that do not resolve whenever there is something to check", async () => {
    expect(await check(strict, "nowhere.example")).toMatch(/does not resolve/);
  });

  it("allows private targets when SCAN_ALLOW_PRIVATE_TARGETS is set, and then skips DNS", async () => {
    const open = new TargetPolicy({ allowPrivate: true, allowedNetworks: undefined, resolver });
    expect(await check(open, "127.0.0.1")).toBeUndefined();
    expect(await check(open, "10.0.0.0/24")).toBeUndefined();
    expect(await check(open, "nowhere.example")).toBeUndefined();
  });

  it("keeps targets inside SCAN_ALLOWED_NETWORKS (ranges fully inside, domains on every address)", async () => {
    const lab = new TargetPolicy({
      allowPrivate: true,
      allowedNetworks: parseNetworkList("127.0.0.0/8, 10.200.0.0/16,::1"),
      resolver,
    });
    expect(await check(lab, "127.0.0.1")).toBeUndefined();
    expect(await check(lab, "127.0.0.0/24")).toBeUndefined();
    expect(await check(lab, "10.200.3.0/24")).toBeUndefined();
    expect(await check(lab, "::1")).toBeUndefined();
    expect(await check(lab, "lab.example")).toBeUndefined();
    expect(await check(lab, "10.201.0.1")).toMatch(/SCAN_ALLOWED_NETWORKS/);
    expect(await check(lab, "10.200.0.0/15")).toMatch(/SCAN_ALLOWED_NETWORKS/);
    expect(await check(lab, "public.example")).toMatch(/SCAN_ALLOWED_NETWORKS.*93\.184\.216\.34/);
    expect(await check(lab, "mixed.example")).toMatch(/SCAN_ALLOWED_NETWORKS/);
    expect(await check(lab, "nowhere.example")).toMatch(/does not resolve/);
  });

  it("applies both rules when private targets are refused and an allowlist is set", async () => {
    const both = new TargetPolicy({ allowPrivate: false, allowedNetworks: parseNetworkList("10.0.0.0/8,93.184.216.0/24"), resolver });
    expect(await check(both, "10.0.0.1")).toMatch(/private/);
    expect(await check(both, "93.184.216.34")).toBeUndefined();
  });
});
