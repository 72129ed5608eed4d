import type { Area } from "../area.ts";
import { creditsRoutes } from "./routes.ts";
import { creditsControl } from "./control.ts";

// Credits: x402 top-up on the local chain and the account usage view. The
// metering arithmetic itself lives in pipeline/metering.ts (shared).
export const creditsArea: Area = { name: "credits", routes: creditsRoutes, control: creditsControl };
