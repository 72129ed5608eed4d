import { randomUUID } from "node:crypto";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { Hex } from "viem";
import type { ControlClient } from "../harness/http.ts";
import { FIXTURE_KEYS } from "../fixtures/keys.ts";
import { partnerFixture } from "../fixtures/mystery/index.ts";
import type { RunScope } from "./types.ts";

// A run of a scenario must not depend on what its target saw before: the
// partner's own tests, earlier scenarios, an earlier conformance run. Each run
// gets fresh partner keys of fresh accounts (made like their fixtures through
// the control plane), run-unique idempotency keys and end-user ids, and
// end-user wallets of its own funded by the faucet (see docs/decisions.md).

export interface FreshRun {
  keys: Record<string, string>;
  run: RunScope;
}

/** Fresh partner keys in place of the fixtures' (the tenant and legacy keys are kept: their accounts hold the seeded vault). */
export async function freshRun(control: ControlClient, fixtures: Record<string, string>): Promise<FreshRun> {
  const tag = randomUUID().slice(0, 8);
  const keys = { ...fixtures };
  const accounts = new Map<string, string>();
  for (const spec of FIXTURE_KEYS.filter((s) => s.kind === "partner")) {
    const made = await control.request<{ key: string; account_id: string }>("POST", "/keys", {
      kind: "partner",
      scopes: [...spec.scopes],
      ...(spec.billing_model ? { billing_model: spec.billing_model } : {}),
      label: `scenario run ${tag}: like ${spec.name}`,
    });
    if (partnerFixture(spec.account_id).kyc_required)
      await control.request("POST", "/mystery/kyc", { key: made.key, required: true });
    keys[spec.name] = made.key;
    accounts.set(made.key, made.account_id);
  }
  return { keys, run: runScope(control, accounts, tag) };
}

/** A run's scope over the keys it made (`accounts`: key → account id); end-user wallets are new and funded on first use. */
export function runScope(
  control: ControlClient,
  accounts: ReadonlyMap<string, string> = new Map(),
  tag = randomUUID().slice(0, 8),
): RunScope {
  const wallets = new Map<number, Promise<Hex>>();
  const fund = async (): Promise<Hex> => {
    const key = generatePrivateKey();
    await control.request("POST", "/chain/faucet", {
      address: privateKeyToAccount(key).address,
      usdc: "10000",
      eth: "10",
    });
    return key;
  };
  return {
    unique: (name) => `${name}-${tag}`,
    accounts: new Set(accounts.values()),
    accountOf(key) {
      const id = accounts.get(key);
      if (!id) throw new Error(`not a key of this run: ${key.slice(0, 12)}…`);
      return id;
    },
    endUserKey(index) {
      let w = wallets.get(index);
      if (!w) wallets.set(index, (w = fund()));
      return w;
    },
  };
}
