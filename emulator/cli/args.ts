// A tiny argv parser: --flag, --flag=value, --flag value, --no-flag, repeats.

export interface ParsedArgs {
  positionals: string[];
  flags: Map<string, string[]>;
}

export function parseArgs(argv: string[], booleans: ReadonlySet<string>): ParsedArgs {
  const flags = new Map<string, string[]>();
  const positionals: string[] = [];
  const add = (k: string, v: string) => flags.set(k, [...(flags.get(k) ?? []), v]);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith("--")) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    if (eq !== -1) add(name, arg.slice(eq + 1));
    else if (booleans.has(name) || name.startsWith("no-")) add(name, "true");
    else {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith("--")) throw new UsageError(`--${name} needs a value`);
      add(name, next);
      i++;
    }
  }
  return { positionals, flags };
}

export class UsageError extends Error {}

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
