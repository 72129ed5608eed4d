import { describe, it, expect, afterEach } from "vitest";
import request from "supertest";
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { startEmulator, useEmulator, type Api, type Emulator } from "../helpers.ts";
import { startReceiver } from "./receiver.ts";
import { expectError } from "../../conformance/assert.ts";

// Delivery chaos per webhook against the two example receivers of docs/examples/, run as a partner
// runs them: the reference one applies each event exactly once whatever chaos does and refuses the
// forged or stale signatures; the naive one applies duplicates twice and accepts what it should refuse.

const ROOT = join(import.meta.dirname, "..", "..");

interface Running {
  url: string;
  child: ChildProcess;
}

async function launch(file: string, secret: string): Promise<Running> {
  const child = spawn(process.execPath, [join(ROOT, "docs", "examples", file)], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, PORT: "0", WEBHOOK_SECRET: secret },
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`${file} exited ${code}`)));
  });
  return { url: /http:\/\/\S+/.exec(line)![0], child };
}

interface Attempt {
  attempt: number;
  event_id: string;
  outcome: string;
  error: string | null;
  response: { status: number } | null;
  chaos: string[];
}

describe("webhook delivery chaos", () => {
  let emu: Emulator;
  let api: Api;
  useEmulator((ctx) => ({ emu, api } = ctx), { chain: false });
  const running: Running[] = [];
  afterEach(() => {
    for (const r of running.splice(0)) r.child.kill();
  });

  /** Registers a webhook (rotating its secret first if asked), starts the receiver with its secret, sets chaos. */
  async function receiverWith(
    file: "webhook-receiver.mjs" | "naive-webhook-receiver.mjs",
    chaos: Record<string, unknown>,
    rotate = false,
  ) {
    const key = emu.key("demo");
    const reg = (
      await api
        .post("/api/v1/webhooks")
        .set("X-API-Key", key)
        .send({ url: "http://127.0.0.1:9/placeholder" })
        .expect(201)
    ).body.data;
    let secret: string = reg.signing_secret;
    if (rotate) {
      const rot = (await api.post(`/_emulator/webhooks/${reg.id}/rotate-secret`).expect(200)).body.data;
      expect(rot.previous_secret).toBe(secret);
      expect(rot.signing_secret).not.toBe(secret);
      secret = rot.signing_secret;
    }
    const rx = await launch(file, secret);
    running.push(rx);
    await api
      .patch(`/api/v1/webhooks/${reg.id}`)
      .set("X-API-Key", key)
      .send({ url: `${rx.url}/webhooks` })
      .expect(200);
    const set = (await api.post(`/_emulator/webhooks/${reg.id}/chaos`).send(chaos).expect(200)).body.data;
    expect(set.chaos).toEqual(chaos);
    const trigger = (eventKey: string) =>
      api.post("/_emulator/events").send({ type: "purchase.fulfilled", key, event_key: eventKey }).expect(201);
    const applied = async () =>
      ((await request(rx.url).get("/applied")).body as { applied: Array<{ id: string }> }).applied.map((a) => a.id);
    const attempts = async (): Promise<Attempt[]> =>
      (await api.get("/_emulator/webhooks/outbox").query({ webhook_id: reg.id }).expect(200)).body.data.attempts;
    return { id: reg.id as number, trigger, applied, attempts };
  }

  it("duplicate {every: 2}: every second delivery is sent twice; the reference receiver applies it once, the naive one twice", async () => {
    for (const file of ["webhook-receiver.mjs", "naive-webhook-receiver.mjs"] as const) {
      const rx = await receiverWith(file, { duplicate: { every: 2 } });
      for (const k of ["a", "b", "c", "d"]) await rx.trigger(`${file}-${k}`);
      const attempts = await rx.attempts();
      expect(attempts.map((a) => [a.event_id.split("-").pop(), a.chaos])).toEqual([
        ["a", []],
        ["b", []],
        ["b", ["duplicate"]],
        ["c", []],
        ["d", []],
        ["d", ["duplicate"]],
      ]);
      expect(attempts.every((a) => a.response?.status === 200)).toBe(true);
      const ids = (await rx.applied()).map((id) => id.split("-").pop());
      expect(ids).toEqual(file === "webhook-receiver.mjs" ? ["a", "b", "c", "d"] : ["a", "b", "b", "c", "d", "d"]);
    }
  });

  it("duplicate {probability}: the same seed duplicates the same deliveries (no Math.random)", async () => {
    const pattern = async (e: Api, key: string): Promise<string[]> => {
      const rx = await startReceiver();
      try {
        const a = (await e.post("/api/v1/webhooks").set("X-API-Key", key).send({ url: rx.url }).expect(201)).body as {
          data: { id: number };
        };
        await e
          .post(`/_emulator/webhooks/${a.data.id}/chaos`)
          .send({ duplicate: { probability: 0.5 } })
          .expect(200);
        for (let i = 0; i < 12; i++)
          await e
            .post("/_emulator/events")
            .send({ type: "purchase.fulfilled", key, event_key: `p${i}` })
            .expect(201);
        return rx.received.map((r) => JSON.parse(r.body).id);
      } finally {
        await rx.close();
      }
    };
    // Two fresh emulators with the same seed: same webhook and delivery ids, same choices.
    const [one, other] = await Promise.all([startEmulator({ chain: false }), startEmulator({ chain: false })]);
    try {
      const key = one.emu.key("demo");
      expect(other.emu.key("demo")).toBe(key);
      const first = await pattern(one.api, key);
      expect(await pattern(other.api, key)).toEqual(first);
      const dups = first.length - 12;
      expect(dups).toBeGreaterThan(0);
      expect(dups).toBeLessThan(12);
    } finally {
      await Promise.all([one.close(), other.close()]);
    }
  });

  it("reorder_window_ms: deliveries created within the window go out in reverse order at its end, each applied once", async () => {
    const rx = await receiverWith("webhook-receiver.mjs", { reorder_window_ms: 1000 });
    for (const k of ["r1", "r2", "r3"]) await rx.trigger(k);
    expect(await rx.attempts()).toEqual([]);
    await emu.clock.advance(1000);
    const attempts = await rx.attempts();
    expect(attempts.map((a) => a.event_id)).toEqual([
      "purchase.fulfilled:r3",
      "purchase.fulfilled:r2",
      "purchase.fulfilled:r1",
    ]);
    expect(attempts.map((a) => a.chaos)).toEqual([
      ["reordered (held 998 ms in a 1000 ms window)"],
      ["reordered (held 999 ms in a 1000 ms window)"],
      ["reordered (held 1000 ms in a 1000 ms window)"],
    ]);
    expect(await rx.applied()).toEqual(["purchase.fulfilled:r3", "purchase.fulfilled:r2", "purchase.fulfilled:r1"]);
  });

  it("delay_ms: the first attempt waits on the virtual clock", async () => {
    const rx = await receiverWith("webhook-receiver.mjs", { delay_ms: 2000 });
    await rx.trigger("late");
    await emu.clock.advance(1999);
    expect(await rx.attempts()).toEqual([]);
    await emu.clock.advance(1);
    expect((await rx.attempts()).map((a) => [a.outcome, a.chaos])).toEqual([["delivered", ["delayed 2000 ms"]]]);
    expect(await rx.applied()).toEqual(["purchase.fulfilled:late"]);
  });

  it("drop_first_attempt: attempt 1 is recorded as dropped and never sent; the retry delivers it once", async () => {
    const rx = await receiverWith("webhook-receiver.mjs", { drop_first_attempt: true });
    await rx.trigger("dropped");
    let attempts = await rx.attempts();
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ attempt: 1, outcome: "failed", response: null, chaos: ["dropped"] });
    expect(attempts[0].error).toMatch(/dropped/);
    expect(await rx.applied()).toEqual([]);
    await emu.clock.advance(30_000);
    attempts = await rx.attempts();
    expect(attempts.map((a) => [a.attempt, a.outcome, a.chaos])).toEqual([
      [1, "failed", ["dropped"]],
      [2, "delivered", []],
    ]);
    expect(await rx.applied()).toEqual(["purchase.fulfilled:dropped"]);
  });

  for (const [mode, chaos, label, rotate] of [
    [
      "previous_secret_after_rotation",
      { previous_secret_after_rotation: true },
      "signed with the previous secret",
      true,
    ],
    ["stale_timestamp_ms", { stale_timestamp_ms: 600_000 }, "timestamp 600000 ms stale", false],
  ] as const) {
    it(`${mode}: the reference receiver refuses the first attempt and applies the retry once; the naive one accepts it`, async () => {
      const good = await receiverWith("webhook-receiver.mjs", chaos, rotate);
      await good.trigger(`good-${mode}`);
      let attempts = await good.attempts();
      expect(attempts.map((a) => [a.response?.status, a.chaos])).toEqual([[400, [label]]]);
      expect(await good.applied()).toEqual([]);
      await emu.clock.advance(30_000);
      attempts = await good.attempts();
      expect(attempts.map((a) => [a.attempt, a.response?.status, a.chaos])).toEqual([
        [1, 400, [label]],
        [2, 200, []],
      ]);
      expect(await good.applied()).toEqual([`purchase.fulfilled:good-${mode}`]);

      const naive = await receiverWith("naive-webhook-receiver.mjs", chaos, rotate);
      await naive.trigger(`naive-${mode}`);
      expect((await naive.attempts()).map((a) => [a.response?.status, a.chaos])).toEqual([[200, [label]]]);
      expect(await naive.applied()).toEqual([`purchase.fulfilled:naive-${mode}`]);
    });
  }

  it("previous_secret_after_rotation before any rotation does nothing (there is no previous secret)", async () => {
    const rx = await receiverWith("webhook-receiver.mjs", { previous_secret_after_rotation: true });
    await rx.trigger("norotation");
    expect((await rx.attempts()).map((a) => [a.response?.status, a.chaos])).toEqual([[200, []]]);
  });

  it("DELETE clears a webhook's chaos; bad bodies and unknown webhooks are 400/404, never a 500", async () => {
    const rx = await receiverWith("webhook-receiver.mjs", { drop_first_attempt: true });
    const cleared = (await api.delete(`/_emulator/webhooks/${rx.id}/chaos`).expect(200)).body.data;
    expect(cleared).toEqual({ webhook_id: rx.id, chaos: null, default: null });
    await rx.trigger("calm");
    expect((await rx.attempts()).map((a) => [a.outcome, a.chaos])).toEqual([["delivered", []]]);
    for (const body of [
      { duplicate: { probability: 2 } },
      { duplicate: { every: 0 } },
      { delay_ms: -1 },
      { bogus: true },
      { drop_first_attempt: "yes" },
    ])
      expectError(
        await api.post(`/_emulator/webhooks/${rx.id}/chaos`).send(body),
        400,
        "invalid_value",
        JSON.stringify(body),
      );
    expectError(await api.post("/_emulator/webhooks/99999/chaos").send({}), 404, "not_found");
    expectError(await api.delete("/_emulator/webhooks/99999/chaos"), 404, "not_found");
    expectError(await api.post("/_emulator/webhooks/99999/rotate-secret"), 404, "not_found");
    expectError(await api.post("/_emulator/webhooks/abc/rotate-secret"), 400, "invalid_value");
  });
});

