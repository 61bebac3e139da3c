import { ConnectError } from "@connectrpc/connect";
import type { FastifyError, FastifyInstance } from "fastify";
import { HttpError, httpErrorOfConnect } from "../errors.js";

interface AjvIssue {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: { missingProperty?: string; additionalProperty?: string; allowedValues?: unknown[] };
}

/** Names the request field at fault in an ajv issue: `target`, `update.status`, `per_page`. */
export function fieldOf(issue: AjvIssue): string | undefined {
  const path = (issue.instancePath ?? "").replace(/^\//, "").replace(/\//g, ".");
  const leaf = issue.params?.missingProperty ?? issue.params?.additionalProperty;
  if (leaf) return path ? `${path}.${leaf}` : leaf;
  return path || undefined;
}

function messageOf(issue: AjvIssue, field: string | undefined): string {
  if (issue.params?.additionalProperty) return `Unknown field: ${field}`;
  if (issue.params?.missingProperty) return `Field required: ${field}`;
  if (issue.params?.allowedValues) return `${field} must be one of: ${issue.params.allowedValues.join(", ")}`;
  return field ? `${field} ${issue.message ?? "is invalid"}` : (issue.message ?? "Invalid request");
}

const clientErrorCodes: Record<number, [string, string]> = {
  400: ["BAD_REQUEST", "Malformed request body"],
  404: ["NOT_FOUND", "Not found"],
  405: ["METHOD_NOT_ALLOWED", "Method not allowed"],
  413: ["PAYLOAD_TOO_LARGE", "Request body too large"],
  415: ["UNSUPPORTED_MEDIA_TYPE", "Unsupported content type"],
};

/** The single error handler: every failure leaves in the spec's shape; 5xx never shows internals. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | Error, req, reply) => {
    let http: HttpError;
    if (err instanceof HttpError) http = err;
    else if (err instanceof ConnectError) http = httpErrorOfConnect(err);
    else if ("validation" in err && Array.isArray(err.validation) && err.validation.length > 0) {
      const issue = err.validation[0] as AjvIssue;
      const field = fieldOf(issue);
      http = new HttpError(422, "VALIDATION_ERROR", messageOf(issue, field), field);
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
