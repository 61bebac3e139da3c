/*
 * The SSH algorithm negotiation as a server opens it (RFC 4253 §7.1): after the identification
 * lines, the server's first binary packet is SSH_MSG_KEXINIT listing what it accepts. Reading it
 * needs no key exchange and no login; nothing here sends anything but our identification line.
 */

export interface KexInit {
  /** The server's identification line ("SSH-2.0-OpenSSH_9.6p1 ..."). */
  ident: string;
  kex: string[];
  hostKey: string[];
  /** Client-to-server and server-to-client lists, merged: what either direction accepts. */
  ciphers: string[];
  macs: string[];
}

const SSH_MSG_KEXINIT = 20;

/** Parses identification + first packet; undefined until both are complete (or when it is not SSH). */
export function parseKexInit(data: Buffer): KexInit | undefined {
  // Servers may send other lines before the identification (RFC 4253 §4.2).
  let at = 0;
  let ident: string | undefined;
  while (at < data.length && ident === undefined) {
    const nl = data.indexOf(0x0a, at);
    if (nl < 0) return undefined;
    const line = data.subarray(at, nl).toString("latin1").replace(/\r$/, "");
    at = nl + 1;
    if (line.startsWith("SSH-")) ident = line;
  }
  if (ident === undefined || data.length < at + 6) return undefined;
  const packetLength = data.readUInt32BE(at);
  if (packetLength > 35_000 || packetLength < 2) return undefined;
  if (data.length < at + 4 + packetLength) return undefined;
  const payload = data.subarray(at + 5, at + 4 + packetLength - data[at + 4]!);
  if (payload[0] !== SSH_MSG_KEXINIT || payload.length < 17) return undefined;
  let p = 17; // message id + 16-byte cookie
  const lists: string[][] = [];
  for (let i = 0; i < 10; i++) {
    if (p + 4 > payload.length) return undefined;
    const len = payload.readUInt32BE(p);
    if (p + 4 + len > payload.length) return undefined;
    const text = payload.subarray(p + 4, p + 4 + len).toString("latin1");
    lists.push(text ? text.split(",") : []);
    p += 4 + len;
  }
  const [kex, hostKey, encCs, encSc, macCs, macSc] = lists as [string[], string[], string[], string[], string[], string[]];
  const union = (a: string[], b: string[]) => [...new Set([...a, ...b])];
  return { ident, kex, hostKey, ciphers: union(encCs, encSc), macs: union(macCs, macSc) };
}

/** Algorithms considered weak (RFC 9142, RFC 8758, NIST SP 800-131A, ssh-audit's lists). */
export const WEAK = {
  kex: (a: string) => /-sha1($|@)|^diffie-hellman-group1-|^rsa1024-|^gss-.*sha1/.test(a),
  hostKey: (a: string) => /^ssh-dss|^ssh-rsa(-cert-v01@openssh\.com)?$/.test(a),
  cipher: (a: string) => /-cbc($|@)|^arcfour|^des|^3des|^blowfish|^cast128|^none$/.test(a),
  mac: (a: string) => /md5|-96($|@)|^umac-64|^hmac-sha1(-etm@openssh\.com)?$|^none$/.test(a),
};

/**
 * Terrapin (CVE-2023-48795): a prefix-truncation attack on ChaCha20-Poly1305, and on CBC modes
 * with Encrypt-then-MAC, that strict key exchange (kex-strict-s-v00@openssh.com) prevents.
 */
export function terrapinExposure(k: KexInit): string | undefined {
  if (k.kex.includes("kex-strict-s-v00@openssh.com")) return undefined;
  const chacha = k.ciphers.filter((c) => c === "chacha20-poly1305@openssh.com");
  const cbcEtm = k.ciphers.some((c) => /-cbc($|@)/.test(c)) ? k.macs.filter((m) => m.endsWith("-etm@openssh.com")) : [];
  const modes = [...chacha, ...(cbcEtm.length ? [`CBC ciphers with Encrypt-then-MAC (${cbcEtm.join(", ")})`] : [])];
  return modes.length ? modes.join("; ") : undefined;
}
