import type { AttemptRecord } from "./model.ts";

// One delivery attempt as the control plane shows it: the record, plus a
// "copy as curl" command that sends the same bytes with the same headers
// (signature included) to the same URL. A receiver enforcing freshness or
// dedupe will refuse the replay once the timestamp is stale or the id seen.

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function curlOf(a: AttemptRecord): string {
  const parts = [`curl -X POST ${quote(a.url)}`];
  for (const [name, value] of Object.entries(a.request.headers)) parts.push(`-H ${quote(`${name}: ${value}`)}`);
  parts.push(`--data-binary ${quote(a.request.body)}`);
  return parts.join(" \\\n  ");
}

export type AttemptView = AttemptRecord & {
  response: (AttemptRecord["response"] & { headers: Record<string, string> }) | null;
  chaos: string[];
  curl: string;
};

export function attemptView(a: AttemptRecord): AttemptView {
  return {
    ...a,
    chaos: a.chaos ?? [],
    response: a.response && { ...a.response, headers: a.response.headers ?? {} },
    curl: curlOf(a),
  };
}
