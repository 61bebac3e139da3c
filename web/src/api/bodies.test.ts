import { describe, expect, it } from "vitest";
import { evidenceBody, webhookBody } from "./bodies.js";

const form = (entries: [string, string | File][]) => {
  const f = new FormData();
  for (const [k, v] of entries) f.append(k, v);
  return f;
};

describe("webhook bodies", () => {
  const base: [string, string][] = [
    ["name", " ci "],
    ["url", "https://hooks.example.com/x"],
    ["events", "scan.completed"],
    ["events", "vulnerability.critical"],
  ];
  it("sends the typed fields, every checked event, and active only when ticked", () => {
    expect(webhookBody(form(base))).toEqual({
      name: "ci",
      url: "https://hooks.example.com/x",
      events: ["scan.completed", "vulnerability.critical"],
      active: false,
    });
    expect(webhookBody(form([...base, ["active", "on"]])).active).toBe(true);
  });
  it("sends a typed secret, null to remove one, and nothing to keep it", () => {
    expect(webhookBody(form([...base, ["secret", "s3cret-value"]]))).toHaveProperty("secret", "s3cret-value");
    expect(webhookBody(form([...base, ["secret", ""], ["remove_secret", "on"]]))).toHaveProperty("secret", null);
    expect(webhookBody(form([...base, ["secret", ""]]))).not.toHaveProperty("secret");
  });
});

describe("evidence uploads", () => {
  it("sends the chosen file with its name, the non-empty fields, and the expiry at the end of that day (UTC)", () => {
    const file = new File(["hello"], "review.txt", { type: "text/plain" });
    const body = evidenceBody(
      form([
        ["file", file],
        ["title", "Q3 review"],
        ["description", "  "],
        ["expires_at", "2027-03-31"],
      ]),
    );
    expect([...body.keys()].sort()).toEqual(["expires_at", "file", "title"]);
    expect((body.get("file") as File).name).toBe("review.txt");
    expect(body.get("expires_at")).toBe("2027-03-31T23:59:59.000Z");
  });
  it("leaves the file part out when none was chosen, so the API names the missing file", () => {
    expect(evidenceBody(form([["file", new File([], "")]])).has("file")).toBe(false);
  });
});
