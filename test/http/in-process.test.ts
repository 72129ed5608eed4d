import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { setupServer } from "msw/node";
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
});
