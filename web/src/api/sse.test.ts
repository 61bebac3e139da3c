import { describe, expect, it } from "vitest";
import { parseSse } from "./sse.js";

describe("server-sent events", () => {
  it("reads complete events and keeps a partial one for the next chunk", () => {
    const first = parseSse('retry: 2000\n\nevent: scan\ndata: {"progress":10}\n\nevent: sc');
    expect(first.events).toEqual([{ event: "scan", data: '{"progress":10}' }]);
    const second = parseSse(`${first.rest}an\ndata: {"progress":20}\n\n: still running\n\nevent: end\ndata: {}\n\n`);
    expect(second.events).toEqual([
      { event: "scan", data: '{"progress":20}' },
      { event: "end", data: "{}" },
    ]);
    expect(second.rest).toBe("");
  });
  it("joins multi-line data, accepts CRLF and defaults the event name", () => {
    expect(parseSse("data: a\r\ndata: b\r\n\r\n").events).toEqual([{ event: "message", data: "a\nb" }]);
  });
});
