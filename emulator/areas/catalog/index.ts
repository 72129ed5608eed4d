import type { Area } from "../area.ts";
import { catalogRoutes } from "./routes.ts";

export const catalogArea: Area = { name: "catalog", routes: catalogRoutes, control: [] };
export { catalogCardWire } from "./format.ts";
