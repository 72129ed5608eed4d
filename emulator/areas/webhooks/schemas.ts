import { withCode, z, type RouteSchema } from "../../pipeline/schema.ts";
import { offsetPageQuery } from "../../pipeline/pagination.ts";

// What /api/v1/webhooks takes and answers (interface "Webhook", service-facts
// §6.1). The URL policy and the event-type catalogue are rules of the
// registry (they need the emulator's options and give details); the schemas
// check shapes and name each field's code.

const id = z.object({ id: z.string() });

const url = withCode(z.string().trim().min(1, "is required: the https URL deliveries are POSTed to"), "invalid_url");
const eventTypes = withCode(z.array(z.string()).nullable().optional(), "invalid_event_types");
const isActive = withCode(z.boolean().optional(), "invalid_value");

export const registerBody = z.object({ url, event_types: eventTypes, is_active: isActive });
export const updateBody = z.object({ url: url.optional(), event_types: eventTypes, is_active: isActive });
export type RegisterInput = z.output<typeof registerBody>;
export type UpdateInput = z.output<typeof updateBody>;

export const webhookSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  event_types: z.array(z.string()),
  is_active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WebhookWire = z.output<typeof webhookSchema>;

export const registrationSchema = webhookSchema.extend({ signing_secret: z.string() });

export const deliverySchema = z.object({
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
export type DeliveryWire = z.output<typeof deliverySchema>;

const notFound = { description: "No webhook with that id on this key", codes: ["not_found"] } as const;
const badBody = { description: "A field is invalid", codes: ["invalid_json", "invalid_url", "invalid_event_types", "invalid_value", "payload_too_large"] } as const;

export const SCHEMAS = {
  register: {
    body: registerBody,
    responses: {
      201: { description: "Registered; the signing secret is shown this once", data: registrationSchema },
      400: badBody,
      409: { description: "More than 20 webhooks on this key", codes: ["webhook_limit"] },
    },
  },
  list: { responses: { 200: { description: "The key's webhooks", data: z.object({ webhooks: z.array(webhookSchema) }) } } },
  deliveries: {
    query: z.object(offsetPageQuery()),
    responses: {
      200: { description: "Deliveries of the key's webhooks, newest first", data: z.object({ deliveries: z.array(deliverySchema) }) },
      400: { description: "limit/offset without an integer", codes: ["invalid_pagination"] },
    },
  },
  get: { params: id, responses: { 200: { description: "The webhook", data: z.object({ webhook: webhookSchema }) }, 404: notFound } },
  update: {
    params: id,
    body: updateBody,
    responses: { 200: { description: "Changed", data: z.object({ webhook: webhookSchema }) }, 400: badBody, 404: notFound },
  },
  remove: {
    params: id,
    responses: { 200: { description: "Deleted (pending deliveries dropped)", data: z.object({ id: z.number().int(), deleted: z.literal(true) }) }, 404: notFound },
  },
} satisfies Record<string, RouteSchema>;
