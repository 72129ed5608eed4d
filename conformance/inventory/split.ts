// The rule inventory's splitter: a docs/reference page cut into units, each under its heading, so a test can
// show every unit is a rule of the inventory or deliberately skipped. Deterministic and simple: a table row is
// a unit (its header and separator rows are not); a bullet (with its indented continuation lines) or a
// paragraph is joined into one line and cut into sentences after ". "; headings and code fences are not units.

export interface Unit {
  heading: string;
  text: string;
}

/** Whitespace runs made one space: how the inventory's quotes are compared with the page. */
export const normalize = (s: string): string => s.replace(/\s+/g, " ").trim();

/** A block cut after each ". " (not after "e.g." or "i.e."). */
export function sentences(block: string): string[] {
  return normalize(block)
    .split(/(?<=\.)(?<!\be\.g\.)(?<!\bi\.e\.) (?=\S)/)
    .filter((s) => s.length > 0);
}

export function splitUnits(markdown: string): Unit[] {
  const lines = markdown.split("\n");
  const units: Unit[] = [];
  let heading = "";
  let block: string[] = [];
  let fenced = false;
  const flush = () => {
    if (block.length) for (const text of sentences(block.join(" "))) units.push({ heading, text });
    block = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith("```")) {
      flush();
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    const h = /^#+\s+(.*)$/.exec(line);
    if (h) {
      flush();
      heading = h[1]!.trim();
      continue;
    }
    if (line.trim() === "") {
      flush();
      continue;
    }
    if (line.startsWith("|")) {
      flush();
      const separator = /^\|[\s|:-]+\|$/;
      if (separator.test(line.trim()) || separator.test((lines[i + 1] ?? "").trim())) continue;
      units.push({ heading, text: normalize(line) });
      continue;
    }
    const item = /^(?:[-*]|\d+\.)\s+(.*)$/.exec(line);
    if (item) {
      flush();
      block = [item[1]!];
      continue;
    }
    block.push(line);
  }
  flush();
  return units;
}
