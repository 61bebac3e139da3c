import type { FastifyInstance } from "fastify";
import FindMyWay from "find-my-way";
import { errorBody } from "../errors.js";

/**
 * An unknown path answers 404; a known path asked with a method it does not serve answers 405
 * with `Allow` listing the methods it does (RFC 9110 §15.5.6), so a client learns what it got
 * wrong. Fastify's own router only says "not found", so the routes are mirrored into a second
 * router that is asked, per method, whether the path exists.
 *
 * `Allow` names the methods of the resource the path is, as the OpenAPI document lists them:
 * `/api/v1/findings/bulk` is the bulk resource (POST), not also `/api/v1/findings/{finding_id}`
 * with the id "bulk" (GET, PATCH), although that pattern matches the text too. So of the routes
 * matching the path, only those of the most specific pattern (fewest parameters; the router
 * prefers static segments the same way) count.
 */
export function registerMethodNotAllowed(app: FastifyInstance): void {
  const paths = FindMyWay({ ignoreTrailingSlash: true });
  const methods = new Set<string>();
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat()) {
      if (paths.hasRoute(method as FindMyWay.HTTPMethod, route.url)) continue;
      paths.on(method as FindMyWay.HTTPMethod, route.url, () => undefined, { pattern: route.url });
      methods.add(method);
    }
  });
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split("?", 1)[0] ?? "/";
    const allow = allowedMethods(paths, methods, path);
    if (allow.length === 0) return reply.code(404).send(errorBody("Not found", "NOT_FOUND"));
    return reply
      .code(405)
      .header("allow", allow.join(", "))
      .send(errorBody(`${req.method} is not allowed here; allowed: ${allow.join(", ")}`, "METHOD_NOT_ALLOWED"));
  });
}

function allowedMethods(paths: FindMyWay.Instance<FindMyWay.HTTPVersion.V1>, methods: Set<string>, path: string): string[] {
  const matches = [...methods].flatMap((method) => {
    const found = paths.find(method as FindMyWay.HTTPMethod, path);
    return found ? [{ method, pattern: (found.store as { pattern: string }).pattern, params: Object.keys(found.params).length }] : [];
  });
  if (matches.length === 0) return [];
  const fewest = Math.min(...matches.map((m) => m.params));
  const pattern = matches.find((m) => m.params === fewest)!.pattern;
  return matches
    .filter((m) => m.pattern === pattern)
    .map((m) => m.method)
    .sort();
}
