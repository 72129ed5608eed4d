import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, extname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// Every citation stays inside the repository: the facts the code relies on are
// written in docs/reference/ (docs/reference/README.md), and a comment or a
// check's `guards` cites `docs/reference/<file>.md "Heading"` (straight or curly
// quotes). A name of a document that is not in the repository fails, and so
// does a cited docs/ file that does not exist, or a heading of docs/reference/
// or docs/architecture.md that does not exist (other docs are cited loosely).

const SKIP_DIRS = new Set(["node_modules", ".git", "dist", "reports", "tmp", "artifacts", "cache"]);
const TEXT = new Set([".ts", ".mts", ".cts", ".js", ".mjs", ".cjs", ".md", ".sol", ".yml", ".yaml"]);
/** Documents that live outside the repository (assembled so this file does not name them itself). */
const OUTSIDE = new RegExp(
  [
    String.raw`\b(?:interface|DESIGN)\.md\b`,
    ["service", "facts"].join("-"),
    ["sdk", "contract"].join("-"),
    ["sdk", "wire", "shapes"].join("-"),
    String.raw`\.\./shared\b`,
    String.raw`/work/shared\b`,
  ].join("|"),
);
const CITATION = /docs\/((?:reference\/)?[\w-]+\.md)/g;
/** The docs whose headings a citation must name exactly. */
const STRICT = /^(?:reference\/[\w-]+|architecture)\.md$/;

function sources(root: string, dir = root, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name) && !entry.name.startsWith("dist.")) sources(root, join(dir, entry.name), out);
    } else if (TEXT.has(extname(entry.name)) && !entry.name.endsWith(".generated.ts")) out.push(join(dir, entry.name));
  }
  return out;
}

function headings(file: string): Set<string> {
  const text = readFileSync(file, "utf8");
  return new Set([...text.matchAll(/^#{1,6} +(.+?) *$/gm)].map((m) => m[1]!));
}

/** Each problem as `path:line: what is wrong`. */
export function referenceProblems(root: string): string[] {
  const problems: string[] = [];
  const cache = new Map<string, Set<string> | null>();
  const headingsOf = (doc: string) => {
    if (!cache.has(doc)) cache.set(doc, existsSync(join(root, "docs", doc)) ? headings(join(root, "docs", doc)) : null);
    return cache.get(doc)!;
  };
  for (const file of sources(root)) {
    const path = relative(root, file);
    if (path === join("test", "references.test.ts")) continue;
    readFileSync(file, "utf8")
      .split("\n")
      .forEach((line, i) => {
        const at = `${path}:${i + 1}`;
        const outside = OUTSIDE.exec(line);
        if (outside)
          problems.push(`${at}: cites "${outside[0]}", which is not in the repository (cite docs/reference/)`);
        for (const m of line.matchAll(CITATION)) {
          const known = headingsOf(m[1]!);
          if (!known) {
            problems.push(`${at}: cites docs/${m[1]}, which does not exist`);
            continue;
          }
          if (!STRICT.test(m[1]!)) continue;
          // The headings quoted after the file name, up to the clause's end or the next citation.
          const rest = line.slice(m.index! + m[0].length);
          const end = rest.search(/;|docs\//);
          const span = end < 0 ? rest : rest.slice(0, end);
          for (const h of span.matchAll(/“([^”]+)”|"([^"]+)"/g)) {
            const heading = h[1] ?? h[2]!;
            if (!known.has(heading)) problems.push(`${at}: docs/${m[1]} has no heading "${heading}"`);
          }
        }
      });
  }
  return problems;
}

describe("references", () => {
  it("every citation in the repository points inside it, at a file and heading that exist", () => {
    expect(referenceProblems(join(__dirname, ".."))).toEqual([]);
  });

  it("the check catches an outside document, a missing file and a missing heading (a synthetic tree)", () => {
    const root = mkdtempSync(join(tmpdir(), "refs-"));
    const file = (path: string, text: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    file("docs/reference/rules.md", "# Rules\n\n## Error codes\n");
    file("emulator/a.ts", `// as ${["service", "facts"].join("-")} §2.7 says\n`);
    file("emulator/b.ts", '// docs/reference/gone.md "Error codes"\n');
    file("conformance/c.ts", 'const guards = "docs/reference/rules.md “Error codes” (402) and “Limits”";\n');
    file("emulator/d.ts", '// docs/reference/rules.md "Error codes"; the ../shared/DESIGN.md order\n');
    const found = referenceProblems(root);
    expect(found).toContain(
      `emulator/a.ts:1: cites "${["service", "facts"].join("-")}", which is not in the repository (cite docs/reference/)`,
    );
    expect(found).toContain("emulator/b.ts:1: cites docs/reference/gone.md, which does not exist");
    expect(found).toContain('conformance/c.ts:1: docs/reference/rules.md has no heading "Limits"');
    expect(found.filter((p) => p.startsWith("emulator/d.ts:1: cites"))).toHaveLength(1);
    expect(found).toHaveLength(4);
  });
});
