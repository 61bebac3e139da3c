// A readiness probe speaking the MongoDB wire protocol, so "ready" means "answers commands".

import { exchange } from './process.ts';

function bsonOkIsOne(doc: Buffer): boolean {
  let o = 4;
  while (o < doc.length - 1) {
    const type = doc[o++]!;
    const end = doc.indexOf(0, o);
    if (end < 0) return false;
    const name = doc.toString('utf8', o, end);
    o = end + 1;
    let value: number | undefined;
    let size: number;
    switch (type) {
      case 0x01: value = doc.readDoubleLE(o); size = 8; break;
      case 0x10: value = doc.readInt32LE(o); size = 4; break;
      case 0x12: value = Number(doc.readBigInt64LE(o)); size = 8; break;
      case 0x08: value = doc[o]; size = 1; break;
      case 0x02: case 0x0d: case 0x0e: size = 4 + doc.readInt32LE(o); break;
      case 0x03: case 0x04: size = doc.readInt32LE(o); break;
      case 0x05: size = 5 + doc.readInt32LE(o); break;
      case 0x07: size = 12; break;
      case 0x09: case 0x11: size = 8; break;
      case 0x13: size = 16; break;
      case 0x06: case 0x0a: case 0x7f: case 0xff: size = 0; break;
      default: return false; // a type a ping reply never carries
    }
    if (name === 'ok') return value === 1;
    o += size;
  }
  return false;
}

// OP_MSG {ping: 1, $db: "admin"}: understood by mongod 3.6+ and FerretDB, and answered only once
// the server can run commands (FerretDB opens its SQLite backend lazily).
export async function mongoPing(port: number): Promise<boolean> {
  const elements = Buffer.concat([
    Buffer.from([0x10]), Buffer.from('ping\0'), Buffer.from([1, 0, 0, 0]),
    Buffer.from([0x02]), Buffer.from('$db\0'), Buffer.from([6, 0, 0, 0]), Buffer.from('admin\0'),
  ]);
  const doc = Buffer.alloc(4 + elements.length + 1);
  doc.writeInt32LE(doc.length, 0);
  elements.copy(doc, 4);
  const header = Buffer.alloc(16 + 4 + 1);
  header.writeInt32LE(header.length + doc.length, 0);
  header.writeInt32LE(1, 4); // request id
  header.writeInt32LE(0, 8);
  header.writeInt32LE(2013, 12); // OP_MSG
  header.writeUInt32LE(0, 16); // flags
  header[20] = 0; // section kind 0: body
  const reply = await exchange(port, Buffer.concat([header, doc]), (buf) => (buf.length >= 4 && buf.length >= buf.readInt32LE(0) ? buf.readInt32LE(0) : undefined));
  if (reply.length < 26 || reply.readInt32LE(12) !== 2013 || reply[20] !== 0) return false;
  return bsonOkIsOne(reply.subarray(21));
}

