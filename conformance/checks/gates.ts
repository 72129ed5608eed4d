import { emulatorOnly, type Check, type CheckContext } from "../types.ts";
import { ensure, env, expectError, expectWarehouseError } from "../assert.ts";

// The concurrency gates (issue 34): docs/reference/api-rules.md “Other limits” gives the warehouse read pool of 20;
// docs/reference/live-service.md “Rate limits and caching” the global gates of 24 reads, 5 purchases, 10 writes and
// 10 wallet reads. A gate is filled by holding its requests open with an injected latency (the faults step comes after
// the gate), the next request must be shed with 503 overloaded, Retry-After: 1, retryable: true; then the clock moves
// past the latency and the held requests end. Only the emulator can hold a request open on purpose.

const HOLD_MS = 60_000;

interface Gate {
  name: string;
  size: number;
  method: "GET" | "POST";
  path: string;
  key: "partnerKey" | "tenantKey";
  warehouse?: boolean;
}

const GATES: readonly Gate[] = [
  { name: "warehouse read pool", size: 20, method: "GET", path: "/api/v1/sites", key: "tenantKey", warehouse: true },
  { name: "partner reads", size: 24, method: "GET", path: "/api/v1/mystery/stats", key: "partnerKey" },
  { name: "purchases", size: 5, method: "POST", path: "/api/v1/mystery/purchase", key: "partnerKey" },
  { name: "partner writes", size: 10, method: "POST", path: "/api/v1/wallet/deposit-address", key: "partnerKey" },
  { name: "wallet reads", size: 10, method: "GET", path: "/api/v1/wallet/balance", key: "partnerKey" },
];

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function shedBeyond(ctx: CheckContext, gate: Gate): Promise<void> {
  const { http, control } = ctx;
  const key = ctx[gate.key];
  const body = gate.method === "POST" ? { body: {} } : {};
  const fault = await control!.request<{ id: string }>("POST", "/faults", {
    match: { method: gate.method, path: gate.path },
    status: 503,
    error: "timeout",
    latency_ms: HOLD_MS,
    times: gate.size,
  });
  const held = Array.from({ length: gate.size }, () => http.call(gate.method, gate.path, { key, ...body }));
  // Every held request has passed its gate once the fault has counted it.
  for (let waited = 0; ; waited += 10) {
    const { faults } = await control!.request<{ faults: { id: string; hits: number }[] }>("GET", "/faults");
    const hits = faults.find((f) => f.id === fault.id)?.hits ?? 0;
    if (hits >= gate.size) break;
    ensure(waited < 10_000, `${gate.name}: only ${hits} of ${gate.size} requests got past the gate`);
    await pause(10);
  }
  const shed = await http.call(gate.method, gate.path, { key, ...body });
  const what = `${gate.method} ${gate.path} with ${gate.size} held open (${gate.name})`;
  if (gate.warehouse) expectWarehouseError(shed, 503, "overloaded", what);
  else expectError(shed, 503, "overloaded", what);
  ensure(shed.headers["retry-after"] === "1", `${what}: Retry-After must be 1, got ${shed.headers["retry-after"]}`);
  ensure(env(shed).retryable === true, `${what}: retryable must be true`);
  await control!.advance(HOLD_MS);
  for (const r of await Promise.all(held))
    ensure(env(r).error !== "overloaded", `${gate.name}: a request within the gate's ${gate.size} was shed`);
}

export const gateChecks: Check[] = [
  {
    id: "pipeline.concurrency-gates",
    guards:
      "docs/reference/api-rules.md “Other limits” (warehouse read pool of 20) and “Error codes” (503 overloaded); docs/reference/live-service.md “Rate limits and caching” (gates)",
    profile: "pipeline",
    title: "A full concurrency gate sheds with 503 overloaded, Retry-After: 1",
    rule: "The warehouse read pool holds 20 concurrent requests and the global gates 24 reads, 5 purchases, 10 writes and 10 wallet reads; one more while they are held is 503 overloaded with Retry-After: 1 and retryable: true.",
    ...emulatorOnly(
      "faults",
      "holds each gate's requests open with an injected latency, then advances the clock past it",
      ["partnerKey", "tenantKey"],
    ),
    deviation: "warehouse_read_pool_21",
    async run(ctx) {
      for (const gate of GATES) await shedBeyond(ctx, gate);
    },
  },
];
