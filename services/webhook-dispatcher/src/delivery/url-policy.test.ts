import { parseNetworkList } from "@vulnscan/kit/networks";
import { describe, expect, it } from "vitest";
import { UrlPolicy } from "./url-policy.js";

const names: Record<string, string[]> = {
  "public.example.com": ["93.184.216.34"],
  "rebind.example.com": ["127.0.0.1"],
  "mixed.example.com": ["93.184.216.34", "10.0.0.5"],
  "v6.example.com": ["2606:2800:220:1:248:1893:25c8:1946"],
};
const resolve = async (h: string) => (names[h] ?? []).map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
const strict = new UrlPolicy({ allowPrivate: false, allowed: undefined, resolve });

describe("UrlPolicy (SSRF)", () => {
  it.each([
    ["https://127.0.0.1/hook", /loopback/],
    ["https://2130706433/hook", /127\.0\.0\.1 is loopback/], // decimal
    ["https://0177.0.0.1/hook", /127\.0\.0\.1 is loopback/], // octal
    ["https://0x7f.0.0.1/hook", /127\.0\.0\.1 is loopback/], // hex
    ["https://[::ffff:127.0.0.1]/hook", /127\.0\.0\.1 is loopback/], // IPv4-mapped IPv6
    ["https://[64:ff9b::7f00:1]/hook", /rfc6052/], // NAT64
    ["https://0.0.0.0/hook", /unspecified/],
    ["https://[::]/hook", /unspecified/],
    ["https://[::1]/hook", /loopback/],
    ["https://10.1.2.3/hook", /private/],
    ["https://192.168.1.1/hook", /private/],
    ["https://169.254.169.254/latest/meta-data", /linkLocal/], // cloud metadata
    ["https://100.64.0.1/hook", /carrierGradeNat/],
    ["https://224.0.0.1/hook", /multicast/],
    ["https://[fd00:ec2::254]/hook", /uniqueLocal/],
    ["https://rebind.example.com/hook", /loopback/], // a name resolving to 127.0.0.1
    ["https://mixed.example.com/hook", /private/], // one bad answer is enough
    ["https://nowhere.example.com/hook", /does not resolve/],
    ["http://public.example.com/hook", /https/],
    ["not a url", /valid absolute URL/],
    ["https://user:pw@public.example.com/hook", /credentials/],
    ["https://public.example.com:0/hook", /port must be between 1 and 65535/], // security probe, issue 30
    ["https://public.example.com:00/hook", /port must be between 1 and 65535/],
  ])("refuses %s", async (url, why) => {
    await expect(strict.check(url)).rejects.toThrow(why);
  });

  it("allows public addresses and answers the checked address to connect to", async () => {
    await expect(strict.check("https://public.example.com/hook")).resolves.toMatchObject({ address: "93.184.216.34", family: 4 });
    await expect(strict.check("https://v6.example.com/hook")).resolves.toMatchObject({ family: 6 });
  });

  it("lets the operator allow private ranges, always inside WEBHOOK_ALLOWED_NETWORKS", async () => {
    const local = new UrlPolicy({ allowPrivate: true, allowed: parseNetworkList("127.0.0.2/32"), resolve });
    await expect(local.check("https://127.0.0.2:8443/hook")).resolves.toMatchObject({ address: "127.0.0.2" });
    await expect(local.check("https://127.0.0.1/hook")).rejects.toThrow(/outside WEBHOOK_ALLOWED_NETWORKS/);
    await expect(local.check("https://[::ffff:127.0.0.1]/hook")).rejects.toThrow(/outside/);
    await expect(local.check("https://public.example.com/hook")).rejects.toThrow(/outside/);
  });
});
