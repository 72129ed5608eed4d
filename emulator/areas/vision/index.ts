import type { Area } from "../area.ts";

// Placeholder until the vision area lands (see its issue); it registers no routes yet.
export const visionArea: Area = { name: "vision", routes: [], control: [] };
