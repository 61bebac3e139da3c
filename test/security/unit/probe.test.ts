import net from "node:net";
import { Code, ConnectError } from "@connectrpc/connect";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInGateway } from "./gateway.js";

/*
 * The outside probe of issue 30, at gateway level: what the gateway answers by itself (framework
 * and socket errors, headers, parameter parsing) for each case the probe reproduced. Upstream
 * clients record their calls and answer what each test sets. The same cases against the real
 * system (cursors, login timing, spraying, refresh rotation): test/security/probe.test.ts.
 */

const calls: { service: string; method: string; req: unknown }[] = [];
let answer: (service: string, method: string, req: unknown) => unknown = () => {
  throw new ConnectError("Not found", Code.NotFound);
};
const client = (service: string) =>
  new Proxy({}, { get: (_t, method) => async (req: unknown) => (calls.push({ service, method: String(method), req }), answer(service, String(method), req)) });

let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  app = await signedInGateway("security-probe", client);
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

describe("headers and parameters (probe item 6)", () => {
  it("token and refresh answers carry Cache-Control: no-store, and every auth answer does", async () => {
    answer = (service, method) => {
      if (service === "auth" && (method === "issueToken" || method === "refreshToken")) return { accessToken: "a.b.c", expiresIn: 3600 };
      throw new ConnectError("Not found", Code.NotFound);
    };
    try {
      const token = await app.inject({
        method: "POST",
        url: "/api/v1/auth/token",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: "username=a%40example.test&password=pw",
      });
      expect(token.statusCode).toBe(200);
      expect(token.json()).toEqual({ access_token: "a.b.c", token_type: "bearer", expires_in: 3600 });
      const refresh = await app.inject({ method: "POST", url: "/api/v1/auth/refresh", headers: { authorization: "Bearer t" } });
      expect(refresh.statusCode).toBe(200);
      const keys = await app.inject({ method: "GET", url: "/api/v1/auth/api-keys", headers: { authorization: "Bearer t" } });
      for (const res of [token, refresh, keys]) {
        expect(res.headers["cache-control"]).toBe("no-store");
        expect(res.headers.pragma).toBe("no-cache");
      }
      // Not every answer: a list of scans may be cached by the client as it likes (control).
      const scans = await app.inject({ method: "GET", url: "/api/v1/scans/scan_1", headers: { authorization: "Bearer t" } });
      expect(scans.headers["cache-control"]).toBeUndefined();
    } finally {
      answer = () => {
        throw new ConnectError("Not found", Code.NotFound);
      };
    }
  });

  it("API JSON answers carry X-Content-Type-Options: nosniff (success, error, unknown route)", async () => {
    answer = (service) => {
      if (service === "scans") return { scans: [], page: { total: 0, page: 1, perPage: 20, pages: 0 }, nextCursor: "" };
      throw new ConnectError("Not found", Code.NotFound);
    };
    try {
      for (const url of ["/api/v1/scans", "/api/v1/scans/scan_1", "/api/v1/no-such-route", "/api/health"]) {
        const res = await app.inject({ method: "GET", url, headers: { authorization: "Bearer t" } });
        expect(res.headers["x-content-type-options"], `${url} ${res.statusCode}`).toBe("nosniff");
        expect(res.headers["content-type"], url).toMatch(/^application\/json/);
      }
    } finally {
      answer = () => {
        throw new ConnectError("Not found", Code.NotFound);
      };
    }
  });

  it.each(["0x10", "0X10", "0b11", "0o7", "1e1", " ", "", "+0x1", "16.0"])("page=%j is refused with 422 on page, no service called", async (page) => {
    calls.length = 0;
    const res = await app.inject({ method: "GET", url: `/api/v1/findings?page=${encodeURIComponent(page)}`, headers: { authorization: "Bearer t" } });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ error_code: "VALIDATION_ERROR", field: "page" });
    expect(calls).toEqual([]);
  });

  it("page=16 and per_page=020 (decimal, leading zero) still pass to the service (control)", async () => {
    calls.length = 0;
    await app.inject({ method: "GET", url: "/api/v1/findings?page=16&per_page=020", headers: { authorization: "Bearer t" } });
    expect(calls.map((c) => `${c.service}.${c.method}`)).toContain("findings.listFindings");
    expect(calls.find((c) => c.method === "listFindings")?.req).toMatchObject({ pagination: { page: 16, perPage: 20 } });
  });

  it("two files in one evidence upload are 400 BAD_REQUEST saying one file per upload, not 413 'too large'", async () => {
    calls.length = 0;
    const boundary = "----probe";
    const part = (name: string, filename: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\nhello\r\n`;
    const res = await app.inject({
      method: "POST",
      url: "/api/v1/controls/control_1/evidence",
      headers: { authorization: "Bearer t", "content-type": `multipart/form-data; boundary=${boundary}` },
      payload: `${part("file", "a.txt")}${part("file", "b.txt")}--${boundary}--\r\n`,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ detail: "One file per upload: the body holds more than one file part", error_code: "BAD_REQUEST" });
    expect(calls.filter((c) => c.service === "grc" && c.method === "uploadEvidence")).toEqual([]);
  });
});
