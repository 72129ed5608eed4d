// Reading a body the project did not produce (a receiver's answer, a probe, an upstream, the
// service under test, a delivery sent to our receiver): at most a stated number of bytes, then
// the rest is not read (a fetch body is cancelled, a Node stream paused), so a huge or endless
// body costs no more than the limit. A leaf every layer may import: conformance/ and shadow/
// cannot import emulator/, and the emulator's webhook sender and journal need it too.

/** The most the suite, shadow mode and the harness read of one answer of the service under test. */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

export interface Bounded {
  /** At most `limit` bytes. */
  bytes: Uint8Array;
  /** The body went on past the limit; the rest was not read. */
  truncated: boolean;
}

/** A Node readable (an IncomingMessage): paused, not destroyed, at the limit, so its socket can still be answered. */
interface NodeReadable {
  on(event: "data", fn: (chunk: Uint8Array) => void): unknown;
  on(event: "end" | "close", fn: () => void): unknown;
  on(event: "error", fn: (err: Error) => void): unknown;
  removeAllListeners(event: "data"): unknown;
  pause(): unknown;
}

/** An answer over its limit: the message names the limit and what was read. */
export class BodyTooLarge extends Error {
  constructor(
    readonly what: string,
    readonly limit: number,
  ) {
    super(`${what} is over ${limit} bytes; stopped reading at the limit`);
    this.name = "BodyTooLarge";
  }
}

/** At most `limit` bytes of `source`; past the limit the stream is cancelled (or paused) and `truncated` is set. */
export async function readBounded(
  source: Response | ReadableStream<Uint8Array> | NodeReadable | null,
  limit: number,
): Promise<Bounded> {
  if (!source) return { bytes: new Uint8Array(0), truncated: false };
  const kept = new Chunks(limit);
  // Told apart by shape, not class: an msw or undici Response is not this realm's Response.
  if (isNode(source)) return readNode(source, kept);
  const stream = "getReader" in source ? source : source.body;
  if (!stream) return kept.result(false);
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return kept.result(false);
    if (!kept.add(value)) {
      void reader.cancel().catch(() => {});
      return kept.result(true);
    }
  }
}

/** The body as text, at most `limit` bytes of it: else BodyTooLarge naming `what` and the limit. */
export async function textWithin(
  source: Response | ReadableStream<Uint8Array> | NodeReadable | null,
  limit: number,
  what: string,
): Promise<string> {
  const { bytes, truncated } = await readBounded(source, limit);
  if (truncated) throw new BodyTooLarge(what, limit);
  return new TextDecoder().decode(bytes);
}

/** The head of an answer kept for people (an outbox, a report): its first `limit` bytes; a body that breaks off keeps what came. */
export async function headText(res: Response, limit: number): Promise<string> {
  const kept = new Chunks(limit);
  if (!res.body) return "";
  const reader = res.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!kept.add(value)) {
        void reader.cancel().catch(() => {});
        break;
      }
    }
  } catch {
    // an answer whose body breaks off still answered
  }
  return new TextDecoder().decode(kept.result(false).bytes);
}

const isNode = (s: object): s is NodeReadable => typeof (s as Partial<NodeReadable>).pause === "function";

function readNode(source: NodeReadable, kept: Chunks): Promise<Bounded> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (truncated: boolean) => {
      if (settled) return;
      settled = true;
      resolve(kept.result(truncated));
    };
    source.on("data", (chunk) => {
      if (settled || kept.add(chunk)) return;
      source.removeAllListeners("data");
      source.pause();
      settle(true);
    });
    source.on("end", () => settle(false));
    source.on("close", () => settle(false));
    source.on("error", (err) => (settled ? undefined : ((settled = true), reject(err))));
  });
}

/** Chunks up to a limit: `add` keeps what fits and answers false once the limit is passed. */
class Chunks {
  private readonly parts: Uint8Array[] = [];
  private size = 0;
  constructor(private readonly limit: number) {}

  add(chunk: Uint8Array): boolean {
    const room = this.limit - this.size;
    if (chunk.byteLength > room) {
      if (room > 0) this.parts.push(chunk.subarray(0, room));
      this.size = this.limit;
      return false;
    }
    this.parts.push(chunk);
    this.size += chunk.byteLength;
    return true;
  }

  result(truncated: boolean): Bounded {
    if (this.parts.length === 1) return { bytes: this.parts[0]!, truncated };
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.byteLength;
    }
    return { bytes: out, truncated };
  }
}
