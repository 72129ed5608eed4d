import { runtimeSlot } from "../pipeline/runtime.ts";
import type { Services } from "../pipeline/services.ts";

// One server-sent-events stream per dashboard client, with a bounded backlog.
// The HTTP server stops pulling from the stream while the client's socket is
// full, so a client that stops reading (a paused tab, a stuck proxy) would
// otherwise queue every event, bodies included, for ever. Past the cap the
// client is dropped: its queue is discarded at once, and its connection ends
// when it reads again, so the browser's EventSource reconnects (the page
// re-reads the journal on `hello`). Events only say "something changed".

/** Bytes queued for one client before it is dropped (~30 journal entries at their largest). */
export const STREAM_BACKLOG_CAP = 1024 * 1024;

export type Send = (event: string, data: unknown) => void;

interface Open {
  /** Bytes enqueued and not yet taken by the HTTP server. */
  queued(): number;
}

/** Each emulator's open streams, in its runtime. */
const OPEN = runtimeSlot("dashboard event streams", () => new Set<Open>());

/** Seam for tests and tools: the backlog of each open stream, in bytes. */
export function streamBacklogs(s: Services): number[] {
  return [...s.runtime.of(OPEN)].map((o) => o.queued());
}

/** A stream whose `subscribe` wires its sources to `send` and returns what unwires them (on disconnect or drop). */
export function eventStream(
  s: Services,
  subscribe: (send: Send) => () => void,
  cap = STREAM_BACKLOG_CAP,
): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  let stop = () => {};
  const set = s.runtime.of(OPEN);
  return new ReadableStream<Uint8Array>(
    {
      start(ctrl) {
        const me: Open = { queued: () => cap - (ctrl.desiredSize ?? cap) };
        let unsubscribe: (() => void) | null = null;
        let live = true;
        stop = () => {
          if (!live) return;
          live = false;
          set.delete(me);
          unsubscribe?.();
        };
        const send: Send = (event, data) => {
          if (!live) return;
          const chunk = enc.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
          if (chunk.byteLength > (ctrl.desiredSize ?? 0)) {
            stop();
            // error() discards the queue now (close() would keep it until read), and the server
            // then ends the connection, logging the reason: a string logs as one line, no stack.
            ctrl.error(
              `[emulator] dashboard event stream dropped: the client left over ${cap} bytes unread (an EventSource reconnects)`,
            );
            return;
          }
          ctrl.enqueue(chunk);
        };
        set.add(me);
        unsubscribe = subscribe(send);
        if (!live) unsubscribe();
      },
      cancel() {
        stop();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: cap }),
  );
}
