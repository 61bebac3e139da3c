import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { ConnectError } from "@connectrpc/connect";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { HttpError, httpErrorOfConnect } from "../errors.js";
import { type AjvIssue, fieldErrorsOf } from "./field-errors.js";

export { fieldOf } from "./field-errors.js";

const clientErrorCodes: Record<number, [string, string]> = {
  400: ["BAD_REQUEST", "Malformed request body"],
  404: ["NOT_FOUND", "Not found"],
  405: ["METHOD_NOT_ALLOWED", "Method not allowed"],
  413: ["PAYLOAD_TOO_LARGE", "Request body too large"],
  415: ["UNSUPPORTED_MEDIA_TYPE", "Unsupported content type"],
};

/** The single error handler: every failure leaves in the spec's shape; 5xx never shows internals. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.addHook("onRequest", async (_req, reply) => {
    reply.headers(API_HEADERS);
  });
  app.setErrorHandler((err: FastifyError | Error, req, reply) => {
    let http: HttpError;
    if (err instanceof HttpError) http = err;
    else if (err instanceof ConnectError) http = httpErrorOfConnect(err);
    else if ("validation" in err && Array.isArray(err.validation) && err.validation.length > 0) {
      // Every field error at once, in plain words; the first is the spec's `detail` and `field`.
      const errors = fieldErrorsOf(err.validation as AjvIssue[]);
      const first = errors[0]!;
      http = new HttpError(422, "VALIDATION_ERROR", first.detail, first.field, {}, errors);
    } else if ("statusCode" in err && typeof err.statusCode === "number" && err.statusCode >= 400 && err.statusCode < 500) {
      const [code, detail] = clientErrorCodes[err.statusCode] ?? ["BAD_REQUEST", "Bad request"];
      http = new HttpError(err.statusCode, code, detail);
    } else {
      http = new HttpError(500, "INTERNAL_ERROR", "Internal server error");
    }
    if (http.status >= 500) req.log.error({ err }, "request failed");
    return reply.code(http.status).headers(http.headers).send(http.body());
  });
}

/**
 * What every answer carries: no browser may sniff a JSON answer into HTML or script (set for
 * routed requests by registerErrorHandling's hook, by hand on the paths below that bypass hooks).
 */
export const API_HEADERS = { "x-content-type-options": "nosniff" } as const;

/**
 * Errors Fastify answers before routing (Fastify's `frameworkErrors` option): a URL whose
 * percent-encoding does not decode (`/api/v1/scans/%ff`) is a 400 in the spec's shape, not
 * Fastify's own `{"error","code":"FST_ERR_BAD_URL"}`.
 */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const http =
    err.code === "FST_ERR_BAD_URL"
      ? new HttpError(400, "BAD_REQUEST", "Malformed URL: a percent-encoded sequence does not decode")
      : new HttpError(500, "INTERNAL_ERROR", "Internal server error");
  if (http.status >= 500) req.log.error({ err }, "request failed");
  void reply
    .code(http.status)
    .headers({ ...API_HEADERS, "cache-control": "no-store" })
    .send(http.body());
}

/** Node's parser errors, by code: what the client did wrong, in the spec's terms. */
function clientErrorOf(code: string | undefined): HttpError {
  if (code === "HPE_HEADER_OVERFLOW") return new HttpError(431, "HEADERS_TOO_LARGE", "Request headers too large");
  if (code === "ERR_HTTP_REQUEST_TIMEOUT") return new HttpError(408, "REQUEST_TIMEOUT", "The request was not received in time");
  return new HttpError(400, "BAD_REQUEST", "Malformed HTTP request");
}

/**
 * Node's `clientError` (Fastify's `clientErrorHandler` option): oversized headers, bad framing
 * (a Content-Length beside Transfer-Encoding, a bad chunk size, a space in a header name), a
 * request that never finished. No request object exists yet, so the answer is written on the
 * socket by hand, in the spec's shape, and the connection is closed (the stream cannot be trusted
 * past a framing error; Node does the same).
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === "ECONNRESET" || socket.destroyed) return;
  const http = clientErrorOf(err.code);
  const body = JSON.stringify(http.body());
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${http.status} ${STATUS_CODES[http.status]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
