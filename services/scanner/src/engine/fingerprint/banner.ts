import type { Service } from "../types.js";

/*
 * Identification from what a service says first (or answers to a line): SSH, FTP and SMTP
 * greetings, the MySQL handshake packet, telnet option negotiation. Pure parsing, no I/O.
 */

export type Identity = Pick<Service, "name" | "product" | "version" | "banner">;

const printable = (b: Buffer) =>
  b
    .toString("latin1")
    .replace(/[^\x20-\x7e\r\n\t]/g, ".")
    .trim()
    .slice(0, 512);

export function parseSsh(text: string): Identity | undefined {
  const m = /^SSH-([\d.]+)-([^\s\r\n]+)(?: ([^\r\n]*))?/.exec(text);
  if (!m) return undefined;
  const software = m[2]!;
  const sw = /^([A-Za-z][\w.-]*?)[_-]v?(\d[\w.]*)/.exec(software);
  return { name: "ssh", product: sw ? sw[1] : software, version: sw ? sw[2] : undefined, banner: text.split(/\r?\n/)[0] };
}

const FTP_PRODUCTS: [RegExp, string][] = [
  [/vsFTPd (\d[\w.]*)/i, "vsftpd"],
  [/ProFTPD (\d[\w.]*)/i, "proftpd"],
  [/Pure-FTPd(?: (\d[\w.]*))?/i, "pure-ftpd"],
  [/FileZilla Server(?: version)? (\d[\w.]*)/i, "filezilla_server"],
];
const SMTP_PRODUCTS: [RegExp, string][] = [
  [/Postfix(?: \(?(\d[\w.]*)\)?)?/i, "postfix"],
  [/Exim (\d[\w.]*)/i, "exim"],
  [/Sendmail (\d[\w.]*)/i, "sendmail"],
];

/** A 220 greeting: FTP or SMTP, told apart by product names, keywords, then the port. */
export function parse220(text: string, port: number): Identity | undefined {
  if (!/^220[ -]/.test(text)) return undefined;
  const first = text.split(/\r?\n/)[0]!;
  for (const [re, product] of FTP_PRODUCTS) {
    const m = re.exec(text);
    if (m) return { name: "ftp", product, version: m[1], banner: first };
  }
  for (const [re, product] of SMTP_PRODUCTS) {
    const m = re.exec(text);
    if (m) return { name: "smtp", product, version: m[1], banner: first };
  }
  if (/E?SMTP/i.test(text) || [25, 465, 587, 2525].includes(port)) return { name: "smtp", banner: first };
  if (/FTP/i.test(text) || [21, 2121].includes(port)) return { name: "ftp", banner: first };
  return { name: "ftp-or-smtp", banner: first };
}

/** MySQL/MariaDB initial handshake (protocol 10) or the error packet a blocked host gets. */
export function parseMysql(buf: Buffer): Identity | undefined {
  if (buf.length < 6) return undefined;
  const len = buf.readUIntLE(0, 3);
  if (len + 4 > buf.length + 64 || buf[3] !== 0) return undefined;
  if (buf[4] === 0x0a) {
    const end = buf.indexOf(0, 5);
    if (end < 0) return undefined;
    const raw = buf.subarray(5, end).toString("latin1");
    if (!/^\d+\.\d+\.\d+/.test(raw)) return undefined;
    const maria = /MariaDB/i.test(raw);
    const version = /(?:5\.5\.5-)?(\d+\.\d+\.\d+)/.exec(raw.replace(/^5\.5\.5-/, ""))?.[1];
    return { name: "mysql", product: maria ? "mariadb" : "mysql", version, banner: `protocol 10, server ${raw}` };
  }
  if (buf[4] === 0xff && buf.length > 7) return { name: "mysql", banner: printable(buf.subarray(7)) };
  return undefined;
}

/** Telnet servers open with IAC option negotiation (0xFF DO/WILL ...). */
export function parseTelnet(buf: Buffer): Identity | undefined {
  if (buf[0] === 0xff && buf.length >= 3 && buf[1]! >= 0xfb && buf[1]! <= 0xfe) return { name: "telnet", banner: printable(buf) };
  return undefined;
}

export function parseBanner(buf: Buffer, port: number): Identity | undefined {
  const text = buf.toString("latin1");
  return parseSsh(text) ?? parse220(text, port) ?? parseMysql(buf) ?? parseTelnet(buf) ?? (buf.length ? { banner: printable(buf) } : undefined);
}

export { printable };
