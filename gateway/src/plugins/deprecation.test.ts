import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { deprecationHeaders, registerDeprecation } from "./deprecation.js";

describe("deprecated operations", () => {
  it("answer with Deprecation, Sunset and the policy's Link, errors included; others do not", async () => {
    const app = Fastify();
    registerDeprecation(app);
    app.get("/old", { config: { deprecation: { since: "2026-12-01", sunset: "2027-06-30" } } }, async () => ({ ok: true }));
    app.get("/old-failing", { config: { deprecation: { since: "2026-12-01", sunset: "2027-06-30" } } }, async (_req, reply) =>
      reply.code(404).send({ detail: "x" }),
    );
    app.get("/new", async () => ({ ok: true }));
    const old = await app.inject({ method: "GET", url: "/old" });
    expect(old.headers.deprecation).toBe(`@${Date.UTC(2026, 11, 1) / 1000}`);
    expect(old.headers.sunset).toBe("Wed, 30 Jun 2027 00:00:00 GMT");
    expect(old.headers.link).toMatch(/docs\/api-changes\.md>; rel="deprecation"/);
    expect((await app.inject({ method: "GET", url: "/old-failing" })).headers.deprecation).toBeDefined();
    expect((await app.inject({ method: "GET", url: "/new" })).headers.deprecation).toBeUndefined();
  });

  it("refuse a sunset with less than 180 days' notice, or dates that are not dates", () => {
    expect(() => deprecationHeaders({ since: "2026-12-01", sunset: "2027-01-01" })).toThrow(/180 days/);
    expect(() => deprecationHeaders({ since: "soon", sunset: "2027-06-30" })).toThrow(/ISO dates/);
  });
});
