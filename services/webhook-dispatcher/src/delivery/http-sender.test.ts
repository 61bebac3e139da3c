import fs from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { parseNetworkList } from "@vulnscan/kit/networks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { selfSignedCertificates } from "../../../../test/support/tls.js";
import { UrlPolicy } from "./url-policy.js";
import { HttpSender } from "./http-sender.js";

/*
 * The sender against a real loopback HTTPS server with a throwaway CA. `hooks.test` resolves
 * only through the policy's resolver (to 127.0.0.1): the system resolver has never heard of it,
 * so a success proves the connection went to the checked address, with SNI and the certificate
 * still checked for the name.
 */
let server: https.Server;
let port: number;
let ca: string;
const requests: { path: string; headers: Record<string, unknown> }[] = [];

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sender-test-"));
  const tls = selfSignedCertificates(dir, "127.0.0.1", "hooks.test");
  ca = fs.readFileSync(tls.ca, "utf8");
  server = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    requests.push({ path: req.url ?? "", headers: req.headers });
    req.resume();
    if (req.url === "/ok") return res.writeHead(204).end();
    if (req.url === "/big") return res.writeHead(200).end(Buffer.alloc(4 * 1024 * 1024, 97));
    if (req.url === "/redirect") return res.writeHead(302, { location: "https://127.0.0.1:1/internal" }).end();
    if (req.url === "/busy") return res.writeHead(429, { "retry-after": "120" }).end();
    // /slow: never answers
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

function sender(allowed = "127.0.0.1/32", timeoutMs = 2000) {
  const policy = new UrlPolicy({ allowPrivate: true, allowed: parseNetworkList(allowed), resolve: async () => [{ address: "127.0.0.1", family: 4 }] });
  return new HttpSender(policy, { ca, timeoutMs, maxBodyBytes: 1024 });
}

const send = (s: HttpSender, p: string, host = "hooks.test") =>
  s.send({ url: `https://${host}:${port}${p}`, headers: { "x-service-event": "scan.completed" }, body: "{}" });

describe("HttpSender", () => {
  it("connects to the checked address (no second lookup) and reports a 2xx", async () => {
    const r = await send(sender(), "/ok");
    expect(r).toMatchObject({ responseCode: 204 });
    expect(r.error).toBeUndefined();
    expect(requests.at(-1)).toMatchObject({ path: "/ok", headers: { "x-service-event": "scan.completed" } });
  });

  it("does not follow redirects, honours Retry-After, caps the body it reads", async () => {
    const s = sender();
    expect(await send(s, "/redirect")).toMatchObject({ responseCode: 302, error: expect.stringMatching(/redirects are not followed/) });
    expect(requests.some((r) => r.path === "/internal")).toBe(false);
    expect(await send(s, "/busy")).toMatchObject({ responseCode: 429, retryAfterMs: 120_000 });
    const big = await send(s, "/big");
    expect(big.responseCode).toBe(200);
  });

  it("gives up at the deadline with no answer", async () => {
    const r = await send(sender(undefined, 300), "/slow");
    expect(r).toMatchObject({ responseCode: 0, error: expect.stringMatching(/no answer within/) });
    expect(r.responseTimeMs).toBeLessThan(2000);
  });

  it("refuses at attempt time an address the policy refuses, without connecting", async () => {
    const before = requests.length;
    const r = await send(sender("10.0.0.0/8"), "/ok");
    expect(r).toMatchObject({ responseCode: 0, error: expect.stringMatching(/outside WEBHOOK_ALLOWED_NETWORKS/) });
    expect(requests.length).toBe(before);
  });
});
