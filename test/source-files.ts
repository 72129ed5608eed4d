import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** Every .ts file under `dir`, for the tests that read the project's own sources (vendored code and packages left out). */
export function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "vendor" || name === "node_modules" ? [] : tsFiles(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}