describe("chaos in the state", () => {
  it("a webhook's chaos, rotated secret and previous secret travel with an exported state", async () => {
    const a = await startEmulator({ chain: false });
    const rx = await startReceiver();
    try {
      const key = a.emu.key("demo");
      const id = (await a.api.post("/api/v1/webhooks").set("X-API-Key", key).send({ url: rx.url }).expect(201)).body
        .data.id;
      const rotated = (await a.api.post(`/_emulator/webhooks/${id}/rotate-secret`).expect(200)).body.data;
      await a.api
        .post(`/_emulator/webhooks/${id}/chaos`)
        .send({ delay_ms: 1000, previous_secret_after_rotation: true })
        .expect(200);
      const b = await startEmulator({ chain: false, state: a.emu.exportState() });
      try {
        const [w] = (await b.api.get("/_emulator/webhooks").expect(200)).body.data.webhooks;
        expect(w).toMatchObject({
          id,
          signing_secret: rotated.signing_secret,
          chaos: { delay_ms: 1000, previous_secret_after_rotation: true },
        });
        await b.api.post("/_emulator/events").send({ type: "purchase.fulfilled", key }).expect(201);
        await b.emu.clock.advance(1000);
        const [attempt] = (await b.api.get("/_emulator/webhooks/outbox").expect(200)).body.data.attempts;
        expect(attempt.chaos).toEqual(["delayed 1000 ms", "signed with the previous secret"]);
        expect(rx.received).toHaveLength(1);
      } finally {
        await b.close();
      }
    } finally {
      await rx.close();
      await a.close();
    }
  });
});

describe("createEmulator({ webhookChaos })", () => {
  it("is the default for every webhook without its own chaos", async () => {
    const { emu, api } = await startEmulator({ chain: false, webhookChaos: { delay_ms: 5000 } });
    const rx = await startReceiver();
    try {
      const key = emu.key("demo");
      await api.post("/api/v1/webhooks").set("X-API-Key", key).send({ url: rx.url }).expect(201);
      await api.post("/_emulator/events").send({ type: "purchase.fulfilled", key }).expect(201);
      expect(rx.received).toHaveLength(0);
      await emu.clock.advance(5000);
      expect(rx.received).toHaveLength(1);
      const out = (await api.get("/_emulator/webhooks/outbox").expect(200)).body as { data: { attempts: Attempt[] } };
      expect(out.data.attempts.map((a) => a.chaos)).toEqual([["delayed 5000 ms"]]);
    } finally {
      await rx.close();
      await emu.close();
    }
  });

  it("an invalid default is refused at start", async () => {
    await expect(startEmulator({ chain: false, webhookChaos: { duplicate: { probability: 3 } } })).rejects.toThrow(
      /webhookChaos is invalid: duplicate/,
    );
  });
});
