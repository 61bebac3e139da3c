import type { FastifyInstance } from "fastify";

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * The operation is deprecated (docs/api-changes.md): every answer says so, and the document
     * marks it `deprecated: true`. `since` and `sunset` are ISO dates; `sunset` is at least
     * 180 days after `since`.
     */
    deprecation?: { since: string; sunset: string };
  }
}

/** Where the change policy and the changelog are: the deprecation's `Link`. */
export const DEPRECATION_POLICY_URL = "https://github.com/vulnscan/vulnscan/blob/main/docs/api-changes.md";

const MIN_NOTICE_DAYS = 180;

/** The headers of a deprecated operation's answers: RFC 9745 `Deprecation`, RFC 8594 `Sunset`, and the policy's link. */
export function deprecationHeaders(d: { since: string; sunset: string }): Record<string, string> {
  const since = Date.parse(d.since);
  const sunset = Date.parse(d.sunset);
  if (Number.isNaN(since) || Number.isNaN(sunset)) throw new Error(`deprecation dates must be ISO dates: ${JSON.stringify(d)}`);
  if (sunset - since < MIN_NOTICE_DAYS * 86_400_000) throw new Error(`a sunset needs at least ${MIN_NOTICE_DAYS} days' notice: ${JSON.stringify(d)}`);
  return {
    deprecation: `@${Math.floor(since / 1000)}`,
    sunset: new Date(sunset).toUTCString(),
    link: `<${DEPRECATION_POLICY_URL}>; rel="deprecation"; type="text/markdown"`,
  };
}

/**
 * Deprecated operations announce it on every answer, errors included. The headers are computed
 * when the route is added, so a route with bad dates or too short a notice fails at start-up,
 * not on a request.
 */
export function registerDeprecation(app: FastifyInstance): void {
  const byRoute = new Map<string, Record<string, string>>();
  app.addHook("onRoute", (route) => {
    const d = route.config?.deprecation;
    if (!d) return;
    const headers = deprecationHeaders(d);
    for (const method of [route.method].flat()) byRoute.set(`${method} ${route.url}`, headers);
  });
  app.addHook("onSend", async (req, reply, payload) => {
    const headers = byRoute.get(`${req.method} ${req.routeOptions.url}`);
    if (headers) reply.headers(headers);
    return payload;
  });
}
