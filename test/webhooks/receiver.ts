import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

// A real HTTP receiver on 127.0.0.1:0 for delivery tests: records every request
// (raw body bytes as text, lower-cased headers) and answers with the status the
// test scripts (a fixed status, or one per request in order).

/** Scripted status meaning "accept the request and never answer". */
export const HANG = -1;

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Statuses for the next requests, in order; after they run out, `fallback`. */
  script(statuses: number[], fallback?: number): void;
  close(): Promise<void>;
}

export async function startReceiver(fallback = 200): Promise<Receiver> {
  const received: Received[] = [];
  let queue: number[] = [];
  let otherwise = fallback;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      const status = queue.shift() ?? otherwise;
      if (status === HANG) return; // never answer: the emulator's per-attempt timeout must fire
      res.writeHead(status, { "content-type": "text/plain" });
      res.end(status < 300 ? "ok" : "receiver says no");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    script(statuses, fb = otherwise) {
      queue = [...statuses];
      otherwise = fb;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
