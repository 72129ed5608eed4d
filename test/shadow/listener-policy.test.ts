import { afterAll, beforeAll, expect, it } from "vitest";
import request from "supertest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expectError } from "../../conformance/assert.ts";
import { startShadow, type Shadow } from "../../shadow/index.ts";

// Issue 37 item 6: the proxy sends the real upstream key with every request it passes on, so it has the
// listener policy of every listener (emulator/pipeline/listener-policy.ts): a rebound page or another
// site's page never reaches the upstream; a page on localhost and a script do.

const KEY = "rip_v1_upstream_secret_key_0000";
const seen: { path: string; key: string | undefined }[] = [];
let server: Server;
let shadow: Shadow;

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ path: req.url ?? "", key: req.headers["x-api-key"] as string | undefined });
    res.writeHead(200, { "content-type": "application/json" }).end('{"success":true,"data":{"status":"ok"}}');
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  shadow = await startShadow({
    upstream: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    upstreamKey: KEY,
    emulator: { seed: 1, clock: "manual", chain: false },
  });
});
afterAll(async () => {
  await shadow.close();
  await new Promise((r) => server.close(r));
});

it("refuses a foreign Host and another site's page; nothing reaches the upstream", async () => {
  const proxy = request(shadow.url);
  const body = expectError(await proxy.get("/api/v1/health").set("Host", "evil.example:4020"), 403, "host_not_allowed");
  expect(String(body.message)).toContain("--allowed-host evil.example");
  for (const type of ["text/plain", "application/x-www-form-urlencoded"])
    expectError(
      await proxy
        .post("/api/v1/mystery/purchase")
        .set("Origin", "http://evil.example")
        .set("Content-Type", type)
        .send('{"tier_id":"t1"}'),
      403,
      "cross_origin_request",
      type,
    );
  // An <img> or a form navigation hides its Origin but not its Fetch Metadata.
  expectError(await proxy.get("/api/v1/health").set("Sec-Fetch-Site", "cross-site"), 403, "cross_origin_request");
  await shadow.settled();
  expect(seen).toEqual([]);
  expect(shadow.log.report().totals.calls).toBe(0);
});

it("passes a page on a loopback origin and a script on to the upstream, with the upstream key", async () => {
  const proxy = request(shadow.url);
  expect((await proxy.get("/api/v1/health").set("Origin", "http://localhost:3000")).status).toBe(200);
  expect((await proxy.get("/api/v1/health")).status).toBe(200);
  await shadow.settled();
  expect(seen).toEqual([
    { path: "/api/v1/health", key: KEY },
    { path: "/api/v1/health", key: KEY },
  ]);
});
