import { createHmac, timingSafeEqual } from "node:crypto";

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookVerificationError";
  }
}

/** A delivery whose signature held: its parsed body and delivery id. */
export interface VerifiedWebhook {
  id: string;
  event: string;
  timestamp: string;
  data: Record<string, unknown>;
}

type Headers = Record<string, string | string[] | undefined> | globalThis.Headers;

function header(headers: Headers, name: string): string | undefined {
  if (typeof (headers as globalThis.Headers).get === "function") return (headers as globalThis.Headers).get(name) ?? undefined;
  const v = (headers as Record<string, string | string[] | undefined>)[name] ?? (headers as Record<string, string | string[] | undefined>)[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

const same = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);

/**
 * Checks a delivery the way the service signs it, before its body is parsed: the Standard
 * Webhooks signature (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>` over
 * `<id>.<timestamp>.<body>`, keyed by the secret's UTF-8 bytes) when its headers are there — it
 * also refuses a timestamp more than `toleranceSeconds` away, so a replay is refused — else
 * `X-Service-Signature: sha256=<hex HMAC-SHA256 of the body>`. Comparisons are constant-time.
 * Pass the raw body bytes exactly as received.
 */
export function verifyWebhook(opts: { body: Buffer | string; headers: Headers; secret: string; toleranceSeconds?: number; now?: number }): VerifiedWebhook {
  const body = typeof opts.body === "string" ? Buffer.from(opts.body, "utf8") : opts.body;
  const id = header(opts.headers, "webhook-id");
  const ts = header(opts.headers, "webhook-timestamp");
  const sig = header(opts.headers, "webhook-signature");
  if (id && ts && sig) {
    const seconds = Number(ts);
    const now = (opts.now ?? Date.now()) / 1000;
    if (!Number.isFinite(seconds) || Math.abs(now - seconds) > (opts.toleranceSeconds ?? 300))
      throw new WebhookVerificationError("webhook-timestamp is too old or too new");
    const expected = createHmac("sha256", opts.secret).update(`${id}.${ts}.`).update(body).digest();
    // The header may carry several signatures (secret rotation), space-separated.
    const ok = sig.split(" ").some((s) => s.startsWith("v1,") && same(Buffer.from(s.slice(3), "base64"), expected));
    if (!ok) throw new WebhookVerificationError("webhook-signature does not match");
  } else {
    const service = header(opts.headers, "x-service-signature");
    if (!service?.startsWith("sha256=")) throw new WebhookVerificationError("no signature header");
    const expected = createHmac("sha256", opts.secret).update(body).digest();
    if (!same(Buffer.from(service.slice(7), "hex"), expected)) throw new WebhookVerificationError("X-Service-Signature does not match");
  }
  return JSON.parse(body.toString("utf8")) as VerifiedWebhook;
}
