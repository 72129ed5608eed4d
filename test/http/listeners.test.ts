import { afterAll, beforeAll, describe, expect, it } from "vitest";
import request from "supertest";
import { expectError } from "../../conformance/assert.ts";
import { startEmulator, type Api, type Emulator } from "../helpers.ts";

// Issue 37 items 6/7: every listener has the same Host/Origin policy (emulator/pipeline/listener-policy.ts).
// Here the emulator's own server and the chain's JSON-RPC; the shadow proxy and the webhook receiver
// have theirs beside their code's tests. Each: a foreign Host is refused, a page of another site is
// refused and nothing changes, a page on a loopback origin works.

const EVIL = "http://evil.example";
const DAPP = "http://localhost:5173";

let emu: Emulator;
let api: Api;
let rpc: Api;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ emu, api, close } = await startEmulator({ chain: { rpcPort: 0, vrf: "manual" } }));
  rpc = request(emu.rpcUrl!);
}, 120_000);
afterAll(() => close());

const roles = () => emu.chain!;
const call = (method: string, params: unknown[] = []) => JSON.stringify({ jsonrpc: "2.0", id: 1, method, params });
/** A JSON-RPC refusal's reason: the first word of its message (`account_not_allowed: …`). */
const reasonOf = (res: { body: { error?: { message?: string } } }) =>
  /^(\w+):/.exec(res.body.error?.message ?? "")?.[1];
const balanceOf = async (address: string): Promise<string> => {
  const res = await rpc
    .post("/")
    .set("Content-Type", "application/json")
    .send(call("eth_getBalance", [address, "latest"]));
  return res.body.result as string;
};

describe("the emulator's server (API, control plane, dashboard)", () => {
  it("refuses a page of another site on the API too, and nothing is spent", async () => {
    const key = emu.key("demo");
    const before = (await api.get(`/_emulator/credits/${key}`).expect(200)).body.data;
    for (const path of ["/api/v1/pokemon/cards/base1-4", "/api/v1/account/usage"])
      expectError(await api.get(path).set("Origin", EVIL).set("X-API-Key", key), 403, "cross_origin_request", path);
    expectError(
      await api.get("/api/v1/pokemon/cards/base1-4").set("Sec-Fetch-Site", "cross-site").set("X-API-Key", key),
      403,
      "cross_origin_request",
    );
    const t = emu.clock.now();
    expectError(
      await api
        .post("/_emulator/clock/advance")
        .set("Origin", EVIL)
        .set("Content-Type", "text/plain")
        .send(JSON.stringify({ ms: 5000 })),
      403,
      "cross_origin_request",
    );
    expect(emu.clock.now()).toBe(t);
    expect((await api.get(`/_emulator/credits/${key}`).expect(200)).body.data).toEqual(before);
  });

  it("answers a page on a loopback origin, or an allowed one, and no CORS wildcard", async () => {
    const res = await api.get("/api/v1/health").set("Origin", DAPP);
    expect(res.status).toBe(200);
    expect(res.headers["access-control-allow-origin"]).toBeUndefined();
    const { api: other, close: closeOther } = await startEmulator({ allowedOrigins: ["http://192.168.1.20:5173"] });
    try {
      expect((await other.get("/api/v1/health").set("Origin", "http://192.168.1.20:5173")).status).toBe(200);
      expectError(
        await other.get("/api/v1/health").set("Origin", "http://192.168.1.21:5173"),
        403,
        "cross_origin_request",
      );
    } finally {
      await closeOther();
    }
    // An allowed origin is written as a browser sends it; anything else stops the start with a clear line.
    for (const bad of ["evil.example", "http://evil.example/app", "ftp://evil.example"])
      await expect(startEmulator({ allowedOrigins: [bad] }), bad).rejects.toThrow(/is not a web origin/);
  });
});

