// The baseline: a bare @hono/node-server hello-world on the same machine.
import { serve } from "@hono/node-server";
import { Hono } from "hono";

const app = new Hono();
app.get("*", (c) => c.json({ success: true, data: { hello: "world" } }));
serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => {
  process.stdout.write(JSON.stringify({ url: `http://127.0.0.1:${info.port}` }) + "\n");
});
