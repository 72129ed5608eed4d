import { z } from "../pipeline/schema.ts";
import { chaosSchema } from "../pipeline/webhook-chaos.ts";
import { PARTNER_SCOPES, TENANT_SCOPES } from "../state/plans.ts";
import { EVENT_TYPES } from "../events/types.ts";

// The world file (docs/world.md): one declaration, zod only, of what a partner's test world may hold. The JSON
// Schema published as docs/world.schema.json is written from it (`npx emulator world --schema`), and the
// checks that need more than a shape (names unique, cards in the catalog, amounts in range) are in checks.ts.
// No transforms here: the schema validates, apply.ts converts.

export const WORLD_VERSION = 1;

const oneOf = <const T extends readonly [string, ...string[]]>(what: string, values: T) =>
  z.enum(values, {
    error: (iss) => `unknown ${what} ${JSON.stringify(iss.input)} (one of ${values.join(", ")})`,
  });

const positiveInt = (what: string) =>
  z.int({ error: `${what} must be a positive integer` }).min(1, `${what} must be a positive integer`);

/** USDC: a decimal string ("25.00", at most 6 places) or integer micros; a float is refused (it cannot be exact). */
export const usdcAmount = z
  .union([z.string(), z.number()], { error: 'a USDC amount: a decimal string like "25.00" or integer micros' })
  .meta({ description: 'USDC: a decimal string like "25.00" (at most 6 places) or an integer number of micros' });

/** A name a test reads the key by: emu.key(name), the banner, EMULATOR_KEY_<NAME>, `trigger --key NAME`. */
const keyName = z
  .string({ error: "a key name (lower-case letters, digits and -)" })
  .regex(/^[a-z][a-z0-9-]{0,39}$/, "a key name: a lower-case letter, then letters, digits or - (at most 40)");

const keyFields = {
  name: keyName,
  label: z.string().min(1).optional(),
  rate_limit_per_min: positiveInt("rate_limit_per_min").optional().meta({ description: "Card Data / warehouse" }),
  partner_rate_limit_per_min: positiveInt("partner_rate_limit_per_min")
    .optional()
    .meta({ description: "partner commerce (mystery, instant, wallet, webhooks)" }),
  fresh_per_min: positiveInt("fresh_per_min").optional(),
  credits: z
    .int({ error: "credits must be a non-negative integer" })
    .min(0, "credits must be a non-negative integer")
    .optional()
    .meta({ description: "the key's credit balance at start (default: the month's free credits)" }),
};

const partnerKey = z
  .strictObject({ ...keyFields, scopes: z.array(oneOf("scope", PARTNER_SCOPES)).optional() })
  .meta({ description: "A partner key (default scopes: every partner scope but payout:manage)" });
const tenantKey = z
  .strictObject({ ...keyFields, scopes: z.array(oneOf("scope", TENANT_SCOPES)).optional() })
  .meta({ description: "A tenant key (default scopes: every tenant scope)" });

const webhook = z.strictObject({
  url: z.string().min(1, "url must be a non-empty string"),
  key: keyName.optional().meta({ description: "the key that registers it (default: the first with webhooks:manage)" }),
  event_types: z.array(oneOf("event type", EVENT_TYPES)).optional().meta({ description: "default: every event" }),
  chaos: chaosSchema.optional(),
});

const accountId = z
  .string({ error: "an account id" })
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, "an account id: lower-case letters, digits, _ and - (at most 64)");

const custodialUser = z.strictObject({
  external_user_id: z.string().min(1).max(255),
  usdc: usdcAmount,
});

const account = z.strictObject({
  id: accountId,
  billing_model: oneOf("billing model", ["POOL", "TIER"]),
  kyc_required: z.boolean().optional(),
  pool_wallet: z.string().optional().meta({ description: "0x address: the buyback pool wallet (POOL, pool:manage)" }),
  payout_wallet: z.string().optional().meta({ description: "0x address: the revenue payout wallet (payout:manage)" }),
  keys: z.array(partnerKey).min(1, "an account needs at least one key"),
  webhooks: z.array(webhook).optional(),
  custodial_users: z.array(custodialUser).optional(),
});

