import { randomBytes } from "node:crypto";
import net from "node:net";
import type { EgressGuard } from "../../net/egress.js";
import { tryExchange } from "../fingerprint/exchange.js";

/*
 * A hand-built TLS 1.2 ClientHello offering only the cipher suites under test, and a parser for
 * the ServerHello it draws. OpenSSL 3 builds no longer contain RC4, DES, 3DES or EXPORT suites,
 * so a Node TLS client cannot even offer them; the server's choice in its ServerHello is all we
 * need to know it accepts one, and no handshake is completed.
 */

export interface Suite {
  id: number;
  name: string;
  kind: "NULL" | "EXPORT" | "RC4" | "DES" | "3DES" | "anonymous";
}

export const WEAK_SUITES: Suite[] = [
  { id: 0x0001, name: "NULL-MD5", kind: "NULL" },
  { id: 0x0002, name: "NULL-SHA", kind: "NULL" },
  { id: 0x003b, name: "NULL-SHA256", kind: "NULL" },
  { id: 0xc006, name: "ECDHE-ECDSA-NULL-SHA", kind: "NULL" },
  { id: 0xc010, name: "ECDHE-RSA-NULL-SHA", kind: "NULL" },
  { id: 0xc015, name: "AECDH-NULL-SHA", kind: "NULL" },
  { id: 0x0003, name: "EXP-RC4-MD5", kind: "EXPORT" },
  { id: 0x0006, name: "EXP-RC2-CBC-MD5", kind: "EXPORT" },
  { id: 0x0008, name: "EXP-DES-CBC-SHA", kind: "EXPORT" },
  { id: 0x0014, name: "EXP-EDH-RSA-DES-CBC-SHA", kind: "EXPORT" },
  { id: 0x0004, name: "RC4-MD5", kind: "RC4" },
  { id: 0x0005, name: "RC4-SHA", kind: "RC4" },
  { id: 0xc011, name: "ECDHE-RSA-RC4-SHA", kind: "RC4" },
  { id: 0xc007, name: "ECDHE-ECDSA-RC4-SHA", kind: "RC4" },
  { id: 0x0009, name: "DES-CBC-SHA", kind: "DES" },
  { id: 0x000a, name: "DES-CBC3-SHA", kind: "3DES" },
  { id: 0x0016, name: "EDH-RSA-DES-CBC3-SHA", kind: "3DES" },
  { id: 0xc012, name: "ECDHE-RSA-DES-CBC3-SHA", kind: "3DES" },
  { id: 0xc008, name: "ECDHE-ECDSA-DES-CBC3-SHA", kind: "3DES" },
  { id: 0x0018, name: "ADH-RC4-MD5", kind: "anonymous" },
  { id: 0x001b, name: "ADH-DES-CBC3-SHA", kind: "anonymous" },
  { id: 0x0034, name: "ADH-AES128-SHA", kind: "anonymous" },
  { id: 0xc018, name: "AECDH-AES128-SHA", kind: "anonymous" },
];

const u16 = (n: number) => Buffer.from([(n >> 8) & 255, n & 255]);
const u24 = (n: number) => Buffer.from([(n >> 16) & 255, (n >> 8) & 255, n & 255]);
const ext = (type: number, body: Buffer) => Buffer.concat([u16(type), u16(body.length), body]);

export function buildClientHello(suites: number[], servername?: string): Buffer {
  const exts: Buffer[] = [];
  if (servername && !net.isIP(servername)) {
    const name = Buffer.from(servername, "ascii");
    const entry = Buffer.concat([Buffer.from([0]), u16(name.length), name]);
    exts.push(ext(0x0000, Buffer.concat([u16(entry.length), entry])));
  }
  const groups = [0x001d, 0x0017, 0x0018];
  exts.push(ext(0x000a, Buffer.concat([u16(groups.length * 2), ...groups.map(u16)])));
  exts.push(ext(0x000b, Buffer.from([1, 0])));
  const sigs = [0x0401, 0x0403, 0x0804, 0x0501, 0x0601, 0x0201, 0x0203];
  exts.push(ext(0x000d, Buffer.concat([u16(sigs.length * 2), ...sigs.map(u16)])));
  exts.push(ext(0xff01, Buffer.from([0]))); // renegotiation_info, empty
  const extensions = Buffer.concat(exts);
  const body = Buffer.concat([
    u16(0x0303), // client_version TLS 1.2
    randomBytes(32),
    Buffer.from([0]), // no session id
    u16(suites.length * 2),
    ...suites.map(u16),
    Buffer.from([1, 0]), // compression: null only
    u16(extensions.length),
    extensions,
  ]);
  const handshake = Buffer.concat([Buffer.from([1]), u24(body.length), body]);
  return Buffer.concat([Buffer.from([0x16, 0x03, 0x01]), u16(handshake.length), handshake]);
}

export interface ServerHello {
  version: number;
  suite: number;
}

/** The ServerHello in the first record, or undefined for an alert, garbage or silence. */
export function parseServerHello(buf: Buffer): ServerHello | undefined {
  if (buf.length < 5 + 4 + 2 + 32 + 1 || buf[0] !== 0x16 || buf[5] !== 0x02) return undefined;
  const at = 9;
  const version = buf.readUInt16BE(at);
  const sidLen = buf[at + 34]!;
  const suiteAt = at + 35 + sidLen;
  if (buf.length < suiteAt + 2) return undefined;
  return { version, suite: buf.readUInt16BE(suiteAt) };
}

const helloComplete = (b: Buffer) => b.length >= 5 && (b[0] !== 0x16 || b.length >= 5 + b.readUInt16BE(3) || b.length >= 16_000);

/**
 * Which of `suites` the server accepts: offer all, note the one it picks, offer the rest again,
 * until it refuses. One connection per accepted suite plus one.
 */
export async function acceptedSuites(
  host: string,
  port: number,
  suites: Suite[],
  opts: { guard: EgressGuard; timeoutMs: number; servername?: string; signal?: AbortSignal },
): Promise<{ accepted: Suite[]; transcript: string[] }> {
  const remaining = [...suites];
  const accepted: Suite[] = [];
  const transcript: string[] = [];
  while (remaining.length && !opts.signal?.aborted) {
    const answer = await tryExchange(
      host,
      port,
      buildClientHello(
        remaining.map((s) => s.id),
        opts.servername,
      ),
      { ...opts, until: helloComplete },
    );
    const hello = parseServerHello(answer);
    const chosen = hello && remaining.find((s) => s.id === hello.suite);
    transcript.push(
      `ClientHello offering ${remaining.map((s) => s.name).join(", ")} → ` +
        (chosen ? `ServerHello 0x${hello.version.toString(16)} ${chosen.name}` : answer[0] === 0x15 ? "alert (refused)" : "no ServerHello"),
    );
    if (!chosen) break;
    accepted.push(chosen);
    remaining.splice(remaining.indexOf(chosen), 1);
  }
  return { accepted, transcript };
}
