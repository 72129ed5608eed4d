import { acrossDeliveries, onDelivery, type Delivered, type Problem } from "./invariant.ts";
import { obj, shownValue } from "./read.ts";
import { EVENT_PAYLOADS, EVENT_TYPES } from "../events.ts";
import { signatureHeader, webhookHeader } from "../webhook-signature.ts";

// Rules about webhook deliveries, as the suite's receiver gets them: each delivery on its own (its headers
// agree with its body, its signature verifies, its payload has its event's shape) and the attempts of one
// delivery together (every retry sends the same body).

const SOURCE = "docs/reference/live-service.md “Webhook delivery and signatures”";

/** The parsed body of a delivery, or null when it is no JSON object (the shape rule says so). */
function bodyOf(d: Delivered): Record<string, unknown> | null {
  try {
    return obj(JSON.parse(d.body));
  } catch {
    return null;
  }
}

/** JSON with its object keys sorted: two bodies naming the same values compare equal. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  const o = obj(v);
  if (!o) return JSON.stringify(v) ?? "null";
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
    .join(",")}}`;
}

export const DELIVERY_INVARIANTS = [
  onDelivery({
    id: "delivery.headers-name-the-body",
    rule: "Each delivery is a POST of {event, id, data} with headers X-Mystery-Event and X-Mystery-Delivery (the event id; receivers dedupe on it): the headers name the body's event and id",
    source: SOURCE,
    operations: "all",
    check: (d) => {
      const b = bodyOf(d);
      if (!b) return [];
      const out: Problem[] = [];
      const [event, id] = [webhookHeader(d.headers, "event"), webhookHeader(d.headers, "delivery")];
      if (event !== undefined && b.event !== event)
        out.push({
          pointer: "/event",
          text: `expected ${JSON.stringify(event)} (X-Mystery-Event), received ${shownValue(b.event)}`,
        });
      if (id !== undefined && b.id !== id)
        out.push({
          pointer: "/id",
          text: `expected ${JSON.stringify(id)} (X-Mystery-Delivery), received ${shownValue(b.id)}`,
        });
      return out;
    },
  }),
  onDelivery({
    id: "delivery.signature-verifies",
    rule: "The signature header is t=<unix ms>,sha256=<64 lowercase hex>: HMAC-SHA256 keyed with the signing secret's text over <t>.<raw body>, t the X-Mystery-Timestamp",
    source: SOURCE,
    operations: "all",
    check: (d) => {
      const header = webhookHeader(d.headers, "signature");
      if (header === undefined)
        return [{ pointer: "X-Mystery-Signature", text: "expected a signature, received nothing" }];
      const m = /^t=(\d+),sha256=([0-9a-f]{64})$/.exec(header);
      if (!m)
        return [
          {
            pointer: "X-Mystery-Signature",
            text: `expected t=<unix ms>,sha256=<64 lowercase hex>, received ${JSON.stringify(header)}`,
          },
        ];
      const out: Problem[] = [];
      const stamp = webhookHeader(d.headers, "timestamp");
      if (stamp !== undefined && stamp !== m[1])
        out.push({ pointer: "X-Mystery-Signature", text: `t=${m[1]} differs from X-Mystery-Timestamp ${stamp}` });
      if (
        d.secrets.length &&
        !d.secrets.some((s) => signatureHeader(s, Number(m[1]), d.body) === `t=${m[1]},sha256=${m[2]}`)
      )
        out.push({
          pointer: "X-Mystery-Signature",
          text: `sha256=${m[2]!.slice(0, 12)}… is no HMAC of "<t>.<raw body>" under the signing secret registration showed`,
        });
      return out;
    },
  }),
  onDelivery({
    id: "delivery.payload-shape",
    rule: "Each delivery is a POST of {event, id: \"<event>:<key>\", data} and each event's data has that event's shape (docs/reference/sdk-shapes.md “Webhook event data”)",
    source: SOURCE,
    operations: "all",
    check: (d) => {
      const b = bodyOf(d);
      if (!b)
        return [
          {
            pointer: "",
            text: `expected a JSON object {event, id, data}, received ${JSON.stringify(d.body.slice(0, 60))}`,
          },
        ];
      const out: Problem[] = [];
      const event = typeof b.event === "string" ? b.event : null;
      if (!event || !(EVENT_TYPES as readonly string[]).includes(event))
        out.push({ pointer: "/event", text: `expected a live event type, received ${shownValue(b.event)}` });
      if (typeof b.id !== "string" || !event || !b.id.startsWith(`${event}:`) || b.id.length === event.length + 1)
        out.push({ pointer: "/id", text: `expected "${event ?? "<event>"}:<key>", received ${shownValue(b.id)}` });
      if (!obj(b.data))
        out.push({ pointer: "/data", text: `expected the event's object, received ${shownValue(b.data)}` });
      else if (event && event in EVENT_PAYLOADS) {
        const r = EVENT_PAYLOADS[event as keyof typeof EVENT_PAYLOADS].safeParse(b.data);
        if (!r.success)
          for (const issue of r.error.issues.slice(0, 3))
            out.push({ pointer: `/data/${issue.path.join("/")}`, text: `${event}: ${issue.message}` });
      }
      return out;
    },
  }),
];

export const DELIVERY_SEQUENCES = [
  acrossDeliveries({
    id: "delivery.retries-same-body",
    rule: "X-Mystery-Delivery is the event id, the same on every retry (receivers dedupe on it): every attempt of one delivery carries the same event, id and data",
    source: SOURCE,
    operations: "all",
    key: (d) => {
      const id = webhookHeader(d.headers, "delivery");
      return id === undefined ? null : `${d.url} ${id}`;
    },
    check: (prev, next) => {
      const [a, b] = [bodyOf(prev), bodyOf(next)];
      if (!a || !b) return [];
      const out: Problem[] = [];
      for (const k of ["event", "id", "data"] as const)
        if (canonical(a[k]) !== canonical(b[k]))
          out.push({
            pointer: `/${k}`,
            text: `a retry of ${webhookHeader(next.headers, "delivery")} changed ${k}: expected ${shownValue(a[k]).slice(0, 80)} (an earlier attempt), received ${shownValue(b[k]).slice(0, 80)}`,
          });
      return out;
    },
  }),
];
