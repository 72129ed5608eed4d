import type { z } from "../pipeline/schema.ts";

// A world file's problems, each named by its path (`accounts[1].keys[0].scopes[2]: …`): the whole list is
// given at once, so one run shows everything to fix.

export { WorldError } from "./world-error.ts";

export type WorldPath = readonly PropertyKey[];

/** `["accounts", 1, "keys"]` → `accounts[1].keys`; the root is `(root)`. */
export function pathText(path: WorldPath): string {
  let out = "";
  for (const part of path) out += typeof part === "number" ? `[${part}]` : `${out ? "." : ""}${String(part)}`;
  return out || "(root)";
}

/** The object keys the schema allows at `path` (for "unknown key" problems), or [] when it cannot tell. */
export function allowedKeysAt(schema: z.ZodType, path: WorldPath): string[] {
  let node: unknown = schema;
  for (const part of path) {
    node = unwrap(node);
    const def = (node as { def?: { type?: string; shape?: Record<string, unknown>; element?: unknown } }).def;
    if (def?.type === "object" && typeof part === "string") node = def.shape?.[part];
    else if (def?.type === "array" && typeof part === "number") node = def.element;
    else return [];
  }
  const def = (unwrap(node) as { def?: { type?: string; shape?: Record<string, unknown> } }).def;
  return def?.type === "object" && def.shape ? Object.keys(def.shape) : [];
}

function unwrap(node: unknown): unknown {
  let n = node as { def?: { type?: string; innerType?: unknown } } | undefined;
  while (n?.def && (n.def.type === "optional" || n.def.type === "nullable" || n.def.type === "default"))
    n = n.def.innerType as typeof n;
  return n;
}
