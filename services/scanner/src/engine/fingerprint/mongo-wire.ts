import { BSON, type Document } from "bson";
import type { EgressGuard } from "../../net/egress.js";
import { tryExchange } from "./exchange.js";

/*
 * Just enough of the MongoDB wire protocol to ask a server who it is and whether it answers
 * without credentials: OP_MSG (opcode 2013, MongoDB ≥ 3.6) with one body section, and the
 * legacy OP_QUERY on admin.$cmd (opcode 2004) for older servers that do not know OP_MSG.
 */

const OP_QUERY = 2004;
const OP_REPLY = 1;
const OP_MSG = 2013;
let requestId = 1;

export function opMsg(command: Document): Buffer {
  const body = Buffer.from(BSON.serialize(command));
  const header = Buffer.alloc(21);
  header.writeInt32LE(21 + body.length, 0);
  header.writeInt32LE(requestId++, 4);
  header.writeInt32LE(0, 8);
  header.writeInt32LE(OP_MSG, 12);
  header.writeUInt32LE(0, 16); // flagBits
  header.writeUInt8(0, 20); // section kind 0: the body document
  return Buffer.concat([header, body]);
}

export function opQuery(collection: string, query: Document): Buffer {
  const name = Buffer.from(`${collection}\0`, "utf8");
  const doc = Buffer.from(BSON.serialize(query));
  const head = Buffer.alloc(20);
  const total = 16 + 4 + name.length + 8 + doc.length;
  head.writeInt32LE(total, 0);
  head.writeInt32LE(requestId++, 4);
  head.writeInt32LE(0, 8);
  head.writeInt32LE(OP_QUERY, 12);
  head.writeInt32LE(0, 16); // flags
  const skipReturn = Buffer.alloc(8);
  skipReturn.writeInt32LE(0, 0);
  skipReturn.writeInt32LE(-1, 4);
  return Buffer.concat([head, name, skipReturn, doc]);
}

const complete = (b: Buffer) => b.length >= 4 && b.length >= b.readInt32LE(0);

/** The reply document of an OP_MSG or OP_REPLY, or undefined if this is not MongoDB talking. */
export function parseReply(buf: Buffer): Document | undefined {
  if (buf.length < 21 || !complete(buf)) return undefined;
  const opCode = buf.readInt32LE(12);
  try {
    if (opCode === OP_MSG && buf.readUInt8(20) === 0) {
      const len = buf.readInt32LE(21);
      return BSON.deserialize(buf.subarray(21, 21 + len));
    }
    if (opCode === OP_REPLY && buf.length >= 36 + 5) {
      const len = buf.readInt32LE(36);
      return BSON.deserialize(buf.subarray(36, 36 + len));
    }
  } catch {
    return undefined;
  }
  return undefined;
}

export interface MongoOptions {
  guard: EgressGuard;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Runs one command on the admin database (OP_MSG, falling back to OP_QUERY). */
export async function mongoCommand(
  host: string,
  port: number,
  command: Document,
  opts: MongoOptions,
): Promise<{ reply?: Document; raw: Buffer; request: string }> {
  const viaMsg = await tryExchange(host, port, opMsg({ ...command, $db: "admin" }), { ...opts, until: complete });
  const reply = parseReply(viaMsg);
  if (reply) return { reply, raw: viaMsg, request: `OP_MSG ${JSON.stringify({ ...command, $db: "admin" })}` };
  const viaQuery = await tryExchange(host, port, opQuery("admin.$cmd", command), { ...opts, until: complete });
  return { reply: parseReply(viaQuery), raw: viaQuery, request: `OP_QUERY admin.$cmd ${JSON.stringify(command)}` };
}
