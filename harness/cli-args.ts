import { basename } from "node:path";
import { parseArgs as nodeParseArgs } from "node:util";

// Command-line parsing on Node's own util.parseArgs (strict): each command
// declares its options once, and that declaration also writes its --help and
// the "did you mean" hint for a mistyped flag.

export interface OptionSpec {
  name: string;
  type: "string" | "boolean";
  /** Repeatable (`--profile a --profile b`). */
  multiple?: boolean;
  /** Placeholder shown in help (`N`, `FILE`, `URL`). */
  value?: string;
  describe: string;
  /** Former names still accepted (`tier-key` for `revenue-share-key`): parsed as this option, named once in help. */
  aliases?: readonly string[];
}

export interface CommandSpec {
  /** The usage lines, e.g. `npx emulator scenario NAME [options]`. */
  usage: string;
  /** A paragraph under the usage lines. */
  about?: string;
  options: readonly OptionSpec[];
}

export interface ParsedArgs {
  positionals: string[];
  flags: Map<string, string[]>;
}

export class UsageError extends Error {}

const HELP_OPTION: OptionSpec = { name: "help", type: "boolean", describe: "this text" };

export function parseCommand(spec: CommandSpec, argv: readonly string[]): ParsedArgs {
  const specs = withHelp(spec);
  const options = Object.fromEntries(
    specs.flatMap((o) =>
      [o.name, ...(o.aliases ?? [])].map((n) => [n, { type: o.type, multiple: o.multiple ?? false }] as const),
    ),
  );
  let parsed: ReturnType<typeof nodeParseArgs>;
  try {
    parsed = nodeParseArgs({ args: [...argv], options, strict: true, allowPositionals: true });
  } catch (err) {
    throw new UsageError(explain(err as Error & { code?: string }, specs));
  }
  const flags = new Map<string, string[]>();
  for (const [given, v] of Object.entries(parsed.values)) {
    const list = (Array.isArray(v) ? v : [v]).map((x) => String(x));
    const spec = specs.find((o) => o.name === given || o.aliases?.includes(given));
    const name = spec?.name ?? given;
    // An alias and its option given together would leave "which one wins" to the parser's key order.
    if (flags.has(name))
      throw new UsageError(
        `${[name, ...(spec?.aliases ?? [])].map((n) => `--${n}`).join(" and ")} are one option; give one`,
      );
    flags.set(name, list);
  }
  return { positionals: parsed.positionals, flags };
}

/**
 * A command's arguments, or null when they ask for --help: its help is printed and the command exits 0.
 * `positionals: false` refuses an argument that is not a flag (UsageError), before --help is looked at.
 */
export function parseOrHelp(
  spec: CommandSpec,
  argv: readonly string[],
  { positionals = true }: { positionals?: boolean } = {},
): ParsedArgs | null {
  const args = parseCommand(spec, argv);
  if (!positionals && args.positionals.length) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
  if (has(args, "help")) {
    process.stdout.write(helpText(spec));
    return null;
  }
  return args;
}

export function helpText(spec: CommandSpec): string {
  return asInvoked(
    `Usage:\n${spec.usage}\n${spec.about ? `\n${spec.about}\n` : ""}\nOptions:\n${optionLines(withHelp(spec))}\n`,
  );
}

/** The package's own bin: `npx cardos-emulator` is unambiguous anywhere, `npx emulator` only where the package is installed. */
export const PACKAGE_BIN = "cardos-emulator";

/** The bin this process was started as (npm's bin link keeps its name in argv[1]). */
export function invokedAs(script: string = process.argv[1] ?? ""): "emulator" | typeof PACKAGE_BIN {
  return basename(script).startsWith(PACKAGE_BIN) ? PACKAGE_BIN : "emulator";
}

/** Text that names the command (`npx emulator …`), written with the name it was invoked as, so a copied line runs again. */
export function asInvoked(text: string, name: string = invokedAs()): string {
  return name === "emulator" ? text : text.replaceAll("npx emulator", `npx ${name}`);
}

