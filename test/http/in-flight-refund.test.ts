import { describe, expect, it } from "vitest";
import { expectError } from "../../conformance/assert.ts";
import { newKey, useEmulator, waitFor, type Api, type Emulator } from "../helpers.ts";

// A metered request held by a fault's latency while the state is restored or reset (issue 37, item 14): its
// charge belonged to the state that went away, so nothing is refunded into the new one (free credits never pass
// their 500 ceiling), and the request still gets its answer.

let emu: Emulator;
let api: Api;
useEmulator((c) => ({ emu, api } = c));

const CARD = "/api/v1/pokemon/cards/base1-4";

const sleeps = () => emu.clock.pending().filter((t) => t.label === "sleep").length;

async function credits(key: string) {
  return (await api.get(`/_emulator/credits/${key}`).expect(200)).body.data as {
    balance: number;
    free_credits: number;
  };
}

/** Five reads of CARD held by a 503 fault with latency; `replace` runs while they wait, then time moves on. */
async function heldAcross(key: string, replace: () => Promise<void>) {
  const before = sleeps();
  await api
    .post("/_emulator/faults")
    .send({ match: { path: CARD }, status: 503, error: "upstream_down", latency_ms: 1000, times: 5 })
    .expect(201);
  const held = Array.from({ length: 5 }, () =>
    api
      .get(CARD)
      .set("X-API-Key", key)
      .then((r) => r),
  );
  await waitFor(() => sleeps() === before + 5, "five held reads");
  await replace();
  await emu.clock.advance(1000);
  return Promise.all(held);
}

describe("a request in flight across a state replacement", () => {
  it("restore: the held reads answer their 503 and refund nothing into the restored credits", async () => {
    const key = await newKey(api, { kind: "partner", scopes: ["read:catalog"] });
    const snap = (await api.post("/_emulator/snapshot").expect(201)).body.data.id as string;
    const answers = await heldAcross(key, async () => {
      await api.post("/_emulator/restore").send({ id: snap }).expect(200);
    });
    for (const r of answers) expectError(r, 503, "upstream_down");
    expect(await credits(key)).toMatchObject({ balance: 500, free_credits: 500 });
  });

  it("reset: a fixture key's held reads refund nothing into the reset credits; a key the reset removed is no 500", async () => {
    const fixture = emu.key("demo");
    const gone = await newKey(api, { kind: "partner", scopes: ["read:catalog"] });
    await api
      .post("/_emulator/faults")
      .send({ match: { path: CARD }, status: 503, error: "upstream_down", latency_ms: 1000, times: 1 })
      .expect(201);
    const lost = api
      .get(CARD)
      .set("X-API-Key", gone)
      .then((r) => r);
    await waitFor(() => sleeps() === 1, "the held read of the removed key");
    const answers = await heldAcross(fixture, async () => {
      await api.post("/_emulator/reset").expect(200);
    });
    for (const r of answers) expectError(r, 503, "upstream_down");
    expectError(await lost, 503, "upstream_down");
    expect(await credits(fixture)).toMatchObject({ free_credits: 500 });
  });
});
