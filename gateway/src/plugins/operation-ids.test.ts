import { describe, expect, it } from "vitest";
import { describeApi } from "../describe.js";
import { OPERATION_IDS } from "./operation-ids.js";

describe("operation ids", () => {
  it("name every operation of the document, once each (the client libraries' method names)", async () => {
    const doc = (await describeApi()) as { paths: Record<string, Record<string, { operationId?: string }>> };
    const unnamed: string[] = [];
    const ids: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (op.operationId) ids.push(op.operationId);
        else unnamed.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(unnamed, "add these to gateway/src/plugins/operation-ids.ts").toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    // Every listed operation exists: a stale name would hide a removed route.
    expect(Object.keys(OPERATION_IDS).length).toBe(ids.length);
  });
});
