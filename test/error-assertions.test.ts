import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

// The project's own tests assert an error's code, never only its status: a supertest
// `.expect(4xx)` must have the answer's `error` (or warehouse `code`) checked on the same line
// or, when the answer is kept in a variable, within the next 15 lines.

const ROOT = join(import.meta.dirname, "..");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : [];
  });
}

const STATUS = /\.expect\((4\d\d)\)/;
const SAME_LINE = /expectError|expectWarehouseError|\.body\.(error|code)\b/;

function codeChecked(v: string, next: string): boolean {
  return new RegExp(
    [
      `${v}\\.body\\.(error|code)\\b`,
      `expectError\\(${v}\\b`,
      `expectWarehouseError(Answer)?\\(${v}\\b`,
      `${v}\\.body\\)\\.(toEqual|toMatchObject)\\(\\{[^\\n]*\\b(error|code):`,
    ].join("|"),
  ).test(next);
}

describe("error assertions in the tests", () => {
  it("every supertest status assertion of a 4xx also checks the error code", () => {
    const offenders: string[] = [];
    for (const file of [...files(join(ROOT, "test")), ...files(join(ROOT, "conformance"))]) {
      const lines = readFileSync(file, "utf8").split("\n");
      lines.forEach((line, i) => {
        if (!STATUS.test(line) || SAME_LINE.test(line)) return;
        const kept = /(?:const|let)\s+(\w+)\s*=/.exec(line) ?? /^\s*(\w+)\s*=\s*await/.exec(line);
        if (kept && codeChecked(kept[1]!, lines.slice(i + 1, i + 16).join("\n"))) return;
        offenders.push(`${relative(ROOT, file)}:${i + 1}: ${line.trim().slice(0, 120)}`);
      });
    }
    expect(offenders).toEqual([]);
  });
});
