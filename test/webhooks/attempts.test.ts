import { describe, it, expect } from "vitest";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { useEmulator, type Api } from "../helpers.ts";
import type { Emulator } from "../../emulator/index.ts";
import { expectError } from "../../conformance/assert.ts";

// Each delivery attempt seen whole in the control plane: the exact body and headers sent (signature
// included), the receiver's answer (status, headers, first 4 KiB of its body, time taken), and a
// "copy as curl" line that replays the attempt byte for byte.

interface Seen {
  headers: IncomingHttpHeaders;
  body: string;
}

async function answeringReceiver(): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      seen.push({ headers: req.headers, body });
      res.writeHead(422, { "content-type": "text/plain", "x-receiver": "unhappy" }).end("n".repeat(5000));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks?tenant=it's`,
    seen,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe("webhook attempts, whole", () => {
  let emu: Emulator;
  let api: Api;
  useEmulator((ctx) => ({ emu, api } = ctx), { chain: false });

  it("the outbox and GET /_emulator/webhooks/attempts/:id show what was sent, what came back, and a curl that replays it", async () => {
    const rx = await answeringReceiver();
    try {
      const key = emu.key("demo");
      await api.post("/api/v1/webhooks").set("X-API-Key", key).send({ url: rx.url }).expect(201);
      await api
        .post("/_emulator/events")
        .send({ type: "purchase.fulfilled", key, data: { note: "it's quoted" } })
        .expect(201);
      const [entry] = (await api.get("/_emulator/webhooks/outbox").expect(200)).body.data.attempts;
      expect(rx.seen).toHaveLength(1);
      expect(entry.request.body).toBe(rx.seen[0].body);
      expect(entry.request.headers["X-Mystery-Signature"]).toBe(rx.seen[0].headers["x-mystery-signature"]);
      expect(entry.response.status).toBe(422);
      expect(entry.response.headers).toMatchObject({ "content-type": "text/plain", "x-receiver": "unhappy" });
      expect(entry.response.body).toBe("n".repeat(4096));
      expect(entry.duration_ms).toBeGreaterThanOrEqual(0);

      const one = (await api.get(`/_emulator/webhooks/attempts/${entry.id}`).expect(200)).body.data.attempt;
      expect(one).toEqual(entry);

      // The curl line sends the same bytes and headers again.
      // Async: the receiver answering it runs in this process.
      await promisify(execFile)("sh", ["-c", `${entry.curl} -s -o /dev/null --max-time 10`]);
      expect(rx.seen).toHaveLength(2);
      expect(rx.seen[1].body).toBe(rx.seen[0].body);
      for (const h of [
        "x-mystery-signature",
        "x-mystery-delivery",
        "x-mystery-event",
        "x-mystery-timestamp",
        "content-type",
        "user-agent",
      ])
        expect(rx.seen[1].headers[h]).toBe(rx.seen[0].headers[h]);
    } finally {
      await rx.close();
    }
  });

  it("an unknown or malformed attempt id is 404 not_found / 400, never a 500", async () => {
    expectError(await api.get("/_emulator/webhooks/attempts/999999"), 404, "not_found");
    for (const id of ["abc", "0", "1e3", "9".repeat(300)])
      expectError(await api.get(`/_emulator/webhooks/attempts/${id}`), 400, "invalid_value", id);
  });
});
