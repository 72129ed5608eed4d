import { CARRIERS, isShippingProblem, readCarriers, type Carrier } from "../../contract/index.ts";
import { badRequest } from "../pipeline/errors.ts";

// The carriers and services both shipping flows quote from (warehouse orders and
// mystery redemptions): one table, deterministic, no Shippo. Prices are USD.

export { CARRIERS, type Carrier };

export const CARRIER_LABELS: Record<Carrier, string> = {
  usps: "USPS",
  ups: "UPS",
  dhl_express: "DHL Express",
  lso: "LSO",
};

export interface CarrierService {
  carrier: Carrier;
  /**
   * The service level's own name, as Shippo's servicelevel.name gives it: without the carrier,
   * which travels in its own field (a client showing "carrier service" reads "USPS Ground
   * Advantage", never "USPS USPS Ground Advantage").
   */
  service: string;
  /** Shippo-style service level token (what a warehouse exact-matches when buying the label). */
  service_token: string;
  /** Price for one item. */
  base: number;
  days: number;
  scope: "domestic" | "international";
}

export const SERVICES: readonly CarrierService[] = [
  {
    carrier: "usps",
    service: "Ground Advantage",
    service_token: "usps_ground_advantage",
    base: 5.4,
    days: 5,
    scope: "domestic",
  },
  { carrier: "usps", service: "Priority Mail", service_token: "usps_priority", base: 9.85, days: 3, scope: "domestic" },
  {
    carrier: "usps",
    service: "Priority Mail International",
    service_token: "usps_priority_mail_international",
    base: 38.5,
    days: 8,
    scope: "international",
  },
  { carrier: "ups", service: "Ground", service_token: "ups_ground", base: 11.2, days: 4, scope: "domestic" },
  {
    carrier: "ups",
    service: "2nd Day Air",
    service_token: "ups_second_day_air",
    base: 24.6,
    days: 2,
    scope: "domestic",
  },
  { carrier: "ups", service: "Worldwide Saver", service_token: "ups_saver", base: 72, days: 4, scope: "international" },
  {
    carrier: "dhl_express",
    service: "Express Worldwide",
    service_token: "dhl_express_worldwide",
    base: 58,
    days: 3,
    scope: "international",
  },
  { carrier: "lso", service: "Ground", service_token: "lso_ground", base: 8.9, days: 2, scope: "domestic" },
];

/** The `carriers` filter: absent means every carrier; unknown tokens are 400 unknown_carrier. */
export function parseCarriers(raw: unknown): Carrier[] {
  const read = readCarriers(raw);
  if (isShippingProblem(read)) throw badRequest(read.code, read.message, { details: read.details });
  return read;
}

/** Services of the allowed carriers that ship to the country, cheapest first. */
export function servicesFor(country: string, carriers: readonly Carrier[]): CarrierService[] {
  const scope = country === "US" ? "domestic" : "international";
  return SERVICES.filter((s) => s.scope === scope && carriers.includes(s.carrier)).sort((a, b) => a.base - b.base);
}
