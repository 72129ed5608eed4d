import { offsetPageQuery } from "./paging.ts";
import { operation } from "./operation.ts";
import { identifier, withCode, z } from "./zod.ts";

// /api/v1/webhooks (docs/webhooks.md): registrations and the delivery log, as
// the official SDK types them (WebhookRegistration, WebhookDelivery). The URL
// policy and the event-type catalogue are rules of the server (they need its
// options); the schemas check shapes and name each field's code.

/** A webhook id in a path: its length first (identifier_too_long); the handler reads the digits. */
const id = z.object({ id: identifier().describe("The webhook id") });
const tooLong = { description: "The id is over 255 characters", codes: ["identifier_too_long"] } as const;

const url = withCode(z.string().trim().min(1, "is required: the https URL deliveries are POSTed to"), "invalid_url");
const eventTypes = withCode(z.array(z.string()).nullable().optional(), "invalid_event_types");
const isActive = withCode(z.boolean().optional(), "invalid_value");

const registerBody = z.object({ url, event_types: eventTypes, is_active: isActive });
const updateBody = z.object({ url: url.optional(), event_types: eventTypes, is_active: isActive });
export type WebhookRegisterInput = z.output<typeof registerBody>;
export type WebhookUpdateInput = z.output<typeof updateBody>;

/** A registered endpoint; `event_types` null or `[]` means every event. */
export const Webhook = z.object({
  id: z.number().int(),
  url: z.string(),
  event_types: z.array(z.string()).nullable(),
  is_active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Webhook = z.output<typeof Webhook>;

/** The register answer: the only place the signing secret is shown. */
export const WebhookRegistration = Webhook.extend({ signing_secret: z.string() });
export type WebhookRegistration = z.output<typeof WebhookRegistration>;

/** One row of the delivery log. */
export const WebhookDelivery = z.object({
  id: z.number().int(),
  webhook_id: z.number().int(),
  event_type: z.string(),
  event_id: z.string(),
  status: z.enum(["PENDING", "DELIVERED", "FAILED"]),
  attempts: z.number().int(),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  next_retry_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  created_at: z.string(),
});
export type WebhookDelivery = z.output<typeof WebhookDelivery>;

const notFound = { description: "No webhook with that id on this key", codes: ["not_found"] } as const;
const badBody = {
  description: "A field is invalid",
  codes: ["invalid_json", "invalid_url", "invalid_event_types", "invalid_value", "payload_too_large"],
} as const;
/** A change's 400: its path id (identifier_too_long) or a body field. */
const badChange = { description: badBody.description, codes: ["identifier_too_long", ...badBody.codes] } as const;

const access = { kinds: ["partner", "tenant"], scopes: ["webhooks:manage"] } as const;
const common = { access, envelope: "partner" } as const;

const change = (method: "PATCH" | "PUT") =>
  operation({
    id: method === "PATCH" ? "webhooks.update" : "webhooks.replace",
    method,
    path: "/webhooks/:id",
    summary:
      method === "PATCH"
        ? "Change a webhook's URL, event types or active flag"
        : "Change a webhook (PUT form of the same update)",
    ...common,
    schema: {
      params: id,
      body: updateBody,
      responses: {
        200: { description: "Changed", data: z.object({ webhook: Webhook }) },
        400: badChange,
        404: notFound,
      },
    },
  });

export const WEBHOOKS = {
  register: operation({
    id: "webhooks.register",
    method: "POST",
    path: "/webhooks",
    summary: "Register an https endpoint for signed event deliveries (at most 20 per key)",
    ...common,
    schema: {
      body: registerBody,
      responses: {
        201: { description: "Registered; the signing secret is shown this once", data: WebhookRegistration },
        400: badBody,
        409: { description: "More than 20 webhooks on this key", codes: ["webhook_limit"] },
      },
    },
  }),
  list: operation({
    id: "webhooks.list",
    method: "GET",
    path: "/webhooks",
    summary: "The key's webhooks",
    ...common,
    schema: {
      responses: { 200: { description: "The key's webhooks", data: z.object({ webhooks: z.array(Webhook) }) } },
    },
  }),
  // Before `/webhooks/:id`: a path of its own, not an id.
  deliveries: operation({
    id: "webhooks.deliveries",
    method: "GET",
    path: "/webhooks/deliveries",
    summary: "The delivery log of the key's webhooks, newest first",
    ...common,
    schema: {
      query: z.object(offsetPageQuery()),
      responses: {
        200: {
          description: "Deliveries of the key's webhooks, newest first",
          data: z.object({ deliveries: z.array(WebhookDelivery) }),
        },
        400: { description: "limit/offset without an integer", codes: ["invalid_pagination"] },
      },
    },
  }),
  get: operation({
    id: "webhooks.get",
    method: "GET",
    path: "/webhooks/:id",
    summary: "One webhook",
    ...common,
    schema: {
      params: id,
      responses: {
        200: { description: "The webhook", data: z.object({ webhook: Webhook }) },
        400: tooLong,
        404: notFound,
      },
    },
  }),
  update: change("PATCH"),
  replace: change("PUT"),
  delete: operation({
    id: "webhooks.delete",
    method: "DELETE",
    path: "/webhooks/:id",
    summary: "Delete a webhook and drop its pending deliveries",
    ...common,
    schema: {
      params: id,
      responses: {
        200: {
          description: "Deleted (pending deliveries dropped)",
          data: z.object({ id: z.number().int(), deleted: z.literal(true) }),
        },
        400: tooLong,
        404: notFound,
      },
    },
  }),
};
