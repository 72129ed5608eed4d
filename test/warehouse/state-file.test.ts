import { describe, it, expect } from "vitest";
import request from "supertest";
import { createEmulator } from "../../emulator/index.ts";
import { US_ADDRESS } from "./helpers.ts";
import { apiCall } from "../helpers.ts";

// An emulator started from a state file picks up work that was in flight when it was exported.

describe("starting from an exported state", () => {
  it.each([
    ["as exported", false],
    ["from a file written before due_at_ms (the order's label_due_at)", true],
  ])("a label purchase in flight completes after the restart, %s", async (_what, legacy) => {
    const a = await createEmulator({ seed: 5, clock: "manual", port: 0 });
    const key = a.key("tenant");
    const call = async (e: typeof a, method: string, path: string, body?: unknown) => {
      const res = await apiCall(request(e.url), method, path, { "x-api-key": key }, body);
      return {
        status: res.status,
        body: res.body as {
          data: Record<string, unknown> & {
            cards?: { unique_id: string; identity?: { status: string }; status?: string; location?: string }[];
          };
        },
      };
    };
    const cards = (await call(a, "GET", "/api/v1/inventory?limit=100&type=all&status=AVAILABLE")).body.data.cards!;
    const id = cards.find((c) => c.identity?.status === "confirmed" && c.location === "OFFCHAIN")!.unique_id;
    const quote = (await call(a, "POST", "/api/v1/shipping-quote", { unique_ids: [id], address: US_ADDRESS })).body
      .data as { order_id: number; rates: { rate_id: string }[] };
    const placed = await call(a, "POST", "/api/v1/orders", {
      order_id: quote.order_id,
      rate_id: quote.rates[0].rate_id,
    });
    expect(placed.status).toBe(202);
    const exported = a.exportState();
    await a.close();
    if (legacy) {
      // What an emulator before the lifecycle tables wrote: the order's due time under its old name.
      const text = JSON.stringify(exported);
      expect(text.match(/"due_at_ms":\d+/g)).toHaveLength(1);
      Object.assign(exported, JSON.parse(text.replace(/"due_at_ms":(\d+)/, '"label_due_at":$1')));
    }

    const b = await createEmulator({ seed: 5, clock: "manual", state: exported, port: 0 });
    try {
      await b.clock.advance(60_000);
      const order = (await call(b, "GET", `/api/v1/orders/${quote.order_id}`)).body.data;
      expect(order.status).toBe("LABEL_PURCHASED");
    } finally {
      await b.close();
    }
  });
});
