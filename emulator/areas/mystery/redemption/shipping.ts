import { badRequest } from "../../../pipeline/errors.ts";
import { CARRIER_LABELS, servicesFor, type Carrier } from "../../../shipping/carriers.ts";
import type { ShippingAddress, ShippingQuote } from "../state.ts";
import { hexId } from "../../../state/ids.ts";

// Redemption quotes on the shared carrier table (emulator/shipping), cheapest
// rate first (the address and carriers are read by the contract,
// contract/mystery/redemption.ts).

export { CARRIERS } from "../../../shipping/carriers.ts";

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