/** The option rows of a help text (also the README's CLI synopsis): flag and value, then the description. */
export function optionLines(options: readonly OptionSpec[]): string {
  const rows = options.map(
    (o) =>
      [
        `--${o.name}${o.type === "string" ? ` ${o.value ?? "VALUE"}` : ""}`,
        o.describe +
          (o.multiple ? " (repeatable)" : "") +
          (o.aliases?.length ? ` (also ${o.aliases.map((a) => `--${a}`).join(", ")})` : ""),
      ] as const,
  );
  const width = Math.max(...rows.map(([flag]) => flag.length)) + 2;
  return rows
    .map(([flag, text]) => `  ${flag.padEnd(width)}${text.split("\n").join(`\n  ${" ".repeat(width)}`)}`)
    .join("\n");
}

function withHelp(spec: CommandSpec): OptionSpec[] {
  return spec.options.some((o) => o.name === "help") ? [...spec.options] : [...spec.options, HELP_OPTION];
}

function explain(err: Error & { code?: string }, specs: readonly OptionSpec[]): string {
  if (err.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    const raw = /'([^']+)'/.exec(err.message)?.[1] ?? "";
    const name = raw.replace(/^-+/, "").split("=")[0]!;
    const guess = closest(
      name,
      specs.flatMap((o) => [o.name, ...(o.aliases ?? [])]),
    );
    return `unknown option ${raw}${guess ? `; did you mean --${guess}?` : ""}`;
  }
  if (err.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    const name = /--([\w-]+)/.exec(err.message)?.[1];
    const spec = specs.find((o) => o.name === name || (name !== undefined && o.aliases?.includes(name)));
    if (spec?.type === "boolean") return `--${name} takes no value`;
    return `--${name ?? "option"} needs a value${spec?.value ? ` (${spec.value})` : ""}`;
  }
  return err.message;
}

/** The known name nearest to `name` (edit distance at most a third of its length), if any. */
export function closest(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Math.max(1, Math.floor(name.length / 3)) + 1;
  for (const k of known) {
    const d = k.startsWith(name) && name.length >= 3 ? 1 : distance(name, k);
    if (d < bestD) [best, bestD] = [k, d];
  }
  return best;
}

/** Edit distance where swapping two neighbours counts once (`prot` → `port`). */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}

export const last = (a: ParsedArgs, name: string): string | undefined => a.flags.get(name)?.at(-1);
export const all = (a: ParsedArgs, name: string): string[] => a.flags.get(name) ?? [];
export const has = (a: ParsedArgs, name: string): boolean => a.flags.has(name);

export function intFlag(a: ParsedArgs, name: string, fallback?: number): number | undefined {
  const raw = last(a, name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`--${name} must be a non-negative integer (got "${raw}")`);
  return n;
}

/** `--rpc-port` → `EMULATOR_RPC_PORT` (with prefix `EMULATOR_`). */
export const envName = (prefix: string, option: string): string => prefix + option.toUpperCase().replace(/-/g, "_");

/**
 * The command's flags completed from environment variables, one per option (`envName`): a flag given on
 * the command line wins. A boolean variable is 1/true (set) or 0/false/empty (not set); a repeatable
 * option takes a comma-separated list.
 */
export function envFlags(spec: CommandSpec, args: ParsedArgs, prefix: string, env: NodeJS.ProcessEnv): ParsedArgs {
  const flags = new Map(args.flags);
  for (const o of spec.options) {
    const name = envName(prefix, o.name);
    const raw = env[name];
    if (flags.has(o.name) || raw === undefined || o.name === "help") continue;
    if (o.type === "boolean") {
      const v = raw.trim().toLowerCase();
      if (v === "1" || v === "true") flags.set(o.name, ["true"]);
      else if (v !== "0" && v !== "false" && v !== "")
        throw new UsageError(`${name} must be 1/true or 0/false (got "${raw}")`);
    } else if (raw !== "")
      flags.set(
        o.name,
        o.multiple
          ? raw
              .split(",")
              .map((s) => s.trim())
              .filter(Boolean)
          : [raw],
      );
  }
  return { positionals: args.positionals, flags };
}
