import { afterAll, beforeAll, expect, it } from "vitest";
import request from "supertest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startShadow, type Shadow } from "../../shadow/index.ts";

// A small hand-written upstream answering in its own shapes: the contract judges what the emulator's
// answer cannot (its lists are empty here): a null the contract forbids, a value outside an enum.

const ROW = {
  id: 1,
  webhook_id: 1,
  event_type: "purchase.fulfilled",
  event_id: "evt_1",
  status: "SENT",
  attempts: 1,
  last_status_code: 200,
  last_error: null,
  next_retry_at: null,
  delivered_at: "2026-01-15T12:00:00.000Z",
  created_at: "2026-01-15T12:00:00.000Z",
};
const HOOK = {
  id: 1,
  url: "https://example.com/h",
  event_types: null,
  is_active: true,
  created_at: null,
  updated_at: "2026-01-15T12:00:00.000Z",
};
let server: Server;
let shadow: Shadow;

beforeAll(async () => {
  server = createServer((req, res) => {
    const deliveries = req.url?.startsWith("/api/v1/webhooks/deliveries");
    const body = deliveries
      ? { success: true, data: { deliveries: [ROW] }, pagination: { limit: 20, offset: 0, has_more: false } }
      : { success: true, data: { webhooks: [HOOK] } };
    res.writeHead(200, {
      "content-type": "application/json",
      "x-request-id": "up_1",
      "x-ratelimit-limit": "60",
      "x-ratelimit-remaining": "59",
      "x-ratelimit-reset": "1",
    });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  shadow = await startShadow({
    upstream: `http://127.0.0.1:${port}`,
    upstreamKey: "rip_v1_handwritten_key_0000",
    emulator: { seed: 1, clock: "manual", chain: false },
  });
});
afterAll(async () => {
  await shadow.close();
  await new Promise((r) => server.close(r));
});

it("reports a null the contract forbids and a value outside a declared enum", async () => {
  await request(shadow.url).get("/api/v1/webhooks");
  await request(shadow.url).get("/api/v1/webhooks/deliveries");
  await shadow.settled();
  const byOp = Object.fromEntries(
    shadow.log.report().operations.map((o) => [o.id, o.differences.map((d) => `${d.kind} ${d.where} ${d.upstream}`)]),
  );
  expect(byOp["webhooks.list"]).toEqual(["nullability /data/webhooks/*/created_at null"]);
  expect(byOp["webhooks.deliveries"]).toEqual(['enum /data/deliveries/*/status "SENT"']);
});
