import { createHmac } from "node:crypto";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { deliveryHeaders, deliveryIdOf } from "./payload.js";

describe("delivery signing", () => {
  const body = JSON.stringify({ id: "delivery_1", event: "scan.completed", timestamp: "2026-03-01T12:00:00.000Z", data: { scan_id: "scan_1" } });
  const now = new Date();
  const headers = deliveryHeaders({ deliveryId: "delivery_1", event: "scan.completed", body, secret: "whsec-not-base64!", now });

  it("signs the exact body with the spec's scheme", () => {
    expect(headers["x-service-signature"]).toBe(`sha256=${createHmac("sha256", "whsec-not-base64!").update(body).digest("hex")}`);
    expect(headers).toMatchObject({ "x-service-event": "scan.completed", "x-service-delivery": "delivery_1", "webhook-id": "delivery_1" });
  });

  it("verifies with the standardwebhooks library (secret as raw bytes), and a tampered body does not", () => {
    const verifier = new StandardWebhook("whsec-not-base64!", { format: "raw" });
    expect(verifier.verify(body, headers)).toMatchObject({ id: "delivery_1" });
    expect(() => verifier.verify(`${body} `, headers)).toThrow();
  });

  it("sends no signature without a secret", () => {
    const plain = deliveryHeaders({ deliveryId: "delivery_1", event: "scan.completed", body, now });
    expect(plain["x-service-signature"]).toBeUndefined();
    expect(plain["webhook-signature"]).toBeUndefined();
  });

  it("derives one delivery id per (event, webhook), sortable by event time", () => {
    const at = new Date("2026-03-01T12:00:00Z");
    expect(deliveryIdOf("evt_1", "webhook_a", at)).toBe(deliveryIdOf("evt_1", "webhook_a", at));
    expect(deliveryIdOf("evt_1", "webhook_a", at)).not.toBe(deliveryIdOf("evt_1", "webhook_b", at));
    expect(deliveryIdOf("evt_1", "webhook_a", at)).toMatch(/^delivery_[0-9a-f]{28}$/);
  });
});
