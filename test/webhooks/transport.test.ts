import { describe, it, expect } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { postJson } from "../../emulator/areas/webhooks/transport.ts";

// A receiver's answer is kept only in part (4 KiB in the outbox): reading it must stop there, so a receiver
// that streams an endless (or huge) error page neither grows the emulator's memory nor holds the attempt.

describe("webhook transport", () => {
  it("reads at most the kept part of a receiver's answer and records it at once", async () => {
    let written = 0;
    const server: Server = createServer((_req, res) => {
      res.writeHead(500, { "content-type": "text/plain" });
      const chunk = "x".repeat(64 * 1024);
      const pump = () => {
        while (!res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
      };
      pump();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      // A long attempt timeout: an answer (not a timeout) proves the read stopped at 4 KiB of an endless body.
      const result = await postJson(url, { "content-type": "application/json" }, "{}", 120_000);
      expect(result).toMatchObject({ status: 500, error: "HTTP 500" });
      expect(result.body).toBe("x".repeat(4096));
      expect(result.headers["content-type"]).toBe("text/plain");
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
    // The receiver was still sending when the attempt was recorded: it was cut off, not drained.
    expect(written).toBeGreaterThan(4096);
  });
});
