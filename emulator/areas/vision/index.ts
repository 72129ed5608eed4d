import type { Area } from "../area.ts";
import { visionRoutes } from "./routes.ts";
import { visionControl } from "./control.ts";

// Vision: deterministic image identification against the fixture catalog,
// with the fixture image host resolved offline (see fixture-host.ts).
export const visionArea: Area = { name: "vision", routes: visionRoutes, control: visionControl };
