// Readiness probes of the stack's servers spoken over a plain socket: one MongoDB OP_MSG `ping`
// and one Kafka Metadata request. The long-lived `npm start` supervisor runs these while it
// starts the stack; the mongodb driver and kafkajs would cost it about 20 MiB of resident
// memory for two questions (docs/decisions.md, "Compiled deployables").
import net from "node:net";

const PROBE_TIMEOUT_MS = 2_000;

/**
 * Sends one request and resolves with the first whole reply frame (a little-endian int32 length
 * that counts itself for MongoDB, a big-endian one that does not for Kafka), or rejects on a
 * refused connection, a closed socket or the timeout.
 */
function exchange(port: number, request: Buffer, frameLength: (head: Buffer) => number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    let received = Buffer.alloc(0);
    const fail = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    socket.setTimeout(PROBE_TIMEOUT_MS, () => fail(new Error(`no reply from 127.0.0.1:${port} in ${PROBE_TIMEOUT_MS} ms`)));
    socket.once("error", fail);
    socket.once("close", () => reject(new Error(`127.0.0.1:${port} closed the connection before a whole reply`)));
    socket.once("connect", () => socket.write(request));
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length < 4) return;
      const length = frameLength(received);
      if (received.length < length) return;
      socket.destroy();
      resolve(received.subarray(0, length));
    });
  });
}

// --- MongoDB: OP_MSG (opCode 2013) with one body section, {ping: 1, $db: "admin"} ---

const OP_MSG = 2013;

function cstring(s: string): Buffer {
  return Buffer.from(`${s}\0`, "utf8");
}

/** The BSON of `{ping: 1, $db: "admin"}`: an int32 and a string element. */
function pingDocument(): Buffer {
  const db = Buffer.from("admin\0", "utf8");
  const dbLength = Buffer.alloc(4);
  dbLength.writeInt32LE(db.length);
  const one = Buffer.alloc(4);
  one.writeInt32LE(1);
  const body = Buffer.concat([Buffer.from([0x10]), cstring("ping"), one, Buffer.from([0x02]), cstring("$db"), dbLength, db, Buffer.from([0])]);
  const length = Buffer.alloc(4);
  length.writeInt32LE(body.length + 4);
  return Buffer.concat([length, body]);
}

export function mongoPingRequest(requestId: number): Buffer {
  const doc = pingDocument();
  const header = Buffer.alloc(16 + 4 + 1);
  header.writeInt32LE(header.length + doc.length, 0);
  header.writeInt32LE(requestId, 4);
  header.writeInt32LE(0, 8);
  header.writeInt32LE(OP_MSG, 12);
  header.writeUInt32LE(0, 16); // flagBits
  header.writeUInt8(0, 20); // section kind 0: the body
  return Buffer.concat([header, doc]);
}

/** Byte length of a BSON element's value of `type` at `at`, for the types a command reply holds. */
function bsonValueLength(doc: Buffer, type: number, at: number): number | undefined {
  switch (type) {
    case 0x01: // double
    case 0x09: // UTC datetime
    case 0x11: // timestamp
    case 0x12: // int64
      return 8;
    case 0x02: // string
    case 0x0d: // JavaScript code
    case 0x0e: // symbol
      return 4 + doc.readInt32LE(at);
    case 0x03: // document
    case 0x04: // array
      return doc.readInt32LE(at);
    case 0x05: // binary: length, subtype, bytes
      return 4 + 1 + doc.readInt32LE(at);
    case 0x07: // ObjectId
      return 12;
    case 0x08: // boolean
      return 1;
    case 0x0a: // null
    case 0x06: // undefined
    case 0x7f: // max key
    case 0xff: // min key
      return 0;
    case 0x10: // int32
      return 4;
    case 0x13: // decimal128
      return 16;
    default:
      return undefined;
  }
}

/** The numeric `ok` of a top-level BSON document, or undefined when it has none we can read. */
export function bsonOk(doc: Buffer): number | undefined {
  let at = 4;
  const end = Math.min(doc.readInt32LE(0), doc.length) - 1;
  while (at < end) {
    const type = doc.readUInt8(at);
    const nameEnd = doc.indexOf(0, at + 1);
    if (nameEnd < 0) return undefined;
    const name = doc.toString("utf8", at + 1, nameEnd);
    const value = nameEnd + 1;
    if (name === "ok") {
      if (type === 0x01) return doc.readDoubleLE(value);
      if (type === 0x10) return doc.readInt32LE(value);
      if (type === 0x12) return Number(doc.readBigInt64LE(value));
      if (type === 0x08) return doc.readUInt8(value);
      return undefined;
    }
    const length = bsonValueLength(doc, type, value);
    if (length === undefined) return undefined;
    at = value + length;
  }
  return undefined;
}

let requestIds = 0;

/**
 * True when a MongoDB-protocol server on the port answers `ping` with ok: 1 ("answers commands":
 * FerretDB opens its backend lazily, so an open port is not enough); false when it answers
 * anything else; rejects when it does not answer.
 */
export async function mongoPing(port: number): Promise<boolean> {
  const requestId = ++requestIds;
  const reply = await exchange(port, mongoPingRequest(requestId), (head) => head.readInt32LE(0));
  if (reply.length < 21 + 5 || reply.readInt32LE(8) !== requestId || reply.readInt32LE(12) !== OP_MSG) return false;
  // flagBits (4 bytes) at 16; with checksumPresent (bit 0) the body section is still first.
  if (reply.readUInt8(20) !== 0) return false;
  return bsonOk(reply.subarray(21)) === 1;
}

// --- Kafka: Metadata v4 (api key 3) for no topics ---

const METADATA = 3;
const METADATA_VERSION = 4;

export function kafkaMetadataRequest(correlationId: number, clientId = "vulnscan-stack"): Buffer {
  const client = Buffer.from(clientId, "utf8");
  const body = Buffer.alloc(2 + 2 + 4 + 2 + client.length + 4 + 1);
  let at = body.writeInt16BE(METADATA, 0);
  at = body.writeInt16BE(METADATA_VERSION, at);
  at = body.writeInt32BE(correlationId, at);
  at = body.writeInt16BE(client.length, at);
  at += client.copy(body, at);
  // An empty topic list (not null, which would mean every topic), no auto-creation.
  at = body.writeInt32BE(0, at);
  body.writeInt8(0, at);
  const size = Buffer.alloc(4);
  size.writeInt32BE(body.length);
  return Buffer.concat([size, body]);
}

/**
 * The number of brokers a Kafka cluster lists (Metadata v4: correlation id, throttle time, then
 * the broker array). A KRaft broker is listed only once it is registered and unfenced, which is
 * when producers and consumers can use it. Rejects when nothing answers on the port.
 */
export async function kafkaBrokerCount(port: number): Promise<number> {
  const correlationId = ++requestIds;
  const reply = await exchange(port, kafkaMetadataRequest(correlationId), (head) => head.readInt32BE(0) + 4);
  if (reply.length < 16 || reply.readInt32BE(4) !== correlationId) return 0;
  return Math.max(0, reply.readInt32BE(12));
}
