// Text helpers of the Card Data query parameters: edit distance for did-you-mean, the
// whitespace the `q` grammar skips. Pure; the emulator's query compiler uses them too.

/** Levenshtein edit distance (insert/delete/substitute, each cost 1). */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let prev = new Array<number>(b.length + 1);
  let cur = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}

/** Closest candidate within `maxDistance` edits (first in candidate order on ties), or undefined. */
export function closest(word: string, candidates: Iterable<string>, maxDistance = 2): string | undefined {
  const w = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = maxDistance + 1;
  for (const c of candidates) {
    const d = levenshtein(w, c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

export function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 160 || code === 0xfeff;
}
