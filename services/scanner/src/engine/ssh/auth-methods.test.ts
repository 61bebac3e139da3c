import type net from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { ssh as kexInitOnly } from "../../../../../test/lab/servers/tcp-services.js";
import { sshKeysOnly, sshPasswordAuth } from "../../../../../test/lab/servers/ssh-servers.js";
import { EgressGuard } from "../../net/egress.js";
import { analyzeSshService } from "./analyze.js";
import { fetchAuthMethods } from "./auth-methods.js";

/* The "none" authentication request against the lab's SSH servers on loopback. */

const guard = new EgressGuard("127.0.0.0/8");
const servers: net.Server[] = [];
const start = async (listen: (host: string, port: number) => Promise<net.Server>) => {
  const s = await listen("127.0.0.1", 0);
  servers.push(s);
  return (s.address() as net.AddressInfo).port;
};
afterAll(() => {
  for (const s of servers) s.close();
});

describe("SSH authentication methods", () => {
  it("lists what a real server offers after a none request, and reports password authentication", async () => {
    const port = await start(sshPasswordAuth);
    const a = await fetchAuthMethods("127.0.0.1", port, { guard });
    expect(a?.methods).toEqual(["password", "publickey"]);
    expect(a?.negotiated).toMatch(/^kex curve25519-sha256/);
    const found = await analyzeSshService({ host: "127.0.0.1", port, name: "ssh", tls: false }, { guard });
    expect(found.map((d) => [d.templateId, d.severity])).toEqual([["ssh-password-auth", "medium"]]);
  });

  it("reports nothing for a server that offers public keys only", async () => {
    const port = await start(sshKeysOnly);
    expect((await fetchAuthMethods("127.0.0.1", port, { guard }))?.methods).toEqual(["publickey"]);
    expect(await analyzeSshService({ host: "127.0.0.1", port, name: "ssh", tls: false }, { guard })).toEqual([]);
  });

  it("gives up quickly on a server that hangs up at the key exchange, keeping its KEXINIT findings", async () => {
    const port = await start(kexInitOnly);
    const t0 = Date.now();
    expect(await fetchAuthMethods("127.0.0.1", port, { guard })).toBeUndefined();
    const found = await analyzeSshService({ host: "127.0.0.1", port, name: "ssh", tls: false }, { guard });
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(found.map((d) => d.templateId)).toContain("ssh-terrapin");
    expect(found.map((d) => d.templateId)).not.toContain("ssh-password-auth");
  });

  it("refuses a target outside the egress allowlist", async () => {
    await expect(fetchAuthMethods("192.0.2.1", 22, { guard })).rejects.toThrow(/192\.0\.2\.1/);
  });
});
