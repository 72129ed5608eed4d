import type { Area } from "../area.ts";

// Placeholder until the webhooks area lands (see its issue); it registers no routes yet.
export const webhooksArea: Area = { name: "webhooks", routes: [], control: [] };
