import { z } from "./schema.ts";

// The shape of webhook delivery chaos (docs/webhooks.md "Delivery chaos"): a createEmulator option
// and a per-webhook setting, so it sits below both; the webhooks area applies it (areas/webhooks/chaos.ts).

export const chaosSchema = z
  .object({
    duplicate: z
      .union([
        z.object({ every: z.number().int().min(1) }).strict(),
        z.object({ probability: z.number().min(0).max(1) }).strict(),
      ])
      .optional(),
    reorder_window_ms: z.number().int().min(1).max(3_600_000).optional(),
    delay_ms: z.number().int().min(1).max(86_400_000).optional(),
    drop_first_attempt: z.boolean().optional(),
    previous_secret_after_rotation: z.boolean().optional(),
    stale_timestamp_ms: z.number().int().min(1).max(31_536_000_000).optional(),
  })
  .strict();

export type WebhookChaos = z.infer<typeof chaosSchema>;
