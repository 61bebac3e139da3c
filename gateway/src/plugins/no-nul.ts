import type { FastifyInstance } from "fastify";
import { HttpError } from "../errors.js";

/**
 * The path (`notes`, `finding_ids.3`) of the first value, depth first, that `test` picks out.
 * Iterative: a body nested a hundred thousand levels deep (which JSON.parse accepts) must get
 * its 422, not overflow the stack into a 500.
 */
export function firstPath(value: unknown, test: (v: unknown) => boolean, root = ""): string | undefined {
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (test(v)) return path || "body";
    if (v && typeof v === "object") {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, child] = entries[i]!;
        stack.push([child, path ? `${path}.${k}` : k]);
      }
    }
  }
  return undefined;
}

/** The path of the first string holding a NUL character, if any. */
export const nulPath = (value: unknown, path = "") => firstPath(value, (v) => typeof v === "string" && v.includes("\u0000"), path);

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

/**
 * No validated number may be infinite or NaN. ajv coerces query text such as `1e400` or
 * `Infinity` to Infinity and its minimum/maximum checks skip non-finite numbers, so
 * `?page=1e400` passed validation and reached a service (issue 14: huge numbers → 4xx).
 * Checked after validation, when coerced values are numbers; a 422 naming the field.
 */
export function registerFiniteNumbers(app: FastifyInstance): void {
  const notFinite = (v: unknown) => typeof v === "number" && !Number.isFinite(v);
  app.addHook("preHandler", (req, _reply, done) => {
    for (const part of [req.params, req.query, req.body]) {
      const field = firstPath(part, notFinite);
      if (field) return done(new HttpError(422, "VALIDATION_ERROR", `${field} must be a finite number`, field));
    }
    done();
  });
}

const DECIMAL: Record<string, RegExp> = {
  integer: /^[+-]?\d+$/,
  number: /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/,
};

/** The numeric type a query property's schema declares (`integer`, `number`), if any. */
function numericType(schema: unknown): string | undefined {
  const t = (schema as { type?: unknown } | undefined)?.type;
  const types = Array.isArray(t) ? t : [t];
  if (types.includes("string")) return undefined; // text is allowed too: nothing to refuse here
  return types.find((name) => name === "integer" || name === "number");
}

/**
 * A number in a query string is written in decimal. ajv coerces with Number(), which also reads
 * `0x10` as 16, `0b11` as 3, `0o7` as 7 and "" or " " as 0: `?page=0x10` answered page 16
 * (issue 30). Checked before validation, on the raw text; a 422 naming the parameter.
 */
export function registerDecimalNumbers(app: FastifyInstance): void {
  app.addHook("preValidation", (req, _reply, done) => {
    const props = (req.routeOptions.schema?.querystring as { properties?: Record<string, unknown> } | undefined)?.properties;
    if (!props || !req.query || typeof req.query !== "object") return done();
    for (const [name, raw] of Object.entries(req.query as Record<string, unknown>)) {
      const type = numericType(props[name]);
      if (!type) continue;
      for (const text of Array.isArray(raw) ? raw : [raw]) {
        if (typeof text === "string" && !DECIMAL[type]!.test(text)) {
          return done(new HttpError(422, "VALIDATION_ERROR", `${name} must be a decimal ${type}`, name));
        }
      }
    }
    done();
  });
}
