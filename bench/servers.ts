// The reference servers the benchmarks compare the emulator with, one process
// each (run with `node --import tsx bench/servers.ts KIND [PAYLOAD_FILE]`):
//   ceiling       plain node:http answering a constant: the load generator's own ceiling
//   hello         a bare @hono/node-server hello-world
//   same-payload  @hono/node-server serving the emulator's own response bodies (read from
//                 PAYLOAD_FILE: {path: body}) behind an X-API-Key check: the same bytes, none of the rules
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { serve } from "@hono/node-server";
import { Hono } from "hono";

const [kind, payloadFile] = process.argv.slice(2);
const ready = (port: number) => process.stdout.write(JSON.stringify({ url: `http://127.0.0.1:${port}` }) + "\n");

if (kind === "ceiling") {
  const body = Buffer.from('{"success":true}');
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": body.length });
    res.end(body);
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, "127.0.0.1", () => ready((server.address() as { port: number }).port));
} else if (kind === "hello") {
  const app = new Hono();
  app.get("*", (c) => c.json({ success: true, data: { hello: "world" } }));
  serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => ready(info.port));
} else if (kind === "same-payload") {
  const bodies = new Map(Object.entries(JSON.parse(readFileSync(payloadFile!, "utf8")) as Record<string, string>));
  const app = new Hono();
  app.get("*", (c) => {
    if (!c.req.header("x-api-key")) return c.json({ success: false, error: "API key required" }, 401);
    const url = new URL(c.req.url);
    const body = bodies.get(url.pathname + url.search);
    if (body === undefined) return c.json({ success: false, error: "not_found" }, 404);
    return c.body(body, 200, { "content-type": "application/json; charset=utf-8" });
  });
  serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => ready(info.port));
} else {
  process.stderr.write("usage: bench/servers.ts ceiling | hello | same-payload PAYLOAD_FILE\n");
  process.exit(2);
}
