import { describe, expect, it } from "vitest";
import { HARDENED_SSH_ALGORITHMS, WEAK_SSH_ALGORITHMS, kexInitPacket } from "../../../../../test/lab/servers/tcp-services.js";
import { sshFindings } from "./analyze.js";
import { parseKexInit, terrapinExposure } from "./kexinit.js";

const greeting = (banner: string, algorithms: typeof WEAK_SSH_ALGORITHMS, pre = "") =>
  Buffer.concat([Buffer.from(`${pre}${banner}\r\n`), kexInitPacket(algorithms)]);
const svc = { host: "10.0.0.2", hostname: "weak.test", port: 22, tls: false, name: "ssh" };

describe("SSH KEXINIT", () => {
  it("parses identification and the server's lists, after pre-banner lines, and waits for a whole packet", () => {
    const full = greeting("SSH-2.0-OpenSSH_7.2p2", WEAK_SSH_ALGORITHMS, "Authorized use only\r\n");
    const k = parseKexInit(full);
    expect(k?.ident).toBe("SSH-2.0-OpenSSH_7.2p2");
    expect(k?.kex).toContain("diffie-hellman-group1-sha1");
    expect(k?.hostKey).toEqual(["ssh-rsa", "ssh-dss", "ecdsa-sha2-nistp256", "ssh-ed25519"]);
    expect(k?.macs).toContain("hmac-md5");
    expect(parseKexInit(full.subarray(0, full.length - 3))).toBeUndefined();
    expect(parseKexInit(Buffer.from("220 ftp ready\r\n"))).toBeUndefined();
  });

  it("finds Terrapin without strict kex, via ChaCha20 or CBC with EtM, and not with strict kex", () => {
    const base = { ident: "SSH-2.0-x", hostKey: [], kex: ["curve25519-sha256"] };
    expect(terrapinExposure({ ...base, ciphers: ["chacha20-poly1305@openssh.com"], macs: [] })).toBe("chacha20-poly1305@openssh.com");
    expect(terrapinExposure({ ...base, ciphers: ["aes128-cbc"], macs: ["hmac-sha2-256-etm@openssh.com"] })).toMatch(/CBC ciphers with Encrypt-then-MAC/);
    expect(terrapinExposure({ ...base, ciphers: ["aes128-cbc", "aes128-ctr"], macs: ["hmac-sha2-256"] })).toBeUndefined();
    expect(
      terrapinExposure({ ...base, kex: ["curve25519-sha256", "kex-strict-s-v00@openssh.com"], ciphers: ["chacha20-poly1305@openssh.com"], macs: [] }),
    ).toBeUndefined();
  });

  it("reports each weak family of the weak server once, and nothing for the hardened one", () => {
    const weak = sshFindings(svc, parseKexInit(greeting("SSH-2.0-OpenSSH_7.2p2", WEAK_SSH_ALGORITHMS))!);
    expect(weak.map((d) => [d.templateId, d.severity])).toEqual([
      ["ssh-terrapin", "medium"],
      ["ssh-weak-kex", "low"],
      ["ssh-weak-hostkey", "low"],
      ["ssh-weak-ciphers", "medium"],
      ["ssh-weak-macs", "low"],
    ]);
    expect(weak[0]!.cveIds).toEqual(["CVE-2023-48795"]);
    expect(weak.find((d) => d.templateId === "ssh-weak-macs")?.description).toContain(
      "Offered: umac-64-etm@openssh.com, hmac-sha1-etm@openssh.com, hmac-sha1, hmac-md5.",
    );
    expect(weak.find((d) => d.templateId === "ssh-weak-kex")?.description).toContain("Offered: diffie-hellman-group14-sha1, diffie-hellman-group1-sha1.");
    expect(sshFindings(svc, parseKexInit(greeting("SSH-2.0-OpenSSH_9.9", HARDENED_SSH_ALGORITHMS))!)).toEqual([]);
  });
});
