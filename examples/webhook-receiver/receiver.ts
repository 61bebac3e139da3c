/*
 * A small webhook receiver that does what the API docs ask of one: it checks the signature over
 * the raw body bytes in constant time, refuses stale timestamps, and processes each delivery id
 * once. Node's standard library only, so it can be copied as it is.
 *
 *   WEBHOOK_SECRET=... TLS_KEY=key.pem TLS_CERT=cert.pem PORT=8443 npx tsx examples/webhook-receiver/receiver.ts
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";

export interface ReceivedDelivery {
  id: string;
  event: string;
  body: string;
  headers: Record<string, string>;
  path: string;
  receivedAt: Date;
}

export interface ReceiverOptions {
  /** The webhook's secret; unset: signatures are not checked (a webhook without a secret). */
  secret?: string;
  key: string | Buffer;
  cert: string | Buffer;
  host?: string;
  port?: number;
  /** Older webhook-timestamps are refused (replays), default 5 minutes. */
  toleranceSeconds?: number;
  /** Called once per new delivery id; its answer (if any) replaces the 200 (tests script failures with it). */
  onDelivery?: (d: ReceivedDelivery) => { status: number; headers?: Record<string, string> } | undefined;
}

/** Constant-time comparison of the spec's `sha256=<hex>` header with the HMAC of the raw body. */
export function validSignature(secret: string, body: Buffer, header: string | undefined): boolean {
  if (!header?.startsWith("sha256=")) return false;
  const expected = Buffer.from(`sha256=${createHmac("sha256", secret).update(body).digest("hex")}`);
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export interface Receiver {
  url: string;
  /** Every request that passed verification, in arrival order (repeats of an id included). */
  requests: ReceivedDelivery[];
  /** Delivery ids processed (each once). */
  processed: Set<string>;
  close(): Promise<void>;
}

export async function startReceiver(opts: ReceiverOptions): Promise<Receiver> {
  const tolerance = opts.toleranceSeconds ?? 300;
  const requests: ReceivedDelivery[] = [];
  const processed = new Set<string>();
  const server = https.createServer({ key: opts.key, cert: opts.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const header = (name: string) => req.headers[name] as string | undefined;
      const answer = (status: number, body: object, headers: Record<string, string> = {}) => {
        res.writeHead(status, { "content-type": "application/json", ...headers });
        res.end(JSON.stringify(body));
      };
      // 1. Signature over the exact bytes received, before any parsing.
      if (opts.secret && !validSignature(opts.secret, raw, header("x-service-signature"))) return answer(401, { error: "bad signature" });
      // 2. Stale deliveries are replays: refuse them.
      const sentAt = Number(header("webhook-timestamp"));
      if (!Number.isFinite(sentAt) || Math.abs(Date.now() / 1000 - sentAt) > tolerance) return answer(401, { error: "stale timestamp" });
      const id = header("x-service-delivery") ?? "";
      const d: ReceivedDelivery = {
        id,
        event: header("x-service-event") ?? "",
        body: raw.toString("utf8"),
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        path: req.url ?? "/",
        receivedAt: new Date(),
      };
      requests.push(d);
      // 3. Idempotency by delivery id: a repeat is acknowledged, not processed again.
      if (processed.has(id)) return answer(200, { duplicate: true });
      const scripted = opts.onDelivery?.(d);
      if (scripted) return answer(scripted.status, { scripted: true }, scripted.headers);
      processed.add(id);
      return answer(200, { ok: true });
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://${opts.host ?? "127.0.0.1"}:${port}`,
    requests,
    processed,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const r = await startReceiver({
    secret: process.env.WEBHOOK_SECRET,
    key: fs.readFileSync(process.env.TLS_KEY ?? "key.pem"),
    cert: fs.readFileSync(process.env.TLS_CERT ?? "cert.pem"),
    port: Number(process.env.PORT ?? 8443),
    host: process.env.HOST ?? "127.0.0.1",
    onDelivery: (d) => void console.log(`${d.receivedAt.toISOString()} ${d.event} ${d.id} ${d.body}`),
  });
  console.log(`listening on ${r.url}`);
}
