// The OpenAPI document the gateway serves, written to clients/openapi.json: the client
// libraries (clients/) and the console's API types are generated from this file, and the
// breaking-change check compares it with the last released one. `--check` only says whether the
// committed file is what the route schemas describe now.
import fs from "node:fs";
import path from "node:path";
import { describeApi } from "../gateway/src/describe.js";

export const OPENAPI_PATH = path.join(import.meta.dirname, "..", "clients", "openapi.json");

const rootVersion = (): string => JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "..", "package.json"), "utf8")).version;

/** The document as committed: the gateway's own, versioned like the project, two-space JSON. */
export async function openApiText(): Promise<string> {
  return `${JSON.stringify(await describeApi(rootVersion()), null, 2)}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = await openApiText();
  if (process.argv.includes("--check")) {
    const committed = fs.existsSync(OPENAPI_PATH) ? fs.readFileSync(OPENAPI_PATH, "utf8") : "";
    if (committed !== text) {
      console.error("clients/openapi.json is stale: run `npm run clients`");
      process.exit(1);
    }
  } else {
    fs.writeFileSync(OPENAPI_PATH, text);
    console.log(`openapi: wrote ${path.relative(process.cwd(), OPENAPI_PATH)}`);
  }
}
