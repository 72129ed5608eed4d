import type { Area } from "../area.ts";

// Placeholder until the mystery area lands (see its issue); it registers no routes yet.
export const mysteryArea: Area = { name: "mystery", routes: [], control: [] };