export const CARD_STATES = ["pending", "unpriced", "priced"] as const;

const card = z
  .strictObject({
    state: oneOf("card state", CARD_STATES).meta({
      description: "pending: identity unconfirmed; unpriced: published, no market price; priced: published and priced",
    }),
    card_id: z.string().min(1).optional().meta({ description: "the catalog card (unpriced, priced)" }),
    declared_value: z.string().optional().meta({ description: 'USD the tenant declares per card, e.g. "12.00"' }),
    market_price: z.string().optional().meta({ description: 'USD market price (priced), e.g. "12.34"' }),
  })
  .meta({ description: "A card received into the vault and moved to its identity/pricing state" });

const tenant = z.strictObject({
  id: accountId,
  keys: z.array(tenantKey).min(1, "a tenant needs at least one key"),
  webhooks: z.array(webhook).optional(),
  cards: z.array(card).optional(),
});

const packetType = z.strictObject({
  packet_type_id: positiveInt("packet_type_id"),
  price_usdc: usdcAmount.optional(),
  stock: z.int({ error: "stock must be a non-negative integer" }).min(0).optional(),
});

const fault = z.strictObject({
  match: z.strictObject({ path: z.string().min(1), method: z.string().min(1).optional() }),
  status: z.int({ error: "status must be an integer from 400 to 599" }).min(400).max(599),
  error: z.string().min(1).optional(),
  message: z.string().min(1).optional(),
  probability: z.number().min(0).max(1).optional(),
  times: positiveInt("times").optional(),
  latency_ms: z.number().min(0).optional(),
});

const reveal = z
  .strictObject({
    area: oneOf("area", ["mystery", "instant"]).optional().meta({ description: "mystery (default) or instant" }),
    tier_id: positiveInt("tier_id").meta({ description: "the tier (mystery) or packet type (instant)" }),
    account: z.string().min(1).optional().meta({ description: "only this account's next purchase" }),
    external_user_id: z.string().min(1).optional(),
    items: z.array(z.string().min(1)).min(1).optional().meta({ description: "card ids the reveal yields" }),
    band: z
      .strictObject({
        min_usd: z.string().min(1).optional(),
        max_usd: z.string().min(1).optional(),
        rarity: z.string().min(1).optional(),
      })
      .optional(),
  })
  .meta({ description: "a steered reveal for the next matching purchase (docs/steering.md)" });

export const worldSchema = z
  .strictObject({
    version: z.literal(WORLD_VERSION, { error: `version must be ${WORLD_VERSION}` }),
    clock: z
      .strictObject({
        start: z.string().optional().meta({ description: "ISO-8601 start time" }),
        mode: oneOf("clock mode", ["realtime", "manual"]).optional(),
      })
      .optional(),
    catalog_overlay: z
      .string()
      .min(1)
      .optional()
      .meta({ description: "a catalog overlay file, relative to this file" }),
    accounts: z.array(account).optional(),
    tenants: z.array(tenant).optional(),
    instant: z.strictObject({ packet_types: z.array(packetType) }).optional(),
    faults: z.array(fault).optional(),
    reveals: z.array(reveal).optional().meta({ description: "steered reveals, queued in order" }),
  })
  .meta({ title: "CardOS emulator world", description: "A partner's test world (npx emulator --world FILE)" });

export type World = z.output<typeof worldSchema>;
/** A partner or tenant key (their scopes differ in kind only). */
export type WorldKey = Omit<z.output<typeof partnerKey>, "scopes"> & { scopes?: readonly string[] };
export type WorldWebhook = z.output<typeof webhook>;
export type WorldCard = z.output<typeof card>;

/** The JSON Schema of a world file (docs/world.schema.json). */
export function worldJsonSchema(): Record<string, unknown> {
  const { $schema: _s, ...rest } = z.toJSONSchema(worldSchema, { io: "input", unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
  return { $schema: "https://json-schema.org/draft/2020-12/schema", ...rest };
}
