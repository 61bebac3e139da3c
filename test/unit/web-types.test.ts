import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { ENUMS_PATH, enumsOf, webTypes } from "../../scripts/web-types.js";

// `npm test` runs this: the console's API types are what the OpenAPI document generates now
// (like proto/gen for the protos). A route schema changed without `npx tsx scripts/web-types.ts` fails here.
describe("the console's API types", () => {
  it("are what the OpenAPI document generates (enums.ts committed fresh; the operation types are the TypeScript client's)", async () => {
    const { enums } = await webTypes();
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
