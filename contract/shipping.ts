import { z } from "./zod.ts";

// Shipping on the wire, shared by warehouse quotes and mystery redemptions
// (docs/warehouse.md, docs/mystery.md): the address a caller sends and is
// shown, and the carrier tokens quotes name. The address rules themselves
// (codes and details) are the server's, not a schema's.

/** Carrier tokens a quote may name (`carriers`), and that rates carry. */
export const CARRIERS = ["usps", "ups", "dhl_express", "lso"] as const;
export type Carrier = (typeof CARRIERS)[number];

/** An address as the API takes it (documentation) and shows it (answers). */
export const shippingAddressSchema = z.object({
  name: z.string(),
  street1: z.string(),
  street2: z.string().optional(),
  city: z.string(),
  state: z.string().optional().describe("Two-letter state code; required in the US"),
  zip: z.string().describe("A US ZIP code (12345 or 12345-6789) in the US"),
  country: z.string().describe("ISO 3166-1 alpha-2 code, e.g. US"),
  phone: z.string().optional().describe("Required outside the US (customs)"),
  email: z.string().optional(),
});
export type ShippingAddress = z.output<typeof shippingAddressSchema>;
