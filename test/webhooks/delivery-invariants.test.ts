import { describe, it, expect, afterEach } from "vitest";
import { useEmulator, type Api, type Emulator } from "../helpers.ts";
import { startReceiver, type Receiver } from "./receiver.ts";
import { SequenceMemory, type Delivered } from "../../contract/invariants/index.ts";

// The emulator's own deliveries under the delivery invariants the conformance suite applies
// (contract/invariants/deliveries.ts): a delivery retried twice keeps every one, and a delivery
// changed on its way is named by the rule it breaks, the event, the pointer and the delivery id.

let emu: Emulator;
let api: Api;
let rx: Receiver | null = null;
useEmulator((ctx) => ({ emu, api } = ctx), { chain: false });
afterEach(async () => {
  await rx?.close();
  rx = null;
});

const asDelivered = (r: Receiver["received"][number], url: string, secret: string): Delivered => ({
  url,
  headers: Object.fromEntries(Object.entries(r.headers).filter((e): e is [string, string] => typeof e[1] === "string")),
  body: r.body,
  secrets: [secret],
});

describe("delivery invariants on the emulator's own deliveries", () => {
  it("every attempt of a retried delivery keeps every delivery invariant; a changed body id and signature are named", async () => {
    rx = await startReceiver();
    rx.script([500, 500], 200);
    const key = emu.key("demo");
    const hook = (await api.post("/api/v1/webhooks").set("X-API-Key", key).send({ url: rx.url }).expect(201)).body
      .data as { signing_secret: string };
    await api.post("/_emulator/events").send({ type: "purchase.fulfilled", key }).expect(201);
    await emu.clock.advance(0);
    await emu.clock.advance(3 * 60 * 1000); // the retries at +30 s and +2 min 30 s
    expect(rx.received).toHaveLength(3);

    const memory = new SequenceMemory();
    const all = rx.received.map((r) => asDelivered(r, rx!.url, hook.signing_secret));
    expect(all.flatMap((d) => memory.observeDelivery(d))).toEqual([]);

    // The same delivery again with another body id, re-signed by nobody: two rules broken, each named.
    const first = all[0]!;
    const id = first.headers["x-mystery-delivery"]!;
    const tampered = { ...first, body: first.body.replace(`"id":"${id}"`, `"id":"${id}x"`) };
    const broken = memory.observeDelivery(tampered);
    expect(broken.map((b) => [b.invariant, b.operation, b.pointer])).toEqual([
      ["delivery.headers-name-the-body", "delivery purchase.fulfilled", "/id"],
      ["delivery.signature-verifies", "delivery purchase.fulfilled", "X-Mystery-Signature"],
      ["delivery.retries-same-body", "delivery purchase.fulfilled", "/id"],
    ]);
    expect(broken[0]!.text).toBe(`expected "${id}" (X-Mystery-Delivery), received "${id}x"`);
  });
});
