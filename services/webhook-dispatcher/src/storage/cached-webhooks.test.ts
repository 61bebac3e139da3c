import { describe, expect, it } from "vitest";
import { CachedWebhooks } from "./cached-webhooks.js";
import { MemoryWebhooks } from "../testing/memory.js";

class CountingWebhooks extends MemoryWebhooks {
  reads = 0;
  gets = 0;
  override async get(orgId: string, id: string) {
    this.gets++;
    return super.get(orgId, id);
  }
  override async subscribed(orgId: string, event: string) {
    this.reads++;
    await new Promise((r) => setTimeout(r, 10));
    return super.subscribed(orgId, event);
  }
}

type Hook = Parameters<MemoryWebhooks["insert"]>[0];
const hookOf = (): Hook => {
  const now = new Date();
  return {
    id: "wh_1",
    orgId: "org_a",
    name: "n",
    url: "https://example.test/hook",
    events: ["scan.completed"],
    active: true,
    createdAt: now,
    updatedAt: now,
  } as Hook;
};

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
    await cache.insert(hookOf());
    await before;
    expect((await cache.subscribed("org_a", "scan.completed")).map((w) => w.id)).toEqual(["wh_1"]);
  });

  it("answers an attempt's read of a webhook its fan-out just read, until a write", async () => {
    const inner = new CountingWebhooks();
    const cache = new CachedWebhooks(inner, 60_000);
    const hook = hookOf();
    await inner.insert(hook);
    const [found] = await cache.subscribed("org_a", "scan.completed");
    expect((await cache.get("org_a", found!.id))?.url).toBe("https://example.test/hook");
    expect(inner.gets).toBe(0);
    await cache.update({ ...hook, url: "https://example.test/moved" }, false);
    expect((await cache.get("org_a", "wh_1"))?.url).toBe("https://example.test/moved");
    expect(inner.gets).toBe(1);
  });
});
