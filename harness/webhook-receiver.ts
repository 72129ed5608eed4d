import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { listenerPolicy, refuseNodeRequest } from "../emulator/pipeline/listener-policy.ts";
import { readBounded } from "../contract/index.ts";

// A throw-away HTTP receiver on 127.0.0.1 for the delivery checks (emulator
// mode: the target must be able to reach this machine's loopback, which holds
// for an in-process or locally started emulator).

/** The most of one delivery the receiver reads: an event is a few KiB. */
const MAX_DELIVERY_BYTES = 8 * 1024 * 1024;

export interface Delivery {
  headers: Record<string, string>;
  body: string;
  /** The receiver's wall clock (ms) when the delivery arrived: what a freshness check compares `t` with. */
  receivedAt: number;
}

export interface CheckReceiver {
  url: string;
  deliveries: Delivery[];
  close(): Promise<void>;
}

/** Where a receiver listens, and the URL the target posts to (default: its own loopback address). */
export interface ReceiverOptions {
  host?: string;
  port?: number;
  /** A public URL forwarding to host:port (a tunnel), for a target that cannot reach this machine directly. */
  publicUrl?: string;
  /** Told of every delivery as it arrives, with the URL it was posted to (the suite applies its delivery invariants). */
  observe?: (d: Delivery, url: string) => void;
}

/** `status`: a fixed answer, or one per request (n = 1, 2, …). */
export async function startCheckReceiver(
  status: number | ((n: number) => number),
  opts: ReceiverOptions = {},
): Promise<CheckReceiver> {
  const deliveries: Delivery[] = [];
  let url = "";
  // The listener policy of every listener: a web page cannot plant deliveries in what a check judges.
  // A tunnel forwards its own public name as Host, so that name is answered too.
  const policy = listenerPolicy({
    allowedHosts: [...(opts.host ? [opts.host] : []), ...(opts.publicUrl ? [new URL(opts.publicUrl).hostname] : [])],
  });
  const server: Server = createServer((req, res) => {
    if (refuseNodeRequest(policy, req, res)) return;
    void readBounded(req, MAX_DELIVERY_BYTES).then(
      ({ bytes, truncated }) => {
        // a delivery over the limit is not taken (nor read further): 413, and the connection closes
        if (truncated) return void res.writeHead(413, { connection: "close" }).end();
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k.toLowerCase()] = v;
        const delivery = { headers, body: new TextDecoder().decode(bytes), receivedAt: Date.now() };
        deliveries.push(delivery);
        opts.observe?.(delivery, url);
        res.writeHead(typeof status === "number" ? status : status(deliveries.length)).end();
      },
      () => res.destroy(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  url = opts.publicUrl ?? `http://127.0.0.1:${port}/conformance-webhook`;
  return {
    url,
    deliveries,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Receiver-side verification with Web Crypto (independent of the emulator's node:crypto signer). */
export async function signatureValid(
  secret: string,
  header: string,
  rawBody: string,
): Promise<{ ok: boolean; t: string | null }> {
  const parts = new Map(
    header.split(",").map((p) => [p.slice(0, p.indexOf("=")).trim(), p.slice(p.indexOf("=") + 1).trim()] as const),
  );
  const t = parts.get("t") ?? null;
  const sig = parts.get("sha256") ?? "";
  if (!t || !/^\d+$/.test(t) || !/^[0-9a-f]{64}$/i.test(sig)) return { ok: false, t };
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(`${t}.${rawBody}`)));
  const hex = [...mac].map((b) => b.toString(16).padStart(2, "0")).join("");
  return { ok: hex === sig.toLowerCase(), t };
}
