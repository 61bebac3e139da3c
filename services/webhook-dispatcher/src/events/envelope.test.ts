import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { EventEnvelopeSchema } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import { describe, expect, it } from "vitest";
import { webhookBody } from "../domain/payload.js";
import { dispatchEventOf } from "./envelope.js";

describe("dispatchEventOf", () => {
  it("gives the spec's body: the payload as proto JSON with proto names and implicit defaults", () => {
    const env = create(EventEnvelopeSchema, {
      id: "evt_1",
      type: "scan.completed",
      orgId: "org_a",
      occurredAt: timestampFromDate(new Date("2026-03-01T12:00:00.000Z")),
      payload: {
        case: "scanCompleted",
        value: { scanId: "scan_1", target: "example.com", status: "completed", durationSeconds: 42, findings: { total: 3, critical: 1 } },
      },
    });
    expect(JSON.parse(webhookBody("delivery_1", dispatchEventOf(env)!))).toEqual({
      id: "delivery_1",
      event: "scan.completed",
      timestamp: "2026-03-01T12:00:00.000Z",
      data: {
        scan_id: "scan_1",
        target: "example.com",
        status: "completed",
        duration_seconds: 42,
        findings: { total: 3, critical: 1, high: 0, medium: 0, low: 0 },
      },
    });
  });

  it("sends a finding's confidence, and the documented empty string (never null or a missing key) for one stored before it existed", () => {
    const critical = (confidence?: string) =>
      create(EventEnvelopeSchema, {
        id: "evt_4",
        type: "vulnerability.critical",
        orgId: "org_a",
        payload: {
          case: "vulnerabilityCritical",
          value: {
            findingId: "finding_1",
            title: "Redis without authentication",
            severity: "critical",
            cvssScore: 9.8,
            scanId: "scan_1",
            ...(confidence ? { confidence } : {}),
          },
        },
      });
    expect(dispatchEventOf(critical("confirmed"))!.data).toMatchObject({ finding_id: "finding_1", confidence: "confirmed", cve_ids: [] });
    expect(dispatchEventOf(critical())!.data).toMatchObject({ finding_id: "finding_1", confidence: "", affected_component: "" });
  });

  it("never lets an internal auth.* event, nor one without an organization, through", () => {
    const internal = create(EventEnvelopeSchema, {
      id: "evt_2",
      type: "auth.session_revoked",
      orgId: "org_a",
      payload: { case: "authSessionRevoked", value: {} },
    });
    expect(dispatchEventOf(internal)).toBeUndefined();
    const orphan = create(EventEnvelopeSchema, { id: "evt_3", type: "user.login_failed", payload: { case: "userLoginFailed", value: {} } });
    expect(dispatchEventOf(orphan)).toBeUndefined();
  });
});
