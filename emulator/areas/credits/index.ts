import type { Area } from "../area.ts";

// Placeholder until the credits area lands (see its issue); it registers no routes yet.
export const creditsArea: Area = { name: "credits", routes: [], control: [] };
