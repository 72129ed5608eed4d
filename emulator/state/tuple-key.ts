// One string key for a tuple of parts some caller chose (an account id, a user id, an idempotency key): joining
// them with a separator is ambiguous when a part may hold the separator (account `co` + user `x:bob` and account
// `co:x` + user `bob` would share a key). Every part but the last is escaped so it holds no separator, which makes
// the key unambiguous; parts without \u0000 or \u0001 (every id in practice) read as before, so records keyed by
// `${a}\u0000${b}` in older state files keep their keys.

const SEP = "\u0000";
const ESC = "\u0001";

/** A part as it stands in a key (not the last part): most hold neither character and are used as they are. */
export const tuplePart = (part: string): string =>
  part.includes(ESC) || part.includes(SEP) ? part.replaceAll(ESC, `${ESC}${ESC}`).replaceAll(SEP, `${ESC}0`) : part;

function unescape(part: string): string {
  let out = "";
  for (let i = 0; i < part.length; i++) {
    if (part[i] !== ESC) out += part[i];
    else out += part[++i] === "0" ? SEP : ESC;
  }
  return out;
}

/** The key of `parts` (two or more): a different tuple never gives the same key. */
export function tupleKey(...parts: readonly string[]): string {
  return parts.map((p, i) => (i < parts.length - 1 ? tuplePart(p) : p)).join(SEP);
}

/** The parts of a key `tupleKey` made from `count` parts. */
export function tupleParts(key: string, count: number): string[] {
  const parts: string[] = [];
  let rest = key;
  for (let i = 0; i < count - 1; i++) {
    const cut = rest.indexOf(SEP);
    if (cut === -1) break;
    parts.push(unescape(rest.slice(0, cut)));
    rest = rest.slice(cut + 1);
  }
  parts.push(rest);
  return parts;
}
