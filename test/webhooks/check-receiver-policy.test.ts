import { afterAll, beforeAll, expect, it } from "vitest";
import request from "supertest";
import { expectError } from "../../conformance/assert.ts";
import { startCheckReceiver, type CheckReceiver } from "../../harness/webhook-receiver.ts";

// Issue 37 items 6/7 (the class): the harness's webhook receiver (scenarios, conformance checks) has the
// listener policy of every listener: a rebound page or another site's page cannot plant a delivery in
// what a check judges; the emulator's deliveries (no Origin) and a tunnel's public name are received.

let rx: CheckReceiver;
beforeAll(async () => {
  rx = await startCheckReceiver(200);
});
afterAll(() => rx.close());

const at = () => request(new URL(rx.url).origin);

it("refuses a foreign Host and another site's page, and records nothing", async () => {
  expectError(
    await at().post("/conformance-webhook").set("Host", "evil.example").send({ id: "x" }),
    403,
    "host_not_allowed",
  );
  expectError(
    await at()
      .post("/conformance-webhook")
      .set("Origin", "http://evil.example")
      .set("Content-Type", "text/plain")
      .send('{"id":"forged"}'),
    403,
    "cross_origin_request",
  );
  expect(rx.deliveries).toEqual([]);
});

it("receives a delivery with no Origin, and one from a page on localhost", async () => {
  await at().post("/conformance-webhook").send({ id: "real" }).expect(200);
  await at().post("/conformance-webhook").set("Origin", "http://localhost:3000").send({ id: "page" }).expect(200);
  expect(rx.deliveries.map((d) => d.body)).toEqual(['{"id":"real"}', '{"id":"page"}']);
});
