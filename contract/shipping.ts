import { z } from "./zod.ts";

// Shipping on the wire (docs/warehouse.md, docs/mystery.md "Redemption"):
// warehouse quotes and orders and mystery redemptions take and show the same
// address shape, and quotes name carrier tokens. The checks (required fields,
// US ZIP and state, phone outside the US) are a rule of the server: their codes
// and details are not a schema's.

/** Carrier tokens a quote may name (`carriers`), and that rates carry. */
export const CARRIERS = ["usps", "ups", "dhl_express", "lso"] as const;
export type Carrier = (typeof CARRIERS)[number];

const text = z.string();

/** An address as answers show it: absent optional fields are left out. */
export const ShippingAddress = z.object({
  name: text,
  street1: text,
  street2: text.optional(),
  city: text,
  state: text.optional().describe("Two-letter state code; required in the US"),
  zip: text.describe("A US ZIP code (12345 or 12345-6789) in the US"),
  country: text.describe("ISO 3166-1 alpha-2 code, e.g. US"),
  phone: text.optional().describe("Required outside the US (customs)"),
  email: text.optional(),
});
export type ShippingAddress = z.output<typeof ShippingAddress>;

/** An address as requests send it: an optional field may also be null (the same as absent). */
export const ShippingAddressInput = ShippingAddress.extend({
  street2: text.nullable().optional(),
  state: text.nullable().optional().describe("Two-letter state code; required in the US"),
  phone: text.nullable().optional().describe("Required outside the US (customs)"),
  email: text.nullable().optional(),
});
export type ShippingAddressInput = z.output<typeof ShippingAddressInput>;
