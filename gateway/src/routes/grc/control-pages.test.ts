import { create } from "@bufbuild/protobuf";
import { type ListControlsRequest, ListControlsResponseSchema } from "@vulnscan/proto/vulnscan/grc/v1/grc_service_pb.js";
import type { FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import { ControlPages } from "./control-pages.js";
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
    async updateControl() {
      state.version = `${state.version}+`;
      return { control: { id: "ctrl_1", name: state.name, status: "implemented", frameworks: ["soc2"], frameworkRefs: [], findingIds: [] } };
    },
  };
  return { state, grc };
}

const request = (orgId: string, query: Record<string, unknown> = {}) =>
  ({ principal: { kind: "user", orgId, userId: "user_1" }, query: { page: 1, per_page: 100, ...query } }) as unknown as FastifyRequest;

describe("control listing through the gateway's page cache", () => {
  it("serves its copy while grc says it is current, grc's new page after a change, and keeps organizations and queries apart", async () => {
    const { state, grc } = fakeGrc();
    const h = grcHandlers(grc as never, 0); // no window: grc is asked every time
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

describe("the window in which a confirmed page is answered from memory", () => {
  const q = { orgId: "org_a", page: 1, perPage: 100 };
  const body = { items: [{ id: "ctrl_1" }] };

  it("lasts freshMs from when grc was asked, and a change through the gateway ends it for that organization only", () => {
    let now = 1000;
    const pages = new ControlPages<typeof body>(250, 1 << 20, () => now);
    expect(pages.fresh(q)).toBeUndefined();
    pages.keep(q, "v1", body, 1000);
    pages.keep({ ...q, orgId: "org_b" }, "v1", body, 1000);
    now = 1249;
    expect(pages.fresh(q)).toBe(body);
    now = 1250;
    expect(pages.fresh(q)).toBeUndefined(); // grc must be asked again
    expect(pages.held(q)?.version).toBe("v1"); // with the held version
    pages.keep(q, "v1", body, 1300); // it answered not_modified
    now = 1310;
    expect(pages.fresh(q)).toBe(body);
    pages.changed("org_a");
    expect(pages.fresh(q)).toBeUndefined();
    pages.keep({ ...q, orgId: "org_b" }, "v1", body, 1300);
    expect(pages.fresh({ ...q, orgId: "org_b" })).toBe(body);
  });

  it("does not trust an answer grc gave to a question asked before a change through the gateway", () => {
    let now = 0;
    const pages = new ControlPages<typeof body>(250, 1 << 20, () => now);
    const askedAt = pages.clock();
    now = 10;
    pages.changed("org_a"); // the write finished while the listing was in flight
    now = 20;
    pages.keep(q, "v1", body, askedAt);
    expect(pages.fresh(q)).toBeUndefined();
  });

  it("through the handlers: a repeat inside the window costs no RPC, an update ends the window", async () => {
    const { state, grc } = fakeGrc();
    const h = grcHandlers(grc as never, 60_000);
    const first = await h.listControls(request("org_a") as never);
    expect(await h.listControls(request("org_a") as never)).toEqual(first);
    expect(state.calls).toHaveLength(1);
    await h.updateControl({ ...request("org_a"), params: { control_id: "ctrl_1" }, body: { status: "implemented" } } as never);
    await h.listControls(request("org_a") as never);
    expect(state.calls).toHaveLength(2);
    expect(state.calls[1]!.ifVersion).toBe("v1");
  });
});
