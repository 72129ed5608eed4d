// The README's list of createEmulator's options, generated from the EmulatorOptions interface and its
// doc comments (and ChainHostOptions for `chain: { … }`), as the CLI synopsis is from the option tables:
// an option added to the type and not to the README fails test/options-docs.test.ts.
//   npx tsx scripts/options-docs.mts [--write]
import { readFileSync, writeFileSync } from "node:fs";
import ts from "typescript";

const ROOT = new URL("../", import.meta.url);
const START = "<!-- emulator-options: generated from EmulatorOptions (npx tsx scripts/options-docs.mts --write) -->";
const END = "<!-- /emulator-options -->";

interface Row {
  name: string;
  type: string;
  doc: string;
}

/** The members of an exported interface, with their type as written and their doc comment on one line. */
function members(file: string, name: string): Row[] {
  const path = new URL(file, ROOT);
  const source = ts.createSourceFile(path.pathname, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
  const found = source.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === name,
  );
  if (!found) throw new Error(`${file} has no interface ${name}`);
  return found.members.filter(ts.isPropertySignature).flatMap((m) => {
    const docs = ts.getJSDocCommentsAndTags(m).filter(ts.isJSDoc);
    // @internal: set by the emulator itself, not by a caller.
    if (docs.some((d) => d.tags?.some((t) => t.tagName.text === "internal"))) return [];
    const doc = docs.map((d) => ts.getTextOfJSDocComment(d.comment) ?? "").join(" ");
    if (!doc) throw new Error(`${file}: ${name}.${m.name.getText(source)} has no doc comment`);
    return [
      {
        name: m.name.getText(source),
        type: (m.type?.getText(source) ?? "unknown").replace(/\s+/g, " "),
        doc: doc.replace(/\s+/g, " ").trim(),
      },
    ];
  });
}

const cell = (text: string) => text.replaceAll("|", "\\|");
/** A doc cell: `<port>` outside code spans would be an HTML tag to Markdown. */
const prose = (text: string) =>
  cell(
    text
      .split("`")
      .map((part, i) => (i % 2 ? part : part.replaceAll("<", "&lt;").replaceAll(">", "&gt;")))
      .join("`"),
  );

/** The options as a Markdown table: every EmulatorOptions member, then chain's object form. */
export function optionsDocs(): string {
  const rows = members("emulator/public-types.ts", "EmulatorOptions").map(
    (r) => `| \`${r.name}\` | \`${cell(r.type)}\` | ${prose(r.doc)} |`,
  );
  const chain = members("emulator/chain-host.ts", "ChainHostOptions").map(
    (r) => `| \`chain.${r.name}\` | \`${cell(r.type)}\` | ${prose(r.doc)} |`,
  );
  return ["| Option | Type | |", "|---|---|---|", ...rows, ...chain].join("\n") + "\n";
}

/** The README with the generated list between its markers. */
export function withOptionsDocs(readme: string, docs: string): string {
  const a = readme.indexOf(START);
  const b = readme.indexOf(END);
  if (a === -1 || b < a) throw new Error("README.md has no emulator-options markers");
  return `${readme.slice(0, a + START.length)}\n\n${docs}\n${readme.slice(b)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const readme = new URL("README.md", ROOT);
  if (process.argv.includes("--write"))
    writeFileSync(readme, withOptionsDocs(readFileSync(readme, "utf8"), optionsDocs()));
  else process.stdout.write(optionsDocs());
}
