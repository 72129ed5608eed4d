import { describe, expect, it, vi } from "vitest";
import { expectError } from "../../conformance/assert.ts";
import { waitFor } from "../helpers.ts";
import { type Ctx, sendCalls, useMystery, user } from "./helpers.ts";

// A request that waits on the chain and then writes (here a purchase submit reading its receipt) while a restore
// replaces the state: it answers 409 state_replaced and writes nothing into the restored state
// (docs/decisions.md "Work in flight across a state replacement").

let ctx: Ctx;
useMystery("manual", (c) => (ctx = c));

const exported = async () => (await ctx.api.get("/_emulator/state").expect(200)).body.data as unknown;

describe("a request waiting on the chain across a restore", () => {
  it("purchase submit: 409 state_replaced, and the restored state is the one exported before the request", async () => {
    const from = user(ctx, 1);
    const prep = await ctx.api
      .post("/api/v1/mystery/purchase/prepare")
      .set("X-API-Key", ctx.demo)
      .send({ wallet_address: from.address, tier_id: 1 })
      .expect(200);
    const receipt = await sendCalls(ctx, from, prep.body.data.calls);
    const hash = receipt.transactionHash;
    const snap = (await ctx.api.post("/_emulator/snapshot").expect(201)).body.data.id as string;
    const before = await exported();

    const client = ctx.emu.chain!.publicClient;
    const real = client.getTransactionReceipt.bind(client);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let reads = 0;
    // The submit's receipt read (this hash only) returns what the old chain said, after the restore.
    const held = vi.spyOn(client, "getTransactionReceipt").mockImplementation(async (args) => {
      const got = await real(args);
      if (args.hash.toLowerCase() !== hash.toLowerCase()) return got;
      reads++;
      await gate;
      return got;
    });
    let answer;
    try {
      const submit = ctx.api
        .post("/api/v1/mystery/purchase/submit")
        .set("X-API-Key", ctx.demo)
        .send({ wallet_address: from.address, tier_id: 1, transaction_hash: hash })
        .then((r) => r);
      await waitFor(() => reads > 0, "the submit to read its receipt");
      await ctx.api.post("/_emulator/restore").send({ id: snap }).expect(200);
      open();
      answer = await submit;
    } finally {
      held.mockRestore();
    }
    expectError(answer, 409, "state_replaced");
    expect(await exported()).toEqual(before);
  });
});
