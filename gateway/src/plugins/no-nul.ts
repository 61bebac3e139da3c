import type { FastifyInstance } from "fastify";
import { HttpError } from "../errors.js";

/** The path (`notes`, `finding_ids.3`) of the first string holding a NUL character, if any. */
export function nulPath(value: unknown, path = ""): string | undefined {
  if (typeof value === "string") return value.includes("\u0000") ? path || "body" : undefined;
  if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      const found = nulPath(v, path ? `${path}.${k}` : k);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * No request text may hold a NUL character (`\u0000` in JSON, `%00` in a URL): it is never
 * meaningful in this API, and PostgreSQL's jsonb — FerretDB's backend — refuses any document
 * holding one, which would turn a typo into a 500. Refused up front as a 422 naming the field.
 */
export function registerNoNul(app: FastifyInstance): void {
  // A callback hook, not an async one: it runs on every request, and most have nothing to check.
  app.addHook("preValidation", (req, _reply, done) => {
    for (const part of [req.params, req.query, req.body]) {
      const field = nulPath(part);
      if (field) return done(new HttpError(422, "VALIDATION_ERROR", `${field} must not contain NUL characters`, field));
    }
    done();
  });
}
