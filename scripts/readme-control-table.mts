// Prints the README's control-plane table from the routes themselves:
//   npx tsx scripts/readme-control-table.mts
import { controlRoutes } from "../emulator/app.ts";

const cell = (s: string) => s.replace(/\|/g, "\\|");
for (const r of controlRoutes) console.log(`| ${r.method} | \`/_emulator${r.path}\` | ${cell(r.describe)} |`);
