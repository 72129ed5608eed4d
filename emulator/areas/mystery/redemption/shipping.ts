import { badRequest } from "../../../pipeline/errors.ts";
import { parseShippingAddress } from "../../../shipping/address.ts";
import {
  CARRIER_LABELS,
  parseCarriers as parseCarrierList,
  servicesFor,
  type Carrier,
} from "../../../shipping/carriers.ts";
import type { ShippingAddress, ShippingQuote } from "../state.ts";
import type { Body } from "../util.ts";
import { hexId } from "../../../state/ids.ts";

// Redemption quotes on the shared carrier table (emulator/shipping): the
// address as `shipping_address` (or `address`), cheapest rate first.

export { CARRIERS } from "../../../shipping/carriers.ts";

export function parseAddress(b: Body): ShippingAddress {
  return parseShippingAddress(b.shipping_address ?? b.address, "shipping_address");
}

export function parseCarriers(b: Body): Carrier[] {
  return parseCarrierList(b.carriers);
}

/** Every available rate for the destination, cheapest first. */
export function rates(address: ShippingAddress, carriers: readonly Carrier[], quotedAt: string): ShippingQuote[] {
  const services = servicesFor(address.country, carriers);
  if (services.length === 0)
    throw badRequest("unknown_carrier", `None of ${carriers.join(", ")} ships to ${address.country}`, {
      details: { carriers: [...carriers], country: address.country },
    });
  return services.map((s) => ({
    amount_usdc: s.base.toFixed(2),
    currency: "USD",
    carrier: CARRIER_LABELS[s.carrier],
    service: s.service,
    service_token: s.service_token,
    estimated_days: s.days,
    rate_id: `rate_${hexId(`${s.service_token}:${address.country}:${address.zip}:${quotedAt}`, 24)}`,
    quoted_at: quotedAt,
  }));
}
