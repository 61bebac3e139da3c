import net from "node:net";
import { Code, ConnectError } from "@connectrpc/connect";
import { createLogger, createMetrics } from "@vulnscan/kit";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../../gateway/src/app.js";
import { gatewayEnvSchema } from "../../../gateway/src/config.js";
import type { Upstreams } from "../../../gateway/src/upstreams.js";

/*
 * The outside probe of issue 30, at gateway level: what the gateway answers by itself (framework
 * and socket errors, headers, parameter parsing) for each case the probe reproduced. Upstream
 * clients record their calls and answer what each test sets. The same cases against the real
 * system (cursors, login timing, spraying, refresh rotation): test/security/probe.test.ts.
 */

const calls: { service: string; method: string; req: unknown }[] = [];
const answer: (service: string, method: string, req: unknown) => unknown = () => {
  throw new ConnectError("Not found", Code.NotFound);
};
const client = (service: string) =>
  new Proxy({}, { get: (_t, method) => async (req: unknown) => (calls.push({ service, method: String(method), req }), answer(service, String(method), req)) });

let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  const services = ["auth", "scans", "findings", "webhooks", "grc"] as const;
  const upstreams = {
    urls: {},
    health: new Proxy({}, { get: () => client("health") }),
    ...Object.fromEntries(services.map((s) => [s, client(s)])),
  } as unknown as Upstreams;
  app = await buildApp({
    config: gatewayEnvSchema.parse({ SERVICE_VERSION: "0.0.0" }),
    logger: createLogger("security-probe", "silent"),
    registry: createMetrics("security-probe").registry,
    upstreams,
    guard: {
      authenticator: {
        authenticate: async () => ({ kind: "user", orgId: "org_a", userId: "user_1", sessionId: "session_1", email: "a@example.test", token: "t" }),
      },
      limiter: { hit: async () => undefined },
      plans: { rateLimits: async () => ({}) },
    },
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  port = (app.server.address() as net.AddressInfo).port;
});

afterAll(async () => {
  await app?.close();
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends bytes as they are (no client library would send these) and reads until the server closes. */
function raw(request: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    const chunks: Buffer[] = [];
    socket.on("data", (c) => chunks.push(c));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const [head = "", body = ""] = text.split("\r\n\r\n", 2);
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body });
    });
    socket.setTimeout(10_000, () => socket.destroy(new Error("no answer in 10 s")));
    socket.write(request);
  });
}

/** The spec's error shape and nothing else: `detail`, `error_code`, `field` only when a field is at fault. */
function specShaped(body: unknown, code: string) {
  expect(body).toEqual({ detail: expect.any(String), error_code: code });
}

describe("framework and Node errors in the spec's shape (probe item 3)", () => {
  it("a URL that does not percent-decode (GET /api/v1/scans/%ff) is 400 BAD_REQUEST, not FST_ERR_BAD_URL", async () => {
    for (const url of ["/api/v1/scans/%ff", "/api/v1/findings/%E0%A4%A", "/api/v1/scans/%"]) {
      const res = await app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(400);
      specShaped(res.json(), "BAD_REQUEST");
      expect(res.body, url).not.toContain("FST_ERR");
      expect(res.headers["x-content-type-options"], url).toBe("nosniff");
    }
  });

  it("oversized headers are 431 HEADERS_TOO_LARGE in the spec's shape", async () => {
    const res = await raw(`GET /api/v1/scans HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    specShaped(JSON.parse(res.body), "HEADERS_TOO_LARGE");
    expect(Number(res.headers["content-length"])).toBe(Buffer.byteLength(res.body));
  });

  it.each([
    ["Content-Length beside Transfer-Encoding", "POST /api/v1/scans HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"],
    ["a chunk size that is not hex", "POST /api/v1/scans HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n"],
    ["a space in a header name", "GET /api/v1/scans HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n"],
    ["two Content-Length values", "POST /api/v1/scans HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab"],
    ["not HTTP at all", "HELLO\r\n\r\n"],
  ])("malformed framing (%s) is 400 BAD_REQUEST in the spec's shape", async (_what, request) => {
    const res = await raw(request);
    expect(res.status).toBe(400);
    expect(res.headers.connection).toBe("close");
    specShaped(JSON.parse(res.body), "BAD_REQUEST");
  });
});
