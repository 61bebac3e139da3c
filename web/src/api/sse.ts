// Server-sent events read from a fetch body (EventSource cannot send the bearer token): the text
// arrives in chunks, events end at a blank line, and only `event:` and `data:` matter here.

export interface SseEvent {
  event: string;
  data: string;
}

/** The complete events at the start of `text`, and what is left for the next chunk. */
export function parseSse(text: string): { events: SseEvent[]; rest: string } {
  const events: SseEvent[] = [];
  const normalized = text.replace(/\r\n?/g, "\n");
  const blocks = normalized.split("\n\n");
  const rest = blocks.pop() ?? "";
  for (const block of blocks) {
    let event = "message";
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) continue; // a comment: the keep-alive
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") event = value;
      else if (field === "data") data.push(value);
    }
    if (data.length) events.push({ event, data: data.join("\n") });
  }
  return { events, rest };
}
