import type { FastifyInstance } from "fastify";
import FindMyWay from "find-my-way";
import { errorBody } from "../errors.js";

/**
 * An unknown path answers 404; a known path asked with a method it does not serve answers 405
 * with `Allow` listing the methods it does (RFC 9110 §15.5.6), so a client learns what it got
 * wrong. Fastify's own router only says "not found", so the routes are mirrored into a second
 * router that is asked, per method, whether the path exists.
 */
export function registerMethodNotAllowed(app: FastifyInstance): void {
  const paths = FindMyWay({ ignoreTrailingSlash: true });
  const methods = new Set<string>();
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat()) {
      if (paths.hasRoute(method as FindMyWay.HTTPMethod, route.url)) continue;
      paths.on(method as FindMyWay.HTTPMethod, route.url, () => undefined);
      methods.add(method);
    }
  });
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split("?", 1)[0] ?? "/";
    const allow = [...methods].filter((m) => paths.find(m as FindMyWay.HTTPMethod, path) !== null).sort();
    if (allow.length === 0) return reply.code(404).send(errorBody("Not found", "NOT_FOUND"));
    return reply
      .code(405)
      .header("allow", allow.join(", "))
      .send(errorBody(`${req.method} is not allowed here; allowed: ${allow.join(", ")}`, "METHOD_NOT_ALLOWED"));
  });
}
