import type { Area } from "../area.ts";
import { catalogRoutes } from "./routes.ts";
import { catalogDeviations } from "./deviations.ts";

export const catalogArea: Area = { name: "catalog", routes: catalogRoutes, control: [], deviations: catalogDeviations };
export { cardWire } from "./format.ts";
