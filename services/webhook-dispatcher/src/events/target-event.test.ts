import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { WEBHOOK_EVENT_KINDS } from "@vulnscan/kit/event-kinds";
import { EventEnvelopeSchema } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import { describe, expect, it } from "vitest";
import { dispatchEventOf } from "./envelope.js";

describe("target.verification_expired (issue 29)", () => {
  it("is a kind a webhook may subscribe to, delivered with the payload as its data", () => {
    expect(WEBHOOK_EVENT_KINDS).toContain("target.verification_expired");
    const at = new Date("2026-12-27T09:41:12.000Z");
    const env = create(EventEnvelopeSchema, {
      id: "evt_1",
      type: "target.verification_expired",
      orgId: "org_1",
      occurredAt: timestampFromDate(at),
      payload: {
        case: "targetVerificationExpired",
        value: {
          targetId: "target_1",
          target: "shop.example.com",
          method: "dns_txt",
          status: "expired",
          error: "no TXT record at _vulnscan-challenge.shop.example.com",
          verifiedAt: timestampFromDate(new Date("2026-11-27T09:41:12.000Z")),
          expiredAt: timestampFromDate(at),
        },
      },
    });
    expect(dispatchEventOf(env)).toEqual({
      id: "evt_1",
      type: "target.verification_expired",
      orgId: "org_1",
      occurredAt: at,
      data: {
        target_id: "target_1",
        target: "shop.example.com",
        method: "dns_txt",
        status: "expired",
        error: "no TXT record at _vulnscan-challenge.shop.example.com",
        verified_at: "2026-11-27T09:41:12Z",
        expired_at: "2026-12-27T09:41:12Z",
      },
    });
  });
});
