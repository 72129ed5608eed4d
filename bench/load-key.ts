// The key every load benchmark reads the catalog with: a partner key no budget stops within a run
// (a billion credits, a rate limit far above what one machine sends).

type Fetch = (path: string, init: RequestInit) => Promise<Response>;

/** Creates the key on an emulator (its base URL, or its in-process `emu.fetch`); answers the key. */
export async function loadKey(target: string | Fetch, ratePerMin = 100_000_000): Promise<string> {
  const call: Fetch = typeof target === "string" ? (path, init) => fetch(target + path, init) : target;
  const made = await call("/_emulator/keys", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      kind: "partner",
      scopes: ["read:catalog"],
      balance: 1_000_000_000,
      rate_limit_per_min: ratePerMin,
    }),
  });
  return ((await made.json()) as { data: { key: string } }).data.key;
}
