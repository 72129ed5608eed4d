import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { readBounded } from "../../contract/index.ts";
import { Probe, PROBE_ANSWER_BYTES } from "../../conformance/receiver/probe.ts";

// Bodies the project did not produce are read up to a limit, then no further: a server streaming
// a huge body counts what it was made to write (backpressure), so "stopped early" is a byte count.

let server: Server | undefined;
afterEach(
  () =>
    new Promise<void>((resolve) =>
      server ? (server.closeAllConnections(), server.close(() => resolve())) : resolve(),
    ),
);

/** Serves `total` bytes of `fill` (in 64 KiB writes, waiting on drain); `written()` is how many it got out. */
async function streaming(total: number, fill = 0x20): Promise<{ url: string; written: () => number }> {
  let written = 0;
  server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    const chunk = Buffer.alloc(64 * 1024, fill);
    const pump = () => {
      while (written < total && !res.destroyed) {
        written += chunk.length;
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
      res.end();
    };
    res.on("close", () => res.destroy());
    pump();
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/applied`, written: () => written };
}

describe("bounded reads of answers the project did not produce", () => {
  it("receiver-check's probe stops reading a huge answer at its limit and says so", async () => {
    const up = await streaming(8 * PROBE_ANSWER_BYTES);
    const err = await new Probe(up.url, 30_000).counts(["evt_1"]).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toContain(`over ${PROBE_ANSWER_BYTES} bytes`);
    expect(up.written()).toBeLessThan(2 * PROBE_ANSWER_BYTES);
  });

  it("readBounded keeps the first `limit` bytes of a fetch body or a Node stream and marks the rest unread", async () => {
    const limit = 256 * 1024;
    const up = await streaming(64 * limit, 0x61);
    const fromNode = await new Promise<Awaited<ReturnType<typeof readBounded>>>((resolve, reject) => {
      const req = httpRequest(up.url, (res) => readBounded(res, limit).then(resolve, reject));
      req.on("error", reject);
      req.end();
    });
    expect(fromNode.truncated).toBe(true);
    expect(fromNode.bytes.byteLength).toBe(limit);
    expect(fromNode.bytes.every((b) => b === 0x61)).toBe(true);
    expect(up.written()).toBeLessThan(32 * limit);

    const whole = await readBounded(new Response("short"), limit);
    expect([new TextDecoder().decode(whole.bytes), whole.truncated]).toEqual(["short", false]);
  });
});
