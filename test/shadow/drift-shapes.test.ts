import { afterAll, beforeAll, expect, it } from "vitest";
import request from "supertest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startShadow, type Shadow } from "../../shadow/index.ts";
import { DRIFT_PANEL_ID } from "../../shadow/panel.ts";

// An upstream that drifts in every shape a read can: a field missing (an enum one), an extra one, a
// wrong type, a null, a body that is not JSON, a body cut short. The proxy must pass each answer on,
// name it in the report and the dashboard panel, and keep running (it once exited on the first one).

const ROW = {
  id: 1,
  webhook_id: 1,
  event_type: "purchase.completed",
  event_id: "evt_1",
  status: "DELIVERED",
  attempts: 1,
  last_status_code: 200,
  last_error: null,
  next_retry_at: null,
  delivered_at: "2026-01-15T12:00:00.000Z",
  created_at: "2026-01-15T12:00:00.000Z",
};
const page = (row: Record<string, unknown>, more: Record<string, unknown> = {}) =>
  JSON.stringify({
    success: true,
    data: { deliveries: [row], ...more },
    pagination: { limit: 20, offset: 0, has_more: false },
  });
const { status: _omitted, ...withoutStatus } = ROW;
const SHAPES: Record<string, string> = {
  missing: page(withoutStatus),
  extra: page(ROW, { surprise: "yes" }),
  type: page({ ...ROW, attempts: "1" }),
  null: page({ ...ROW, status: null }),
  "not JSON": "<html>upstream error page</html>",
  truncated: page(ROW).slice(0, 40),
};

let shape = "missing";
let server: Server;
let shadow: Shadow;

beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json", "x-request-id": "up_1" });
    res.end(SHAPES[shape]);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  shadow = await startShadow({
    upstream: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    upstreamKey: "rip_v1_drift_shapes_key_0000",
    emulator: { seed: 1, clock: "manual", chain: false },
    dashboardPort: 0,
  });
});
afterAll(async () => {
  await shadow.close();
  await new Promise((r) => server.close(r));
});

/** The report's differences as `kind where upstream`. */
const differences = () =>
  shadow.log
    .report()
    .operations.flatMap((o) => o.differences)
    .map((d) => `${d.kind} ${d.where} ${d.upstream}`);

it("reports every drift shape, passes the upstream answer on, and keeps running", async () => {
  const expected: Record<string, string> = {
    missing: "missing /data/deliveries/*/status nothing",
    extra: "extra /data/surprise string",
    type: "type /data/deliveries/*/attempts string",
    null: "nullability /data/deliveries/*/status null",
    "not JSON": "type / not JSON",
    truncated: "type / not JSON",
  };
  for (const [name, body] of Object.entries(SHAPES)) {
    shape = name;
    const res = await request(shadow.url)
      .get("/api/v1/webhooks/deliveries")
      .buffer(true)
      .parse((r, cb) => {
        let text = "";
        r.on("data", (c: Buffer) => (text += c.toString("utf8")));
        r.on("end", () => cb(null, text));
      });
    expect({ name, status: res.status, body: res.body }).toEqual({ name, status: 200, body });
    await shadow.settled();
    expect(
      differences().filter((d) => d.startsWith(expected[name]!)),
      `${name}: ${differences().join("; ")}`,
    ).not.toEqual([]);
  }
  const op = shadow.log.report().operations.find((o) => o.id === "webhooks.deliveries")!;
  expect({ calls: op.calls, compared: op.compared, differing: op.differing }).toEqual({
    calls: 6,
    compared: 6,
    differing: 6,
  });
  // The dashboard shows the same report (the panel once failed validation and took the proxy down).
  const panels = await request(shadow.emulator.url).get("/_emulator/panels").expect(200);
  const panel = panels.body.data.panels.find((p: { id: string }) => p.id === DRIFT_PANEL_ID);
  expect(panel.summary.find((s: { label: string }) => s.label === "calls").value).toBe(6);
});
