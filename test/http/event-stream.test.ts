import { describe, it, expect } from "vitest";
import { connect, type Socket } from "node:net";
import { useEmulator, waitFor, type Api, type Emulator } from "../helpers.ts";
import { eventStream, streamBacklogs, STREAM_BACKLOG_CAP, type Send } from "../../emulator/ui/event-stream.ts";
import { journalOf } from "../../emulator/ui/journal.ts";

// A dashboard client that stops reading its event stream must not make the
// emulator queue every event for it: the backlog is bounded, and freed when
// the client goes away.

let emu: Emulator;
let api: Api;
useEmulator((ctx) => ({ emu, api } = ctx));

/** A stream client that sends its request and then never reads (nothing consumes the socket). */
async function pausedClient(): Promise<Socket> {
  const { port } = new URL(emu.url);
  const socket = connect(Number(port), "127.0.0.1");
  await new Promise<void>((resolve) => socket.once("connect", resolve));
  socket.pause();
  socket.write(`GET /_emulator/ui/stream HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`);
  await waitFor(() => streamBacklogs(emu.services).length === 1, "the stream to open");
  return socket;
}

/** `n` failing API calls with 16 KiB bodies: each journal entry (and event) carries its body. */
async function failingCalls(n: number): Promise<void> {
  const body = { pad: "x".repeat(16 * 1024) };
  const before = journalOf(emu.services).list({ limit: 1 })[0]?.id ?? 0;
  for (let i = 0; i < n; i++) {
    const res = await api.post("/api/v1/credits/topup").send(body);
    expect(res.status).toBe(401);
  }
  // Error answers are journalled once their body is read.
  await waitFor(
    () => (journalOf(emu.services).list({ limit: 1 })[0]?.id ?? 0) >= before + n,
    "the calls to be journalled",
  );
}

describe("dashboard event stream backlog", () => {
  it("drops a client that stops reading once its backlog passes the cap, freeing the queue", async () => {
    const socket = await pausedClient();
    try {
      // ~600 × 16 KiB ≈ 10 MB of events: far more than the socket buffers and the cap.
      await failingCalls(600);
      const backlogs = streamBacklogs(emu.services);
      expect(
        backlogs.every((b) => b <= STREAM_BACKLOG_CAP),
        `backlogs ${backlogs.join(", ")}`,
      ).toBe(true);
      // The client was dropped (not kept half-fed): nothing queued, and the journal stops keeping bodies for it.
      expect(backlogs).toEqual([]);
      expect(journalOf(emu.services).watching).toBe(false);
    } finally {
      socket.destroy();
    }
  });

  it("releases a client's stream and journal subscription when it disconnects", async () => {
    const socket = await pausedClient();
    await failingCalls(5);
    expect(journalOf(emu.services).watching).toBe(true);
    socket.destroy();
    await waitFor(() => streamBacklogs(emu.services).length === 0, "the stream to be released");
    expect(journalOf(emu.services).watching).toBe(false);
  });

  it("measures a never-pulled stream's queue and frees it on cancel", async () => {
    let send: Send = () => {};
    const stream = eventStream(emu.services, (s) => ((send = s), () => {}), 64 * 1024);
    const reader = stream.getReader();
    for (let i = 0; i < 10; i++) send("request", { pad: "y".repeat(1000) });
    const [queued] = streamBacklogs(emu.services);
    expect(queued).toBeGreaterThan(10_000);
    expect(queued).toBeLessThanOrEqual(64 * 1024);
    // Past its cap the stream is errored, not grown.
    for (let i = 0; i < 100; i++) send("request", { pad: "y".repeat(1000) });
    expect(streamBacklogs(emu.services)).toEqual([]);
    await expect(reader.read()).rejects.toMatch(/dropped/);

    const again = eventStream(emu.services, (s) => ((send = s), () => {}), 64 * 1024);
    const r2 = again.getReader();
    send("request", { pad: "z" });
    expect(streamBacklogs(emu.services)).toHaveLength(1);
    await r2.cancel();
    expect(streamBacklogs(emu.services)).toEqual([]);
  });
});
