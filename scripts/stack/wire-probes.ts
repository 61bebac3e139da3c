// Readiness probes of the stack's servers spoken over a plain socket: one MongoDB OP_MSG `ping`,
// one Kafka Metadata and one FindCoordinator request. The long-lived `npm start` supervisor runs
// these while it starts the stack; the mongodb driver and kafkajs would cost it about 20 MiB of
// resident memory for three questions (docs/decisions.md, "Compiled deployables"). The BSON is the bson
// package's (the driver's own encoder, without the driver).
import net from "node:net";
import { BSON } from "bson";

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

export function mongoPingRequest(requestId: number): Buffer {
  const doc = BSON.serialize({ ping: 1, $db: "admin" });
  const header = Buffer.alloc(16 + 4 + 1);
  header.writeInt32LE(header.length + doc.length, 0);
  header.writeInt32LE(requestId, 4);
  header.writeInt32LE(0, 8);
  header.writeInt32LE(OP_MSG, 12);
  header.writeUInt32LE(0, 16); // flagBits
  header.writeUInt8(0, 20); // section kind 0: the body
  return Buffer.concat([header, doc]);
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
  const body = reply.subarray(21);
  return Number(BSON.deserialize(body.subarray(0, body.readInt32LE(0))).ok) === 1;
}

// --- Kafka: Metadata v4 (api key 3) for no topics; FindCoordinator v0 (api key 10) ---

const METADATA = 3;
const METADATA_VERSION = 4;
const FIND_COORDINATOR = 10;

/** A Kafka request frame: size, then the v1 request header (api key, version, correlation id, client id), then the body. */
function kafkaRequest(apiKey: number, version: number, correlationId: number, clientId: string, body: Buffer): Buffer {
  const client = Buffer.from(clientId, "utf8");
  const header = Buffer.alloc(4 + 2 + 2 + 4 + 2 + client.length);
  let at = header.writeInt32BE(header.length - 4 + body.length, 0);
  at = header.writeInt16BE(apiKey, at);
  at = header.writeInt16BE(version, at);
  at = header.writeInt32BE(correlationId, at);
  at = header.writeInt16BE(client.length, at);
  client.copy(header, at);
  return Buffer.concat([header, body]);
}

export function kafkaMetadataRequest(correlationId: number, clientId = "vulnscan-stack"): Buffer {
  // An empty topic list (not null, which would mean every topic), no auto-creation.
  const body = Buffer.alloc(4 + 1);
  body.writeInt32BE(0, 0);
  body.writeInt8(0, 4);
  return kafkaRequest(METADATA, METADATA_VERSION, correlationId, clientId, body);
}

/** FindCoordinator v0 for a consumer group: its only field is the group id. */
export function kafkaFindCoordinatorRequest(correlationId: number, group: string, clientId = "vulnscan-stack"): Buffer {
  const key = Buffer.from(group, "utf8");
  const body = Buffer.alloc(2 + key.length);
  key.copy(body, body.writeInt16BE(key.length, 0));
  return kafkaRequest(FIND_COORDINATOR, 0, correlationId, clientId, body);
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

/**
 * True when the broker names a coordinator for a consumer group (FindCoordinator v0: correlation
 * id, then error code 0). A new cluster has no `__consumer_offsets` topic: the first such request
 * creates it, and until its partitions have leaders every consumer's join is refused
 * (COORDINATOR_NOT_AVAILABLE) and retried with kafkajs' backoff, about two seconds on a fresh
 * `npm start`; asked here, that wait is the stack's start, not a service's.
 */
export async function kafkaCoordinatorReady(port: number, group = "vulnscan-stack"): Promise<boolean> {
  const correlationId = ++requestIds;
  const reply = await exchange(port, kafkaFindCoordinatorRequest(correlationId, group), (head) => head.readInt32BE(0) + 4);
  return reply.length >= 10 && reply.readInt32BE(4) === correlationId && reply.readInt16BE(8) === 0;
}
