import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { ENUMS_PATH, enumsOf, SCHEMA_PATH, webTypes } from "../../scripts/web-types.js";

// `npm test` runs this: the console's API types are what the OpenAPI document generates now
// (like proto/gen for the protos). A route schema changed without `npx tsx scripts/web-types.ts` fails here.
describe("the console's API types", () => {
  it("are what the OpenAPI document generates (schema.ts and enums.ts committed fresh)", async () => {
    const { schema, enums } = await webTypes();
    expect(fs.readFileSync(SCHEMA_PATH, "utf8") === schema, "web/src/api/schema.ts is stale: run `npx tsx scripts/web-types.ts`").toBe(true);
    expect(fs.readFileSync(ENUMS_PATH, "utf8")).toBe(enums);
  }, 60_000);

  it("read each enum where the document states it, and say so when it does not", () => {
    const doc = {
      paths: {
        "/api/v1/findings": { get: { parameters: [{ in: "query", name: "severity", schema: { enum: ["critical", "high"] } }] } },
      },
    };
    expect(() => enumsOf(doc)).toThrow(/GET \/api\/v1\/findings has no query parameter status/);
  });
});
