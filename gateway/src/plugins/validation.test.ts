import type { AddressInfo } from "node:net";
import type { FastifyPluginAsync } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { buildTestApp } from "../test-app.js";

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

const echo: FastifyPluginAsync = async (app) => {
  app.post(
    "/api/v1/echo",
    {
      config: { public: true },
      schema: {
        body: { type: "object", additionalProperties: false, required: ["n"], properties: { n: { type: "integer", minimum: 1 } } },
        response: { 200: { type: "object", additionalProperties: false, properties: { n: { type: "integer" } } } },
      },
    },
    async (req) => ({ n: (req.body as { n: number }).n, dropped: "by the serializer" }),
  );
};

describe("schemas compiled on first use", () => {
  it("every route's request and response schemas compile", async () => {
    const app = await buildTestApp();
    close = () => app.close();
    // What a start compiled before; none of it yet, since no request has come.
    const pending = app.schemasPending();
    expect(pending).toBeGreaterThan(100);
    expect(app.compileSchemas()).toBe(pending);
    expect(app.schemasPending()).toBe(0);
  });

  it("a schema that does not compile is found by compileSchemas", async () => {
    const broken: FastifyPluginAsync = async (app) => {
      app.get("/api/v1/broken", { config: { public: true }, schema: { response: { 200: { $ref: "nowhere#/missing" } } } }, async () => ({}));
    };
    const app = await buildTestApp({ plugins: [broken] });
    close = () => app.close();
    expect(() => app.compileSchemas()).toThrow(/nowhere/);
  });

  it("validates and serializes on the first request as a compiled-at-start schema did", async () => {
    const app = await buildTestApp({ plugins: [echo] });
    close = () => app.close();
    const bad = await app.inject({ method: "POST", url: "/api/v1/echo", payload: { n: 0, extra: true } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error_code).toBe("VALIDATION_ERROR");
    const good = await app.inject({ method: "POST", url: "/api/v1/echo", payload: { n: 3 } });
    expect(good.statusCode).toBe(200);
    expect(good.body).toBe('{"n":3}');
  });

  it("compiles one serializer per distinct response schema, shared by every route that answers in it", async () => {
    const item = { type: "object", additionalProperties: false, properties: { id: { type: "string" } } } as const;
    const route =
      (url: string, schema: object, body: object): FastifyPluginAsync =>
      async (app) => {
        app.get(url, { config: { public: true }, schema: { response: { 200: schema } } }, async () => body);
      };
    const base = await buildTestApp();
    const without = base.schemasPending();
    await base.close();
    const app = await buildTestApp({
      plugins: [
        route("/api/v1/a", item, { id: "a", secret: "dropped" }),
        // The same schema, another plugin context and another object: shared.
        route("/api/v1/b", structuredClone(item), { id: "b", secret: "dropped" }),
        route("/api/v1/c", { type: "object", properties: { n: { type: "integer" } } }, { n: 7, other: "dropped" }),
      ],
    });
    close = () => app.close();
    expect(app.schemasPending() - without).toBe(2);
    expect((await app.inject({ url: "/api/v1/a" })).body).toBe('{"id":"a"}');
    expect((await app.inject({ url: "/api/v1/b" })).body).toBe('{"id":"b"}');
    expect((await app.inject({ url: "/api/v1/c" })).body).toBe('{"n":7}');
  });

  it("compiles the rest in the background once the server listens", async () => {
    const app = await buildTestApp();
    close = () => app.close();
    const before = app.schemasPending();
    expect(before).toBeGreaterThan(100);
    await app.listen({ host: "127.0.0.1", port: 0 });
    expect((app.server.address() as AddressInfo).port).toBeGreaterThan(0);
    // Not all at once: listening does not wait for them.
    expect(app.schemasPending()).toBeGreaterThan(before / 2);
    const deadline = Date.now() + 20_000;
    while (app.schemasPending() > 0) {
      if (Date.now() > deadline) throw new Error("not compiled in the background within 20 s");
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 30_000);
});
