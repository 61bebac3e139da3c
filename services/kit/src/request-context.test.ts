import { context } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import type { UnaryRequest, UnaryResponse } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestArrival, requestContextInterceptor } from "./request-context.js";

describe("requestContextInterceptor", () => {
  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  });
  afterAll(() => context.disable());

  it("gives everything a call runs, across awaits, the moment it arrived; nothing outside a call", async () => {
    expect(requestArrival()).toBeUndefined();
    const before = performance.now();
    const seen: (number | undefined)[] = [];
    const call = requestContextInterceptor(async () => {
      seen.push(requestArrival());
      await new Promise((r) => setTimeout(r, 5));
      seen.push(requestArrival());
      return {} as UnaryResponse;
    });
    await call({} as UnaryRequest);
    expect(seen[0]).toBeGreaterThanOrEqual(before);
    expect(seen[1]).toBe(seen[0]);
    expect(requestArrival()).toBeUndefined();
  });
});
