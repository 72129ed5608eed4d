import { operation } from "../operation.ts";
import { z } from "../zod.ts";
import { pagedList, pathId, READ_INVENTORY } from "./common.ts";

// Warehouse sites (docs/warehouse.md): a fixed list, so the ids are wire
// values (inbound shipments name one; the account lists them).

export const SITE_SERVICES = ["storage", "fulfillment", "inbound", "withdrawal"] as const;

/** A warehouse site. */
export const WarehouseSite = z.object({
  site_id: z.string(),
  name: z.string(),
  city: z.string(),
  state: z.string(),
  country: z.string(),
  timezone: z.string(),
  services: z.array(z.enum(SITE_SERVICES)),
});
export type WarehouseSite = z.output<typeof WarehouseSite>;

/** The sites (US Central: business-day math uses America/Chicago). */
export const SITES: readonly WarehouseSite[] = [
  {
    site_id: "DAL1",
    name: "Dallas vault",
    city: "Dallas",
    state: "TX",
    country: "US",
    timezone: "America/Chicago",
    services: ["storage", "fulfillment", "inbound", "withdrawal"],
  },
  {
    site_id: "CHI1",
    name: "Chicago overflow",
    city: "Chicago",
    state: "IL",
    country: "US",
    timezone: "America/Chicago",
    services: ["storage", "inbound"],
  },
];
/** Where cards are received when a shipment names no site. */
export const DEFAULT_SITE = "DAL1";
/** Sites that take inbound shipments. */
export const INBOUND_SITES = SITES.filter((s) => s.services.includes("inbound")).map((s) => s.site_id);

export const WAREHOUSE_SITES = {
  list: operation({
    id: "warehouse.sites.list",
    method: "GET",
    path: "/sites",
    summary: "The warehouse sites",
    ...READ_INVENTORY,
    schema: pagedList("sites", WarehouseSite, "The warehouse sites"),
  }),
  get: operation({
    id: "warehouse.sites.get",
    method: "GET",
    path: "/sites/:site_id",
    summary: "One warehouse site",
    ...READ_INVENTORY,
    schema: {
      params: pathId("site_id", "site"),
      responses: {
        200: { description: "The site", data: WarehouseSite },
        404: { description: "No such site", codes: ["not_found"] },
      },
    },
  }),
};
