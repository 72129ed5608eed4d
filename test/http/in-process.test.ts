import { describe, it, expect, beforeAll, afterAll, afterEach } from "vitest";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { OPERATIONS } from "../../contract/index.ts";
import { createEmulator, isLoopback, type Emulator } from "../../emulator/index.ts";
import { startEmulator } from "../helpers.ts";

// In-process mode: emu.handlers plugged into msw serve the same API, no port.
let emu: Emulator;
const server = setupServer();

beforeAll(async () => {
  emu = await createEmulator({ seed: 1, clock: "manual" });
  server.use(...emu.handlers);
  server.listen({
    onUnhandledRequest(req, print) {
      if (!isLoopback(req.url)) print.error();
    },
  });
});
afterEach(() => {
  server.resetHandlers(...emu.handlers);
});
afterAll(async () => {
  server.close();
  await emu.close();
});

describe("in-process mode (msw)", () => {
  it("answers global fetch at the in-process origin", async () => {
    expect(emu.url).toBe("http://emulator.local");
    const res = await fetch(`${emu.url}/api/v1/pokemon/cards/base1-4`, { headers: { "X-API-Key": emu.key("demo") } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-credits-remaining")).toBe("499");
    const body = await res.json();
    expect(body.data).toMatchObject({ id: "base1-4", name: "Charizard" });
  });

  it("emu.fetch works without msw, with relative paths", async () => {
    const res = await emu.fetch("/api/v1/health");
    expect(res.status).toBe(200);
  });

  it("emu.fetch builds its request with the platform's class while msw's interceptors patch the global one", async () => {
    expect(globalThis.Request).not.toBe(Request.prototype.constructor);
    const res = await emu.fetch("/api/v1/pokemon/cards/base1-4", { headers: { "X-API-Key": emu.key("demo") } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { id: string } }).data.id).toBe("base1-4");
    const [call] = emu.requests.find({ operation: "cards.get", limit: 1 });
    expect(call!.key_name).toBe("demo");
  });

  it("emu.fetch routes whatever origin the app under test uses (the Host guard is for sockets)", async () => {
    const res = await emu.fetch(
      new Request("https://api.example.com/api/v1/pokemon/cards/base1-4", {
        headers: { "X-API-Key": emu.key("demo") },
      }),
    );
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { id: string } }).data.id).toBe("base1-4");
  });

  it("lets loopback traffic pass (a listening emulator beside it)", async () => {
    const other = await startEmulator();
    try {
      const res = await fetch(`${other.emu.url}/api/v1/health`);
      expect(res.status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it("has one handler per operation, then one for the rest of the origin (control plane, unknown paths)", () => {
    expect(emu.handlers).toHaveLength(OPERATIONS.length + 1);
    const heads = emu.handlers.map((h) => h.info.header);
    expect(heads).toContain("POST http://emulator.local/api/v1/webhooks");
    expect(heads).toContain("GET http://emulator.local/api/v1/:game/cards/:id");
    expect(heads.at(-1)).toBe("/.+/ http://emulator.local/*");
  });

  it("each operation's handler matches exactly the requests msw's own handler for its path and method matches", async () => {
    const handlers = emu.handlers.slice(0, -1);
    const verdicts: string[] = [];
    let matched = 0;
    for (const h of handlers) {
      const method = String(h.info.method);
      const path = String(h.info.path);
      const plain = http[method.toLowerCase() as "get"](path, () => undefined);
      const url = path.replace(/:\w+/g, "x%20Y");
      const variants = [
        url,
        `${url}/`,
        `${url}?fresh=true#h`,
        url.toUpperCase(),
        `${url}/more`,
        url.replace("/api/v1", "/api/v2"),
      ];
      for (const u of variants)
        for (const m of [method, method === "GET" ? "POST" : "GET"]) {
          const request = new Request(u.replace(/^HTTP:\/\/EMULATOR\.LOCAL/, "http://emulator.local"), { method: m });
          const [ours, theirs] = [await h.test({ request }), await plain.test({ request })];
          if (ours !== theirs) verdicts.push(`${m} ${u}: ours ${ours}, msw ${theirs}`);
          if (ours) matched++;
        }
    }
    expect(handlers.length).toBe(OPERATIONS.length);
    expect(verdicts).toEqual([]);
    // Its own method: the path, with a trailing slash, with a query, in capitals; never one more segment or v2.
    expect(matched).toBe(4 * handlers.length);
  });

  it("server.use() of one operation's handler overrides that operation; the others still answer from the emulator", async () => {
    server.use(
      http.get(`${emu.url}/api/v1/webhooks`, () =>
        HttpResponse.json({ success: true, data: { webhooks: [] } }, { status: 200, headers: { "X-Override": "1" } }),
      ),
    );
    const key = { "X-API-Key": emu.key("demo") };
    const overridden = await fetch(`${emu.url}/api/v1/webhooks`, { headers: key });
    expect(overridden.headers.get("x-override")).toBe("1");
    expect(overridden.headers.get("x-request-id")).toBeNull();
    const card = await fetch(`${emu.url}/api/v1/pokemon/cards/base1-4`, { headers: key });
    expect(((await card.json()) as { data: { id: string } }).data.id).toBe("base1-4");
    const registered = await fetch(`${emu.url}/api/v1/webhooks`, {
      method: "POST",
      headers: { ...key, "Content-Type": "application/json" },
      body: JSON.stringify({ url: "http://127.0.0.1:9/hook" }),
    });
    expect(registered.status).toBe(201);
    expect(registered.headers.get("x-request-id")).toMatch(/^req_/);
    expect(emu.requests.count({ operation: "webhooks.register" })).toBe(1);
    expect(emu.requests.count({ operation: "webhooks.list" })).toBe(0);
  });
});
