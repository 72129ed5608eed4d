import { afterAll, beforeAll, describe, expect, it } from "vitest";
import request from "supertest";
import { expectError } from "../../conformance/assert.ts";
import { newKey, startEmulator, type Api, type Emulator } from "../helpers.ts";
import { startReceiver, type Receiver } from "./receiver.ts";

// Issue 37 item 17: a delivery must never reach the emulator's own control plane or its chain's
// JSON-RPC (a partner key registering http://127.0.0.1:PORT/_emulator/reset reset the emulator with
// one event). The registration is refused in every spelling of the address; a webhook that points
// there anyway (an imported state) fails its attempts; and the control plane and the RPC refuse any
// request that carries a delivery's headers.

let emu: Emulator;
let api: Api;
let close: () => Promise<void>;
let rx: Receiver;
let port: string;
let rpcPort: string;

beforeAll(async () => {
  ({ emu, api, close } = await startEmulator({ chain: { rpcPort: 0, vrf: "manual" } }));
  port = new URL(emu.url).port;
  rpcPort = new URL(emu.rpcUrl!).port;
  rx = await startReceiver();
}, 120_000);
afterAll(async () => {
  await rx.close();
  await close();
});

const forms = (p: string) => [
  `http://127.0.0.1:${p}/_emulator/reset`,
  `http://localhost:${p}/_emulator/reset`,
  `http://LOCALHOST.:${p}/_emulator/reset`,
  `http://app.localhost:${p}/_emulator/reset`,
  `http://[::1]:${p}/_emulator/reset`,
  `http://[::ffff:127.0.0.1]:${p}/_emulator/reset`,
  `http://0.0.0.0:${p}/_emulator/reset`,
  `http://2130706433:${p}/_emulator/reset`,
  `http://0x7f000001:${p}/_emulator/reset`,
  `http://127.1:${p}/_emulator/reset`,
  `http://127.9.9.9:${p}/api/v1/health`,
  `HTTP://127.0.0.1:${p}/`,
];

describe("registration", () => {
  it("refuses a URL at the emulator's own API/control port or its RPC port, whatever its spelling", async () => {
    const key = await newKey(api, { kind: "partner" });
    for (const url of [...forms(port), ...forms(rpcPort)]) {
      const res = await api.post("/api/v1/webhooks").set("X-API-Key", key).send({ url });
      expect(String(expectError(res, 400, "invalid_url", url).message), url).toContain("the emulator itself");
    }
    const hook = await api.post("/api/v1/webhooks").set("X-API-Key", key).send({ url: rx.url }).expect(201);
    const patched = await api
      .patch(`/api/v1/webhooks/${hook.body.data.id}`)
      .set("X-API-Key", key)
      .send({ url: `http://localhost:${port}/_emulator/reset` });
    expectError(patched, 400, "invalid_url");
  });
});

describe("defence in depth", () => {
  it("the control plane and the RPC refuse a request carrying a delivery's headers; nothing is reset", async () => {
    const key = await newKey(api, { kind: "partner" });
    for (const headers of [
      { "User-Agent": "CardOS-Webhooks/1.0 (cardos-emulator)" },
      { "X-Mystery-Signature": "t=1,sha256=00" },
    ]) {
      expectError(
        await api.post("/_emulator/reset").set(headers).set("Content-Type", "application/json").send("{}"),
        403,
        "webhook_delivery_refused",
      );
      const rpc = await request(emu.rpcUrl!)
        .post("/")
        .set(headers)
        .set("Content-Type", "application/json")
        .send({ jsonrpc: "2.0", id: 1, method: "evm_snapshot", params: [] });
      expect({ status: rpc.status, message: rpc.body.error?.message?.split(":")[0] }).toEqual({
        status: 403,
        message: "webhook_delivery",
      });
    }
    // The key made above still exists: no reset happened.
    const keys = (await api.get("/_emulator/keys").expect(200)).body.data.keys as { key: string }[];
    expect(keys.some((k) => k.key === key)).toBe(true);
  });

  it("a webhook that points at the emulator anyway (an imported state) fails its attempts, never resets it", async () => {
    const key = await newKey(api, { kind: "partner" });
    await api.post("/api/v1/webhooks").set("X-API-Key", key).send({ url: rx.url }).expect(201);
    const exported = (await api.get("/_emulator/state").expect(200)).body.data;
    const hooks = exported.state.areas.webhooks.webhooks as Record<string, { url: string }>;
    for (const h of Object.values(hooks)) h.url = `http://0x7f000001:${port}/_emulator/reset`;
    await api.put("/_emulator/state").send(exported).expect(200);
    const t = await api.post("/_emulator/events").send({ type: "purchase.fulfilled", key, wait: true }).expect(201);
    const eventId = t.body.data.event.id as string;
    const attempts = (await api.get(`/_emulator/webhooks/outbox?event_id=${encodeURIComponent(eventId)}`).expect(200))
      .body.data.attempts as { error: string | null; outcome: string }[];
    expect(attempts.length).toBeGreaterThan(0);
    for (const a of attempts) {
      expect(a.outcome).toBe("failed");
      expect(a.error).toContain("the emulator itself");
    }
    const keys = (await api.get("/_emulator/keys").expect(200)).body.data.keys as { key: string }[];
    expect(keys.some((k) => k.key === key)).toBe(true);
    expect(rx.received).toEqual([]);
  });
});