describe("the chain's JSON-RPC", () => {
  it("refuses a foreign Host (DNS rebinding)", async () => {
    const res = await rpc
      .post("/")
      .set("Host", "evil.example:8545")
      .set("Content-Type", "application/json")
      .send(call("eth_chainId"));
    expect({ status: res.status, reason: reasonOf(res) }).toEqual({
      status: 403,
      reason: "host_not_allowed",
    });
  });

  it("refuses a text/plain POST from another site: the relayer's float does not move", async () => {
    const relayer = roles().relayer.address;
    const before = await balanceOf(relayer);
    const blockBefore = (await rpc.post("/").set("Content-Type", "application/json").send(call("eth_blockNumber"))).body
      .result;
    for (const body of [
      call("eth_sendTransaction", [{ from: relayer, to: roles().endUsers[0]!.address, value: "0xde0b6b3a7640000" }]),
      call("evm_revert", ["0x1"]),
      call("hardhat_reset"),
    ]) {
      const res = await rpc.post("/").set("Origin", EVIL).set("Content-Type", "text/plain").send(body);
      expect({ status: res.status, code: res.body.error?.code, reason: reasonOf(res) }).toEqual({
        status: 403,
        code: 4100,
        reason: "cross_origin_request",
      });
      expect(res.headers["access-control-allow-origin"]).toBeUndefined();
    }
    // The preflight a page needs for JSON is refused too; a WebSocket upgrade from that page as well.
    expect((await rpc.options("/").set("Origin", EVIL).set("Access-Control-Request-Method", "POST")).status).toBe(403);
    const upgrade = await rpc
      .get("/")
      .set("Origin", EVIL)
      .set("Connection", "Upgrade")
      .set("Upgrade", "websocket")
      .set("Sec-WebSocket-Version", "13")
      .set("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==");
    expect(upgrade.status).toBe(403);
    expect(await balanceOf(relayer)).toBe(before);
    expect(
      (await rpc.post("/").set("Content-Type", "application/json").send(call("eth_blockNumber"))).body.result,
    ).toBe(blockBefore);
  });

  it("a dapp on localhost reads and sends as an end user, never as a role account", async () => {
    const [user] = roles().endUsers;
    const post = (body: string) => rpc.post("/").set("Origin", DAPP).set("Content-Type", "application/json").send(body);
    const chainId = await post(call("eth_chainId"));
    expect({ status: chainId.status, result: chainId.body.result }).toEqual({
      status: 200,
      result: `0x${roles().chainId.toString(16)}`,
    });
    expect(chainId.headers["access-control-allow-origin"]).toBe(DAPP);
    const preflight = await rpc.options("/").set("Origin", DAPP).set("Access-Control-Request-Method", "POST");
    expect({ status: preflight.status, allow: preflight.headers["access-control-allow-origin"] }).toEqual({
      status: 204,
      allow: DAPP,
    });
    const relayer = roles().relayer.address;
    const before = await balanceOf(relayer);
    for (const [body, reason] of [
      [call("eth_sendTransaction", [{ from: relayer, to: user!.address, value: "0x1" }]), "account_not_allowed"],
      [call("eth_signTypedData_v4", [roles().poolSigner.address, "{}"]), "account_not_allowed"],
      [call("personal_sign", ["0x00", roles().operator.address]), "account_not_allowed"],
      [call("evm_snapshot"), "method_not_allowed"],
      [call("hardhat_setBalance", [user!.address, "0x0"]), "method_not_allowed"],
    ] as const) {
      const res = await post(body);
      expect({ status: res.status, code: res.body.error?.code, reason: reasonOf(res) }).toEqual({
        status: 200,
        code: 4100,
        reason,
      });
    }
    // A batch: each call judged on its own.
    const batch = await post(
      `[${call("eth_chainId")},${call("eth_sendTransaction", [{ from: relayer, to: user!.address, value: "0x1" }])}]`,
    );
    expect(batch.body.map((r: { result?: string; error?: { code: number } }) => r.result ?? r.error?.code)).toEqual([
      `0x${roles().chainId.toString(16)}`,
      4100,
    ]);
    expect(await balanceOf(relayer)).toBe(before);
    const sent = await post(call("eth_sendTransaction", [{ from: user!.address, to: relayer, value: "0x1" }]));
    expect(sent.body.result).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it("a client that is not a browser (no Origin) keeps the whole node, as before", async () => {
    const res = await rpc.post("/").set("Content-Type", "application/json").send(call("evm_snapshot"));
    expect(res.body.result).toMatch(/^0x/);
    expect(res.headers["access-control-allow-origin"]).toBeUndefined();
  });
});
