import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../test-app.js";
import type { PlanCache } from "../plans.js";
import { ERROR_CODES, errorResponses } from "../schemas.js";
import { exampleOf, TAGS } from "./openapi-document.js";

/*
 * The served OpenAPI document as a reader (and schemathesis, which sends the examples) meets it:
 * every operation described, every status it can answer described with a schema, an example
 * for every body and every error code, each example valid against its schema.
 */

interface Media {
  schema?: Record<string, unknown>;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  requestBody?: { content: Record<string, Media> };
  parameters?: { in: string; name: string; example?: unknown }[];
  responses: Record<string, { description: string; content?: Record<string, Media> }>;
}
interface Doc {
  tags: { name: string }[];
  components: { schemas: Record<string, object> };
  paths: Record<string, Record<string, Operation>>;
}

let app: FastifyInstance;
let doc: Doc;
const operations: [string, Operation][] = [];

beforeAll(async () => {
  app = await buildTestApp({ plans: {} as PlanCache });
  doc = app.swagger() as unknown as Doc;
  for (const [path, item] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(item)) operations.push([`${method.toUpperCase()} ${path}`, op]);
});

afterAll(async () => app?.close());

/** A validator of the document's schemas (OpenAPI 3.1 is JSON Schema 2020-12), refs resolved against its components. */
function validator() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: "doc", components: doc.components });
  // One compiled validator per distinct schema: every error response shares ErrorBody.
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  return (schema: object, value: unknown) => {
    const text = JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/');
    let check = compiled.get(text);
    if (!check) {
      check = ajv.compile({ $id: `s${compiled.size}`, ...JSON.parse(text) });
      compiled.set(text, check);
    }
    return check(value) ? [] : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };
}

describe("the OpenAPI document", { timeout: 30_000 }, () => {
  it("describes every operation, with no internal wording in its summary", () => {
    expect(operations.length).toBeGreaterThan(50);
    const undescribed = operations.filter(([, op]) => !op.description?.trim()).map(([name]) => name);
    expect(undescribed).toEqual([]);
    const noisy = operations.filter(([, op]) => /beyond the spec/i.test(`${op.summary} ${op.description}`)).map(([name]) => name);
    expect(noisy).toEqual([]);
  });

  it("declares its tags in reading order, and every tag an operation uses", () => {
    expect(doc.tags.map((t) => t.name)).toEqual(TAGS.map((t) => t.name));
    const used = new Set(operations.flatMap(([, op]) => op.tags ?? []));
    expect([...used].filter((t) => !TAGS.some((d) => d.name === t))).toEqual([]);
  });

  it("describes every status of every operation, none as 'Default Response'", () => {
    const vague = operations.flatMap(([name, op]) =>
      Object.entries(op.responses)
        .filter(([, r]) => !r.description || r.description === "Default Response")
        .map(([status]) => `${name} ${status}`),
    );
    expect(vague).toEqual([]);
  });

  it("gives every error response one example per error code it lists, in the error shape", () => {
    const validate = validator();
    const problems: string[] = [];
    for (const [name, op] of operations) {
      for (const [status, r] of Object.entries(op.responses)) {
        if (Number(status) < 400 || name === "GET /api/health") continue;
        const media = r.content?.["application/json"];
        const examples = Object.entries(media?.examples ?? {});
        if (!media || examples.length === 0) problems.push(`${name} ${status}: no examples`);
        for (const [code, { value }] of examples) {
          const known = ERROR_CODES[code as keyof typeof ERROR_CODES];
          if (!known || String(known.status) !== status) problems.push(`${name} ${status}: ${code} is not a ${status} code`);
          if (!r.description.includes(code)) problems.push(`${name} ${status}: description does not name ${code}`);
          for (const e of validate(media!.schema!, value)) problems.push(`${name} ${status} ${code}: ${e}`);
          if ((value as { error_code?: string }).error_code !== code) problems.push(`${name} ${status}: example of ${code} says otherwise`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("gives every JSON request and success body an example valid against its schema", () => {
    const validate = validator();
    const problems: string[] = [];
    for (const [name, op] of operations) {
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
        if (type === "multipart/form-data") continue; // a file upload; its fields are described
        if (media.example === undefined) problems.push(`${name} request: no example`);
        else for (const e of validate(media.schema!, media.example)) problems.push(`${name} request: ${e}`);
      }
      for (const [status, r] of Object.entries(op.responses)) {
        if (Number(status) >= 300) continue;
        const media = r.content?.["application/json"];
        if (!media) continue;
        if (media.example === undefined) problems.push(`${name} ${status}: no example`);
        else for (const e of validate(media.schema!, media.example)) problems.push(`${name} ${status}: ${e}`);
      }
      for (const p of op.parameters ?? []) if (p.in === "path" && p.example === undefined) problems.push(`${name}: no example for ${p.name}`);
    }
    expect(problems).toEqual([]);
  });

  it("shows a realistic scan quota: a limited plan with its limit, use and remainder", () => {
    const quota = doc.paths["/api/v1/scans/quota"]?.get?.responses["200"]?.content?.["application/json"]?.example as Record<string, unknown>;
    expect(quota.unlimited).toBe(false);
    expect(quota.monthly_limit).toBeGreaterThan(0);
    expect(quota.remaining).toBe((quota.monthly_limit as number) - (quota.used_this_month as number));
  });
});

describe("errorResponses", () => {
  it("answers the common errors plus the codes a route names, grouped by status", () => {
    const r = errorResponses(404, "SCAN_QUOTA_EXCEEDED") as Record<string, { "x-error-codes": string[] }>;
    expect(Object.keys(r)).toEqual(["400", "401", "404", "429", "503", "504"]);
    expect(r["429"]?.["x-error-codes"]).toEqual(["RATE_LIMIT_EXCEEDED", "SCAN_QUOTA_EXCEEDED"]);
    expect(r["404"]?.["x-error-codes"]).toEqual(["NOT_FOUND"]);
  });
});

describe("exampleOf", () => {
  it("builds a valid value from a schema: enums, bounds, formats and id forms", () => {
    expect(
      exampleOf({
        type: "object",
        properties: {
          id: { type: "string", description: "`scan_<id>`" },
          status: { type: "string", enum: ["pending", "completed"] },
          per_page: { type: "integer", minimum: 1, maximum: 100 },
          created_at: { type: "string", format: "date-time" },
          monthly_limit: { type: ["integer", "null"] },
        },
      }),
    ).toEqual({ id: "scan_01JD8N3Q7WX4K2", status: "pending", per_page: 20, created_at: "2026-11-27T09:30:00.000Z", monthly_limit: 1 });
  });
});
