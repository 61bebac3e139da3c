import { describe, expect, it } from "vitest";
import { CachedWebhooks } from "./cached-webhooks.js";
import { MemoryWebhooks } from "../testing/memory.js";

class CountingWebhooks extends MemoryWebhooks {
  reads = 0;
  override async subscribed(orgId: string, event: string) {
    this.reads++;
    await new Promise((r) => setTimeout(r, 10));
    return super.subscribed(orgId, event);
  }
}

describe("CachedWebhooks", () => {
  it("answers concurrent misses of one organization and event with one read", async () => {
    const inner = new CountingWebhooks();
    const cache = new CachedWebhooks(inner, 60_000);
    const answers = await Promise.all(Array.from({ length: 50 }, () => cache.subscribed("org_a", "scan.completed")));
    expect(answers.every((a) => Array.isArray(a) && a.length === 0)).toBe(true);
    expect(inner.reads).toBe(1);
    await cache.subscribed("org_b", "scan.completed");
    expect(inner.reads).toBe(2);
  });

  it("does not keep a read that a write overtook", async () => {
    const inner = new CountingWebhooks();
    const cache = new CachedWebhooks(inner, 60_000);
    const before = cache.subscribed("org_a", "scan.completed"); // in flight while the webhook is created
    const now = new Date();
    await cache.insert({
      id: "wh_1",
      orgId: "org_a",
      name: "n",
      url: "https://example.test/hook",
      events: ["scan.completed"],
      active: true,
      createdAt: now,
      updatedAt: now,
    } as Parameters<MemoryWebhooks["insert"]>[0]);
    await before;
    expect((await cache.subscribed("org_a", "scan.completed")).map((w) => w.id)).toEqual(["wh_1"]);
  });
});
