// A webhook receiver that passes `npx emulator receiver-check` (docs/webhooks.md "Certify your receiver").
// Node 20, no dependencies:  WEBHOOK_SECRET=<signing_secret> PORT=3000 node docs/examples/webhook-receiver.mjs
//   POST /webhooks   the endpoint you register (POST /api/v1/webhooks {"url": "http://127.0.0.1:3000/webhooks"})
//   GET  /applied    the probe: every event this receiver applied, oldest first (receiver-check --probe)
import { createServer } from "node:http";
import { createHmac, timingSafeEqual } from "node:crypto";

const SECRET = process.env.WEBHOOK_SECRET;
if (!SECRET) throw new Error("set WEBHOOK_SECRET to the webhook's signing_secret");
const TOLERANCE_MS = Number(process.env.TOLERANCE_MS ?? 5 * 60 * 1000); // the SDK's default; 0 turns the check off
const MAX_BODY = 1024 * 1024; // real events are a few KB: refuse anything larger before verifying it

/** delivery id → the answer given, so a redelivery gets the same answer and no second side effect. */
const answered = new Map();
/** What the probe reports: one entry per side effect. Your database write goes here instead. */
const applied = [];

/** `t=<unix ms>,sha256=<hex>` checked against HMAC-SHA256(secret as UTF-8 text, "<t>.<raw body>"). */
function verify(raw, header) {
  if (typeof header !== "string") return "missing signature";
  const parts = {};
  for (const p of header.split(",")) {
    const eq = p.indexOf("=");
    if (eq > 0) parts[p.slice(0, eq).trim()] ??= p.slice(eq + 1).trim();
  }
  if (!/^\d+$/.test(parts.t ?? "") || !/^[0-9a-fA-F]{64}$/.test(parts.sha256 ?? "")) return "malformed signature";
  if (TOLERANCE_MS > 0 && Math.abs(Date.now() - Number(parts.t)) > TOLERANCE_MS)
    return "timestamp outside the tolerance";
  const expected = createHmac("sha256", Buffer.from(SECRET, "utf8")).update(`${parts.t}.`).update(raw).digest();
  return timingSafeEqual(expected, Buffer.from(parts.sha256, "hex")) ? null : "signature mismatch";
}

/** Your side effect. Unknown types are acknowledged and ignored: a newer service may send types you do not know yet. */
function apply(event) {
  applied.push({ id: event.id, event: event.event });
}

function handle(req, res, raw) {
  const reply = (status, body) =>
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  const problem = verify(raw, req.headers["x-mystery-signature"]); // the exact bytes, before any JSON.parse
  if (problem) return reply(400, { error: problem });
  let event;
  try {
    event = JSON.parse(raw.toString("utf8"));
  } catch {
    return reply(400, { error: "body is not JSON" });
  }
  const id = req.headers["x-mystery-delivery"] ?? event?.id;
  if (typeof id !== "string" || typeof event?.event !== "string")
    return reply(400, { error: "expected {event, id, data}" });
  // Check and record in one synchronous step: two parallel deliveries of one id cannot both apply it.
  const before = answered.get(id);
  if (before) return reply(before.status, before.body);
  const answer = { status: 200, body: { received: id } };
  answered.set(id, answer);
  apply(event);
  reply(answer.status, answer.body);
}

const server = createServer((req, res) => {
  if (req.method === "GET" && req.url === "/applied")
    return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ applied }));
  if (req.method !== "POST" || req.url !== "/webhooks") return res.writeHead(404).end();
  const chunks = [];
  let size = 0;
  req.on("data", (c) => {
    size += c.length;
    if (size <= MAX_BODY) chunks.push(c); // past the limit, drain without keeping
  });
  req.on("end", () =>
    size > MAX_BODY ? res.writeHead(413).end("payload too large") : handle(req, res, Buffer.concat(chunks)),
  );
});
server.listen(Number(process.env.PORT ?? 3000), "127.0.0.1", () =>
  console.log(`listening on http://127.0.0.1:${server.address().port}`),
);
