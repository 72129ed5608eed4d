import { describe, it, expect } from "vitest";
import { useEmulator, startEmulator, balance, type Api, type Emulator } from "../helpers.ts";
import { expectError } from "../../conformance/assert.ts";

// What a web page the developer happens to have open can do to the emulator
// on 127.0.0.1: DNS rebinding (a foreign Host), cross-site writes to the
// control plane (CSRF) and framing the dashboard (clickjacking).

let emu: Emulator;
let api: Api;
useEmulator((ctx) => ({ emu, api } = ctx));

const CARD = "/api/v1/pokemon/cards/base1-4";

describe("Host check (DNS rebinding)", () => {
  it("refuses a foreign Host on every route: control plane, dashboard and API, and nothing leaks", async () => {
    for (const path of ["/_emulator/keys", "/_emulator/ui", "/_emulator/state", CARD, "/api/v1/health"]) {
      const res = await api.get(path).set("Host", "evil.example:4010").set("X-API-Key", emu.key("demo"));
      const body = expectError(res, 403, "host_not_allowed", path);
      expect(String(body.message)).toContain("evil.example");
      expect(String(body.message)).toContain("allowedHosts");
      expect(JSON.stringify(body)).not.toContain(emu.key("demo"));
    }
    // A write never reaches the handler: state is unchanged.
    const before = await balance(api, emu.key("demo"));
    expectError(
      await api
        .post("/_emulator/credits/" + emu.key("demo"))
        .set("Host", "evil.example")
        .send({ credits: 5 }),
      403,
      "host_not_allowed",
    );
    expectError(
      await api.put("/_emulator/state").set("Host", "rebind.attacker.test:4010").send({}),
      403,
      "host_not_allowed",
    );
    expect(await balance(api, emu.key("demo"))).toBe(before);
  });

  it("answers loopback names and IP literals, whatever the port", async () => {
    for (const host of [
      "localhost:4010",
      "LOCALHOST",
      "app.localhost:4010",
      "127.0.0.1:4010",
      "127.8.9.10",
      "[::1]:4010",
      "localhost.",
    ]) {
      const res = await api.get("/_emulator/health").set("Host", host);
      expect({ host, status: res.status, ok: res.body.success }).toEqual({ host, status: 200, ok: true });
    }
    // A name that merely contains "localhost" is not loopback.
    expectError(await api.get("/_emulator/health").set("Host", "localhost.evil.example"), 403, "host_not_allowed");
    expectError(await api.get("/_emulator/health").set("Host", "evillocalhost"), 403, "host_not_allowed");
  });

  it("allowedHosts adds names (a leading dot: the domain and its subdomains)", async () => {
    const { api: other, close } = await startEmulator({ allowedHosts: ["emulator.test", ".dev.internal"] });
    try {
      for (const host of ["emulator.test:4010", "dev.internal", "a.b.dev.internal", "localhost"]) {
        const res = await other.get("/_emulator/health").set("Host", host);
        expect({ host, status: res.status }).toEqual({ host, status: 200 });
      }
      expectError(await other.get("/_emulator/health").set("Host", "x.emulator.test"), 403, "host_not_allowed");
    } finally {
      await close();
    }
  });
});

describe("control-plane writes are JSON and same-origin (CSRF)", () => {
  const evil = "https://evil.example";
  const writes: [string, string, Record<string, unknown>][] = [
    ["post", "/_emulator/keys", { kind: "partner" }],
    ["post", "/_emulator/reset", {}],
    ["post", "/_emulator/clock/advance", { ms: 1000 }],
    ["put", "/_emulator/state", {}],
  ];

  it("refuses a cross-site Origin, whatever the content type, before anything changes", async () => {
    const keysBefore = (await api.get("/_emulator/keys").expect(200)).body.data.keys.length;
    const now = emu.clock.now();
    for (const [method, path, body] of writes)
      for (const type of [
        "application/json",
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
      ]) {
        const res = await api[method as "post"](path)
          .set("Origin", evil)
          .set("Content-Type", type)
          .send(JSON.stringify(body));
        expect(String(expectError(res, 403, "cross_origin_request", `${method} ${path} ${type}`).message)).toContain(
          evil,
        );
      }
    expectError(
      await api
        .post(`/_emulator/credits/${emu.key("demo")}`)
        .set("Origin", "null")
        .send({ credits: 9 }),
      403,
      "cross_origin_request",
    );
    // Browsers that strip Origin still say where the request came from.
    expectError(await api.post("/_emulator/reset").set("Sec-Fetch-Site", "cross-site"), 403, "cross_origin_request");
    expectError(await api.post("/_emulator/reset").set("Sec-Fetch-Site", "same-site"), 403, "cross_origin_request");
    expect((await api.get("/_emulator/keys").expect(200)).body.data.keys.length).toBe(keysBefore);
    expect(emu.clock.now()).toBe(now);
  });

  it("refuses a body that is not declared JSON, even without an Origin", async () => {
    const before = await balance(api, emu.key("demo"));
    for (const type of [
      "text/plain",
      "text/plain;charset=UTF-8",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
    ]) {
      const res = await api
        .post(`/_emulator/credits/${emu.key("demo")}`)
        .set("Content-Type", type)
        .send(JSON.stringify({ credits: 7 }));
      expect(String(expectError(res, 415, "unsupported_media_type", type).message)).toContain("application/json");
    }
    // An empty text/plain form is still a form.
    expectError(await api.post("/_emulator/reset").set("Content-Type", "text/plain"), 415, "unsupported_media_type");
    expect(await balance(api, emu.key("demo"))).toBe(before);
  });

  it("accepts its own origin, JSON, and scripts that send no Origin (curl -X POST with no body)", async () => {
    const origin = emu.url;
    const own = await api
      .post(`/_emulator/credits/${emu.key("demo")}`)
      .set("Origin", origin)
      .set("Sec-Fetch-Site", "same-origin")
      .send({ credits: 3 });
    expect(own.status).toBe(200);
    expect(own.body.data.purchased_credits).toBeGreaterThanOrEqual(3);
    const t = emu.clock.now();
    const charset = await api
      .post("/_emulator/clock/advance")
      .set("Content-Type", "application/json; charset=utf-8")
      .send(JSON.stringify({ ms: 10 }));
    expect({ status: charset.status, now: charset.body.data.now_ms }).toEqual({ status: 200, now: t + 10 });
    expect((await api.post("/_emulator/snapshot").set("Sec-Fetch-Site", "none")).status).toBe(201);
    expect((await api.post("/_emulator/snapshot")).status).toBe(201);
    // Reads from another site's page are refused too (they could spend credits or read keys); a page on
    // a loopback origin (a dapp on localhost) may read.
    expectError(await api.get("/_emulator/keys").set("Origin", evil), 403, "cross_origin_request");
    expect((await api.get("/_emulator/keys").set("Origin", "http://localhost:5173")).status).toBe(200);
  });
});

describe("the dashboard may not be framed (clickjacking)", () => {
  it("sends frame-ancestors 'none' and X-Frame-Options: DENY with every dashboard file", async () => {
    for (const path of ["/_emulator/ui", "/_emulator/ui/app.js", "/_emulator/ui/style.css"]) {
      const res = await api.get(path).expect(200);
      expect({ path, csp: res.headers["content-security-policy"], xfo: res.headers["x-frame-options"] }).toEqual({
        path,
        csp: expect.stringContaining("frame-ancestors 'none'"),
        xfo: "DENY",
      });
    }
  });
});
