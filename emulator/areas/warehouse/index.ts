import type { Area } from "../area.ts";

// Placeholder until the warehouse area lands (see its issue); it registers no routes yet.
export const warehouseArea: Area = { name: "warehouse", routes: [], control: [] };
