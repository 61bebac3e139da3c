import dgram from "node:dgram";
import ipaddr from "ipaddr.js";

/*
 * A tiny authoritative DNS server on loopback for tests (UDP, one question per query): A, AAAA,
 * TXT and PTR records a test sets and removes while it runs. Unknown names answer NXDOMAIN, known
 * names without the asked type answer NOERROR with no records, as a real server does.
 */

const TYPES = { A: 1, PTR: 12, TXT: 16, AAAA: 28 } as const;
type RecordType = keyof typeof TYPES;

export interface TestDns {
  /** "127.0.0.1:<port>", what DNS_SERVERS takes. */
  server: string;
  set(name: string, type: RecordType, values: string[]): void;
  remove(name: string, type?: RecordType): void;
  /** The PTR name of an address (in-addr.arpa / ip6.arpa). */
  reverseName(address: string): string;
  queries: string[];
  close(): Promise<void>;
}

function encodeName(name: string): Buffer {
  const parts = name
    .replace(/\.$/, "")
    .split(".")
    .filter(Boolean)
    .map((l) => Buffer.concat([Buffer.from([Buffer.byteLength(l)]), Buffer.from(l)]));
  return Buffer.concat([...parts, Buffer.from([0])]);
}

function readName(msg: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let i = offset;
  while (msg[i]! !== 0) {
    const len = msg[i]!;
    labels.push(msg.subarray(i + 1, i + 1 + len).toString());
    i += len + 1;
  }
  return { name: labels.join(".").toLowerCase(), end: i + 1 };
}

function rdata(type: RecordType, value: string): Buffer {
  switch (type) {
    case "A":
    case "AAAA":
      return Buffer.from(ipaddr.parse(value).toByteArray());
    case "PTR":
      return encodeName(value);
    case "TXT": {
      const chunks: Buffer[] = [];
      const all = Buffer.from(value);
      for (let i = 0; i < all.length || i === 0; i += 255) {
        const part = all.subarray(i, i + 255);
        chunks.push(Buffer.from([part.length]), part);
        if (all.length === 0) break;
      }
      return Buffer.concat(chunks);
    }
  }
}

export async function startTestDns(): Promise<TestDns> {
  const records = new Map<string, Map<RecordType, string[]>>();
  const queries: string[] = [];
  const socket = dgram.createSocket("udp4");
  socket.on("message", (msg, rinfo) => {
    if (msg.length < 12) return;
    const { name, end } = readName(msg, 12);
    const qtype = msg.readUInt16BE(end);
    const type = (Object.keys(TYPES) as RecordType[]).find((t) => TYPES[t] === qtype);
    queries.push(`${type ?? qtype} ${name}`);
    const known = records.get(name);
    const values = (type && known?.get(type)) || [];
    const header = Buffer.alloc(12);
    msg.copy(header, 0, 0, 2);
    header.writeUInt16BE(0x8400 | (msg.readUInt16BE(2) & 0x0100) | (known ? 0 : 3), 2); // QR, AA, RD echoed, NXDOMAIN when unknown
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(values.length, 6);
    const question = msg.subarray(12, end + 4);
    const answers = values.map((v) => {
      const data = rdata(type!, v);
      const fixed = Buffer.alloc(12);
      fixed.writeUInt16BE(0xc00c, 0); // the question's name
      fixed.writeUInt16BE(qtype, 2);
      fixed.writeUInt16BE(1, 4);
      fixed.writeUInt32BE(1, 6); // TTL 1 s: a test that changes a record sees it at once
      fixed.writeUInt16BE(data.length, 10);
      return Buffer.concat([fixed, data]);
    });
    socket.send(Buffer.concat([header, question, ...answers]), rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  const { port } = socket.address();
  return {
    server: `127.0.0.1:${port}`,
    queries,
    set(name, type, values) {
      const key = name.toLowerCase().replace(/\.$/, "");
      const byType = records.get(key) ?? new Map();
      byType.set(type, values);
      records.set(key, byType);
    },
    remove(name, type) {
      const key = name.toLowerCase().replace(/\.$/, "");
      if (!type) records.delete(key);
      else records.get(key)?.delete(type);
    },
    reverseName(address) {
      const a = ipaddr.parse(address);
      if (a.kind() === "ipv4") return `${a.toByteArray().reverse().join(".")}.in-addr.arpa`;
      const hex = Buffer.from(a.toByteArray()).toString("hex").split("").reverse().join(".");
      return `${hex}.ip6.arpa`;
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
