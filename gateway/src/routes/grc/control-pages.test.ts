import { create } from "@bufbuild/protobuf";
import { type ListControlsRequest, ListControlsResponseSchema } from "@vulnscan/proto/vulnscan/grc/v1/grc_service_pb.js";
import type { FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import { grcHandlers } from "./handlers.js";

/** A grc whose controls change when the test says: answers not_modified while the caller's version is current. */
function fakeGrc() {
  const state = { version: "v1", name: "Access control", calls: [] as ListControlsRequest[] };
  const grc = {
    async listControls(req: ListControlsRequest) {
      state.calls.push(req);
      if (req.ifVersion === state.version) return create(ListControlsResponseSchema, { version: state.version, notModified: true });
      return create(ListControlsResponseSchema, {
        version: state.version,
        controls: [{ id: "ctrl_1", name: state.name, status: "not_started", frameworks: ["soc2"] }],
        pageInfo: { total: 1, page: 1, perPage: 100, pages: 1 },
      });
    },
  };
  return { state, grc };
}

const request = (orgId: string, query: Record<string, unknown> = {}) =>
  ({ principal: { kind: "user", orgId, userId: "user_1" }, query: { page: 1, per_page: 100, ...query } }) as unknown as FastifyRequest;

describe("control listing through the gateway's page cache", () => {
  it("serves its copy while grc says it is current, grc's new page after a change, and keeps organizations and queries apart", async () => {
    const { state, grc } = fakeGrc();
    const h = grcHandlers(grc as never);
    const first = await h.listControls(request("org_a") as never);
    expect(first.items[0]).toMatchObject({ id: "ctrl_1", name: "Access control" });
    expect(state.calls[0]!.ifVersion).toBe("");
    expect(await h.listControls(request("org_a") as never)).toEqual(first);
    expect(state.calls[1]!.ifVersion).toBe("v1"); // grc was asked, and answered not_modified
    Object.assign(state, { version: "v2", name: "Access control (revised)" });
    expect((await h.listControls(request("org_a") as never)).items[0]).toMatchObject({ name: "Access control (revised)" });
    expect(state.calls[2]!.ifVersion).toBe("v1");
    await h.listControls(request("org_b") as never);
    await h.listControls(request("org_a", { status: "failing" }) as never);
    expect(state.calls.slice(3).map((c) => c.ifVersion)).toEqual(["", ""]); // another organization, another query: no copy
  });
});
