import fs from "node:fs";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { EventEnvelopeSchema } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import { eventsRoutes, renderCatalogue } from "./index.js";

const doc = JSON.parse(fs.readFileSync(new URL("./asyncapi.json", import.meta.url), "utf8"));

describe("the events catalogue routes", () => {
  it("serve the committed AsyncAPI document as it is, and a page naming every topic and event kind", async () => {
    const app = Fastify();
    await app.register(eventsRoutes());
    const json = await app.inject({ method: "GET", url: "/asyncapi.json" });
    expect(json.statusCode).toBe(200);
    expect(json.headers["content-type"]).toMatch(/^application\/json/);
    expect(json.json()).toEqual(doc);
    const page = await app.inject({ method: "GET", url: "/asyncapi" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.headers["content-security-policy"]).toContain("default-src 'none'");
    for (const c of Object.values(doc.channels) as { address: string }[]) expect(page.body).toContain(`<code>${c.address}</code>`);
    for (const f of EventEnvelopeSchema.oneofs[0]!.fields) {
      expect(page.body).toContain(`<code>${f.name.replace("_", ".")}</code>`);
      expect(page.body).toContain(`id="s-${f.message!.typeName}"`);
    }
    await app.close();
  });

  it("escapes what it renders from the document", () => {
    const evil = structuredClone(doc);
    evil.info.title = "<script>alert(1)</script>";
    const html = renderCatalogue(evil);
    expect(html).not.toContain("<script>");
    expect(html).toContain("&#60;script&#62;");
  });
});
