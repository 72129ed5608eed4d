import { createHash } from "node:crypto";
import { dataOf, errorIs, is, toSuccess, type Body, type Deviation, type Exchange } from "./deviation.ts";
import { webhooksSlice } from "../../emulator/areas/webhooks/model.ts";

// Deviations that break the webhooks area's rules, one per conformance check.

const WEBHOOK_BY_ID = /^\/api\/v1\/webhooks\/(\d+)$/;
const isPath = (x: Exchange, method: string, path: string) => x.req.method === method && x.url.pathname === path;

export const STALE_SIGNING = "webhook_timestamp_stale";
/** The signing stamp's offset from the wall clock: an hour in the past under `webhook_timestamp_stale`, else 0.
 * The one deviation that acts at delivery time, through the signing hook (a delivery is no answer to rewrite). */
export const signingSkewMs = (active: ReadonlySet<string>): number => (active.has(STALE_SIGNING) ? -3_600_000 : 0);

export const webhooksDeviations: readonly Deviation[] = [
  {
    name: "webhook_secret_leaks",
    breaks: "the signing secret is shown once, never by GET",
    apply: (x) => {
      const m = WEBHOOK_BY_ID.exec(x.url.pathname);
      const data = x.body?.data as { webhook?: Record<string, unknown> } | undefined;
      if (!m || x.req.method !== "GET" || x.status !== 200 || !data?.webhook) return;
      const rec = webhooksSlice(x.services.store).webhooks[Number(m[1])];
      if (rec) data.webhook.signing_secret = rec.secret;
    },
  },
  {
    name: "lenient_event_types",
    breaks: "unknown event types are 400 invalid_event_types",
    apply: (x) => {
      if (!errorIs(x, 400, "invalid_event_types")) return;
      x.status = 201;
      x.body = {
        success: true,
        data: { id: 0, url: "", event_types: [], is_active: true, signing_secret: "0".repeat(64) },
      };
    },
  },
  {
    name: "no_webhook_limit",
    breaks: "a key has at most 20 webhooks (409 webhook_limit)",
    apply: (x) => {
      if (!errorIs(x, 409, "webhook_limit")) return;
      x.status = 201;
      x.body = {
        success: true,
        data: { id: 0, url: "", event_types: [], is_active: true, signing_secret: "0".repeat(64) },
      };
    },
  },
  {
    name: "webhook_visible_to_other_keys",
    breaks: "another key's webhook is 404 not_found",
    apply: (x) => {
      const m = WEBHOOK_BY_ID.exec(x.url.pathname);
      if (!m || x.req.method !== "GET" || !errorIs(x, 404, "not_found")) return;
      const rec = webhooksSlice(x.services.store).webhooks[Number(m[1])];
      if (rec)
        toSuccess(x, {
          webhook: {
            id: rec.id,
            url: rec.url,
            event_types: rec.event_types,
            is_active: rec.is_active,
            created_at: rec.created_at,
            updated_at: rec.updated_at,
          },
        });
    },
  },
  {
    name: "delivery_log_event_type_underscored",
    breaks: "a delivery log row names the event delivered (dotted purchase.fulfilled), not a respelling",
    apply: (x) => {
      const rows = (x.body?.data as { deliveries?: Array<Record<string, unknown>> } | undefined)?.deliveries;
      if (isPath(x, "GET", "/api/v1/webhooks/deliveries") && Array.isArray(rows))
        for (const r of rows) if (typeof r.event_type === "string") r.event_type = r.event_type.replace(/\./g, "_");
    },
  },
  {
    name: STALE_SIGNING,
    breaks: "a delivery is signed with the time of the attempt (within the 5-minute tolerance of the receiver's clock)",
    apply: () => {},
  },
  {
    name: "webhook_by_id_inactive",
    breaks: "a webhook fetched by id carries the listed webhook's values",
    apply: (x) => {
      const w = (x.body?.data as { webhook?: Record<string, unknown> } | undefined)?.webhook;
      if (
        WEBHOOK_BY_ID.test(x.url.pathname) &&
        x.req.method === "GET" &&
        x.status === 200 &&
        w &&
        typeof w.is_active === "boolean"
      )
        w.is_active = !w.is_active;
    },
  },
  {
    name: "deliveries_without_pagination",
    breaks: "the delivery log is offset-paged with pagination",
    apply: (x) => {
      if (isPath(x, "GET", "/api/v1/webhooks/deliveries") && x.body) delete x.body.pagination;
    },
  },
  {
    name: "webhook_secret_mismatch",
    breaks: "deliveries are signed with the secret returned at registration",
    apply: (x) => {
      const data = x.body?.data as { signing_secret?: string } | undefined;
      if (isPath(x, "POST", "/api/v1/webhooks") && x.status === 201 && typeof data?.signing_secret === "string")
        data.signing_secret = createHash("sha256").update(`not-${data.signing_secret}`).digest("hex");
    },
  },
  {
    name: "failed_delivery_reported_delivered",
    breaks: "only a 2xx answer is success (a failing receiver ends FAILED)",
    apply: (x) => {
      const data = x.body?.data as { deliveries?: Body[] } | undefined;
      if (!isPath(x, "GET", "/api/v1/webhooks/deliveries") || !Array.isArray(data?.deliveries)) return;
      for (const d of data.deliveries)
        if (d.status === "FAILED") Object.assign(d, { status: "DELIVERED", last_error: null, last_status_code: 200 });
    },
  },

  // Lifecycle deviations (conformance/checks/lifecycle.ts, one per scenario) break the rule a
  // lifecycle shows at its end, observed through the public API the scenario reads; where
  // that rule lives in later state rather than in one response, they change the state the
  // way a broken server would.
  {
    name: "lifecycle_delivery_never_delivered",
    breaks: "a retried webhook delivery ends DELIVERED in the delivery log",
    apply: (x) => {
      const rows = dataOf(x)?.deliveries;
      if (!is(x, "GET", /^\/api\/v1\/webhooks\/deliveries$/) || !Array.isArray(rows)) return;
      for (const r of rows as Record<string, unknown>[]) if (r.status === "DELIVERED") r.status = "PENDING";
    },
  },
];
