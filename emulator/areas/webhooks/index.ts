import type { Area } from "../area.ts";
import { webhookRoutes } from "./routes.ts";
import { webhookControl } from "./control.ts";
import { dispatcherFor } from "./dispatcher.ts";

// Webhooks: the registry (routes.ts, registry.ts), signed delivery with retries
// on the virtual clock (dispatcher.ts), and the operator actions (control.ts).
export const webhooksArea: Area = {
  name: "webhooks",
  routes: webhookRoutes,
  control: webhookControl,
  start: (services) => {
    const dispatcher = dispatcherFor(services);
    return { dispatcher, stop: dispatcher.start() };
  },
};
