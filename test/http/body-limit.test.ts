import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import request from "supertest";
import { startEmulator, type Emulator } from "../helpers.ts";
import { MAX_JSON_BODY_BYTES } from "../../emulator/pipeline/body.ts";
import { MAX_IMAGE_BYTES } from "../../emulator/areas/vision/fixture-host.ts";
import { Readable } from "node:stream";
import { journalOf } from "../../emulator/ui/journal.ts";

// An over-large body is refused as soon as its declared or streamed length
// passes the limit: the answer arrives while the client is still sending.

let emu: Emulator;
let close: () => Promise<void>;
beforeAll(async () => ({ emu, close } = await startEmulator()));
afterAll(() => close());

function send(
  path: string,
  opts: { declared?: number; chunks: number; chunkBytes: number; thenStall?: boolean; key?: string },
) {
  const url = new URL(path, emu.url);
  return new Promise<{ status: number; body: { error?: string; details?: { max_bytes?: number } }; sentBytes: number }>(
    (resolve, reject) => {
      const headers: Record<string, string | number> = {
        "content-type": "application/json",
        "x-api-key": opts.key ?? emu.key("demo"),
      };
      if (opts.declared !== undefined) headers["content-length"] = opts.declared;
      const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers });
      let sent = 0;
      let answered = false;
      req.on("response", (res) => {
        answered = true;
        let text = "";
        res.on("data", (d: Buffer) => (text += d.toString()));
        res.on("end", () => {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), sentBytes: sent });
          req.destroy();
        });
      });
      req.on("error", (e) => (answered ? undefined : reject(e)));
      req.flushHeaders();
      const chunk = Buffer.alloc(opts.chunkBytes, 0x20);
      let i = 0;
      const pump = () => {
        while (!answered && i < opts.chunks) {
          i++;
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once("drain", pump);
        }
        if (!answered && !opts.thenStall) req.end();
      };
      pump();
    },
  );
}

describe("request body limit", () => {
  it(`a declared Content-Length over ${MAX_JSON_BODY_BYTES} bytes → 413 payload_too_large before the body is sent`, async () => {
    const res = await send("/api/v1/webhooks", {
      declared: 20 * 1024 * 1024,
      chunks: 0,
      chunkBytes: 1,
      thenStall: true,
    });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe("payload_too_large");
    expect(res.body.details?.max_bytes).toBe(MAX_JSON_BODY_BYTES);
    expect(res.sentBytes).toBe(0);
  });

  it("a chunked body is refused once the streamed bytes pass the limit, while the client is still sending", async () => {
    // 2 MB written, then the client never ends the request: only an early answer can arrive.
    const res = await send("/api/v1/webhooks", { chunks: 32, chunkBytes: 64 * 1024, thenStall: true });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe("payload_too_large");
  });

  it("with the dashboard watching (request bodies journaled), a chunked body is still refused at the limit", async () => {
    const off = journalOf(emu.services).subscribe(() => {});
    try {
      // the client never ends the request: the journal must not wait to read it all before the 413
      const res = await send("/api/v1/webhooks", { chunks: 32, chunkBytes: 64 * 1024, thenStall: true });
      expect(res.status).toBe(413);
      expect(res.body.error).toBe("payload_too_large");
    } finally {
      off();
    }
  });

  it("a body at the limit is read and judged on its content", async () => {
    const text = JSON.stringify({
      url: "https://example.com/hook",
      event_types: ["purchase.fulfilled"],
      pad: "x".repeat(MAX_JSON_BODY_BYTES - 200),
    });
    const res = await request(emu.url)
      .post("/api/v1/webhooks")
      .set({ "content-type": "application/json", "x-api-key": emu.key("demo") })
      .send(text);
    expect(text.length).toBeLessThanOrEqual(MAX_JSON_BODY_BYTES);
    expect(res.status).not.toBe(413);
  });
});

/**
 * A chunked (no Content-Length) multipart upload whose file part never ends within `total` bytes,
 * pulled by the socket as it drains: `pulled()` is how much the server made the client produce.
 */
function endlessUpload(path: string, key: string, total: number) {
  const url = new URL(path, emu.url);
  const boundary = "emulator-test-boundary";
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const chunk = Buffer.alloc(64 * 1024, 1);
  let pulled = 0;
  const body = new Readable({
    read() {
      if (pulled >= total) return void this.push(null);
      const next = pulled === 0 ? head : chunk;
      pulled += next.length;
      this.push(next);
    },
  });
  return new Promise<{ status: number; body: { error?: string; details?: { max_bytes?: number } }; pulled: number }>(
    (resolve, reject) => {
      const req = httpRequest({
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: { "content-type": `multipart/form-data; boundary=${boundary}`, "x-api-key": key },
      });
      let answered = false;
      req.on("response", (res) => {
        answered = true;
        body.unpipe(req);
        let text = "";
        res.on("data", (d: Buffer) => (text += d.toString()));
        res.on("end", () => {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), pulled });
          req.destroy();
          body.destroy();
        });
      });
      req.on("error", (e) => (answered ? undefined : reject(e)));
      body.pipe(req);
    },
  );
}

describe("vision identify upload limit", () => {
  it("a chunked multipart upload over the limit → 413 image_too_large, having read little more than the limit", async () => {
    const res = await endlessUpload("/api/v1/vision/identify", emu.key("demo"), 200 * 1024 * 1024);
    expect(res.status).toBe(413);
    expect(res.body.error).toBe("image_too_large");
    expect(res.body.details?.max_bytes).toBe(MAX_IMAGE_BYTES);
    // counted while streaming: the client was made to produce under twice the limit, not the 200 MB
    expect(res.pulled).toBeLessThan(2 * MAX_IMAGE_BYTES);
  });
});
