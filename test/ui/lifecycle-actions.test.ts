import { describe, expect, it } from "vitest";
import { START } from "../../contract/lifecycle.ts";
import { LIFECYCLE_DOCS } from "../../contract/lifecycles/index.ts";
import { CONTROL_TABLE } from "../../emulator/control/client.generated.ts";
import { controlRoutes } from "../../emulator/app.ts";
import { triggerActions } from "../../emulator/ui/lifecycles.ts";
import { rowActions, type Lifecycles } from "../../emulator/ui/app/lifecycle-actions.ts";
import { useEmulator, type Api } from "../helpers.ts";

// The dashboard's row buttons come from the lifecycle tables (issue 39 item 8): the control plane serves every
// table with, per status, the triggers allowed from it and the control route that fires each
// (GET /_emulator/lifecycles); the page offers a row exactly the served triggers of its status that have one.

let api: Api;
useEmulator((c) => ({ api } = c));

const served = async (): Promise<Lifecycles> =>
  (await api.get("/_emulator/lifecycles").expect(200)).body.data.lifecycles;

describe("GET /_emulator/lifecycles", () => {
  it("serves every table of contract/lifecycles/: its statuses and, per status, the moves its rows allow from it", async () => {
    const lifecycles = await served();
    expect(lifecycles.map((l) => l.id)).toEqual(LIFECYCLE_DOCS.map((d) => d.id));
    for (const { id, lifecycle } of LIFECYCLE_DOCS) {
      const table = lifecycles.find((l) => l.id === id)!;
      expect(table.name).toBe(lifecycle.name);
      expect(table.statuses.map((s) => s.status)).toEqual(lifecycle.states);
      for (const { status, triggers } of table.statuses)
        expect(
          triggers.map(({ trigger, to }) => ({ trigger, to })),
          `${id} ${status}`,
        ).toEqual(
          lifecycle.transitions.filter((t) => t.from.includes(status)).map((t) => ({ trigger: t.trigger, to: t.to })),
        );
      // A creation (from START) is no status's move.
      expect(table.statuses.some((s) => s.status === START)).toBe(false);
    }
  });

  it("names the operator's control routes: the order's ship, deliver and return; a purchase's refund; a redemption's KYC", async () => {
    const lifecycles = await served();
    const action = (id: string, status: string, trigger: string) =>
      lifecycles
        .find((l) => l.id === id)!
        .statuses.find((s) => s.status === status)!
        .triggers.find((t) => t.trigger === trigger)!.action;
    expect(action("warehouse-order", "LABEL_PURCHASED", "ship")).toEqual({
      method: "POST",
      path: "/warehouse/orders/:order_id/ship",
      record: "order_id",
      body: {},
      name: "ship",
      label: "ship",
    });
    expect(action("mystery-purchase", "SUBMITTED", "refund")?.path).toBe("/mystery/purchases/:id/refund");
    expect(action("mystery-redemption", "PREPARED", "kyc_declined")?.body).toEqual({ decision: "decline" });
    // A worker's move has no control route: served without one.
    expect(action("mystery-purchase", "SUBMITTED", "reveal")).toBeNull();
  });

  it("every action is a registered control route, and names its record by a path parameter or a body field", () => {
    const routes = Object.values(CONTROL_TABLE).flatMap((g) => Object.values(g) as { method: string; path: string }[]);
    for (const a of triggerActions()) {
      expect(routes, `${a.method} ${a.path}`).toContainEqual(
        expect.objectContaining({ method: a.method, path: a.path }),
      );
      const route = controlRoutes.find((r) => r.method === a.method && r.path === a.path)!;
      const inPath = a.path.includes(`:${a.record}`);
      const inBody =
        !inPath && Object.keys((route.schema.body as { shape?: object } | undefined)?.shape ?? {}).includes(a.record);
      expect(inPath || inBody, `${a.path} takes ${a.record}`).toBe(true);
    }
  });
});

describe("the row actions the dashboard offers (emulator/ui/app/lifecycle-actions.ts)", () => {
  it("for every table and status: exactly the served triggers of that status that have a control route", async () => {
    const lifecycles = await served();
    for (const table of lifecycles)
      for (const { status, triggers } of table.statuses) {
        // kyc_status PENDING meets the one data condition (a redemption's KYC decision), so the status decides alone.
        const offered = rowActions(lifecycles, table.id, { status, kyc_status: "PENDING" });
        expect(offered, `${table.id} ${status}`).toEqual(triggers.flatMap((t) => (t.action ? [t.action] : [])));
      }
  });

  it("the buttons the existing rows had: ship from LABEL_PURCHASED, deliver and return from SHIPPED, refund from SUBMITTED", async () => {
    const lifecycles = await served();
    const names = (id: string, row: { status: string; [k: string]: unknown }) =>
      rowActions(lifecycles, id, row).map((a) => a.name);
    expect(names("warehouse-order", { status: "LABEL_PURCHASED" })).toEqual(["ship"]);
    expect(names("warehouse-order", { status: "SHIPPED" })).toEqual(["deliver", "return"]);
    expect(names("warehouse-order", { status: "DELIVERED" })).toEqual([]);
    expect(names("mystery-purchase", { status: "SUBMITTED" })).toEqual(["refund"]);
    expect(names("mystery-purchase", { status: "FULFILLED" })).toEqual([]);
    expect(names("mystery-redemption", { status: "BURN_SUBMITTED" })).toEqual(["start"]);
    expect(names("mystery-redemption", { status: "IN_FULFILLMENT" })).toEqual(["dispatch"]);
    expect(names("inbound-shipment", { status: "ANNOUNCED" })).toEqual(["receive"]);
    expect(names("withdrawal", { status: "REQUESTED" })).toEqual(["complete"]);
    expect(names("withdrawal", { status: "COMPLETED" })).toEqual([]);
  });

  it("a KYC decision also needs the redemption to wait for one (kyc_status PENDING): data, not status", async () => {
    const lifecycles = await served();
    const names = (kyc_status: string) =>
      rowActions(lifecycles, "mystery-redemption", { status: "PREPARED", kyc_status }).map((a) => a.name);
    expect(names("PENDING")).toEqual(["kyc-approve", "kyc-decline"]);
    expect(names("NOT_REQUIRED")).toEqual([]);
    expect(names("APPROVED")).toEqual([]);
  });

  it("a trigger added to a served table gets its button; a table or status the page does not know offers none", async () => {
    const lifecycles = structuredClone(await served());
    const delivered = lifecycles
      .find((l) => l.id === "warehouse-order")!
      .statuses.find((s) => s.status === "DELIVERED")!;
    const action = {
      method: "POST" as const,
      path: "/warehouse/orders/:order_id/lose",
      record: "order_id",
      body: {},
      name: "lose",
      label: "lose",
    };
    delivered.triggers.push({ trigger: "lose", to: "LOST", action });
    expect(rowActions(lifecycles, "warehouse-order", { status: "DELIVERED" })).toEqual([action]);
    expect(rowActions(lifecycles, "no-such-table", { status: "DELIVERED" })).toEqual([]);
    expect(rowActions(lifecycles, "warehouse-order", { status: "NO_SUCH_STATUS" })).toEqual([]);
  });
});
