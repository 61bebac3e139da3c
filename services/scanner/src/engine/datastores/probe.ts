import type { EgressGuard } from "../../net/egress.js";
import type { DetectionDraft, Service } from "../types.js";
import { detection } from "../web/check.js";
import { tryExchange } from "../fingerprint/exchange.js";
import { mongoCommand } from "../fingerprint/mongo-wire.js";
import { Site } from "../web/page.js";
import { ELASTICSEARCH_NO_AUTH, MEMCACHED_NO_AUTH, MONGODB_NO_AUTH, REDIS_NO_AUTH } from "./checks.js";

export interface DatastoreContext {
  guard: EgressGuard;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/*
 * Each check sends only read-only, side-effect-free commands (PING/INFO, listDatabases,
 * GET /_cat/indices, stats) and reports only when the server really answered them.
 */

async function redis(svc: Service, dc: DatastoreContext): Promise<DetectionDraft | undefined> {
  const o = { guard: dc.guard, signal: dc.signal, timeoutMs: dc.timeoutMs ?? 3000 };
  const request = "*1\r\n$4\r\nPING\r\n*2\r\n$4\r\nINFO\r\n$6\r\nserver\r\n";
  const answer = (
    await tryExchange(svc.host, svc.port, request, {
      ...o,
      until: (b) => /redis_version:[^\r\n]+\r\n[\s\S]*\r\n\r\n$/.test(b.toString("latin1")) || /^-/.test(b.toString("latin1")),
    })
  ).toString("latin1");
  if (!answer.startsWith("+PONG") || !/redis_version:/.test(answer)) return undefined;
  return detection(REDIS_NO_AUTH, {
    target: svc.hostname ?? svc.host,
    affectedComponent: `redis ${svc.version ?? ""} on ${svc.host}:${svc.port}`.replace("  ", " "),
    evidence: { request: "PING\r\nINFO server", response: answer.slice(0, 800) },
  });
}

async function mongodb(svc: Service, dc: DatastoreContext): Promise<DetectionDraft | undefined> {
  const res = await mongoCommand(
    svc.host,
    svc.port,
    { listDatabases: 1, nameOnly: true },
    { guard: dc.guard, signal: dc.signal, timeoutMs: dc.timeoutMs ?? 3000 },
  );
  const dbs = res.reply?.ok === 1 && Array.isArray(res.reply.databases) ? (res.reply.databases as { name?: string }[]) : undefined;
  if (!dbs) return undefined;
  return detection(MONGODB_NO_AUTH, {
    target: svc.hostname ?? svc.host,
    affectedComponent: `mongodb ${svc.version ?? ""} on ${svc.host}:${svc.port}`.replace("  ", " "),
    detail: `Databases: ${dbs.map((d) => d.name).join(", ")}.`,
    evidence: { request: res.request, response: JSON.stringify(res.reply).slice(0, 800) },
  });
}

async function elasticsearch(svc: Service, dc: DatastoreContext): Promise<DetectionDraft | undefined> {
  const res = await new Site(svc, { guard: dc.guard, signal: dc.signal }).fetch("/_cat/indices?v=false");
  if (res?.status !== 200 || /<html/i.test(res.body.toString("latin1"))) return undefined;
  return detection(ELASTICSEARCH_NO_AUTH, {
    target: svc.hostname ?? svc.host,
    affectedComponent: `elasticsearch ${svc.version ?? ""} on ${svc.host}:${svc.port}`.replace("  ", " "),
    evidence: { request: res.requestText, response: res.responseText.slice(0, 800) },
  });
}

async function memcached(svc: Service, dc: DatastoreContext): Promise<DetectionDraft | undefined> {
  const answer = (
    await tryExchange(svc.host, svc.port, "stats\r\n", {
      guard: dc.guard,
      signal: dc.signal,
      timeoutMs: dc.timeoutMs ?? 3000,
      until: (b) => b.toString("latin1").includes("END\r\n"),
    })
  ).toString("latin1");
  if (!/^STAT pid /m.test(answer)) return undefined;
  return detection(MEMCACHED_NO_AUTH, {
    target: svc.hostname ?? svc.host,
    affectedComponent: `memcached ${svc.version ?? ""} on ${svc.host}:${svc.port}`.replace("  ", " "),
    evidence: { request: "stats", response: answer.slice(0, 800) },
  });
}

const BY_NAME: Record<string, (svc: Service, dc: DatastoreContext) => Promise<DetectionDraft | undefined>> = { redis, mongodb, elasticsearch, memcached };

export async function checkDatastore(svc: Service, dc: DatastoreContext): Promise<DetectionDraft | undefined> {
  const check = svc.name ? BY_NAME[svc.name] : undefined;
  return check ? check(svc, dc) : undefined;
}
