import { OPERATIONS, type Operation } from "../../contract/index.ts";
import { API_RULES } from "../inventory/api-rules.ts";
import { LIVE_SERVICE_RULES } from "../inventory/live-service.ts";
import type { InventoryRule } from "../inventory/types.ts";
import { emulatorOnly, type Check } from "../types.ts";
import { ensure, expectError, expectSuccess, expectWarehouseError } from "../assert.ts";

// The scope tables of docs/reference/live-service.md “Partner scopes” and docs/reference/api-rules.md “Scopes”,
// checked row by row from the rule inventory itself (one row, one scope, the operations it governs): a key holding
// every other scope of its kind, but not the row's, is refused each listed operation with 403 Insufficient
// permissions. Only the emulator can mint such keys (its control plane); a partner cannot choose a key's scopes.

/** The scope a table row names (“| `wallet:read` | … |”), or null (the “any tenant key” row). */
const scopeOf = (r: InventoryRule): string | null => /^\| `([a-z_]+:[a-z_]+)` \|/.exec(r.sentence)?.[1] ?? null;

interface ScopeRow {
  rule: string;
  kind: "partner" | "tenant";
  scope: string;
  operations: readonly Operation[];
}

const operationOf = (id: string): Operation => {
  const op = OPERATIONS.find((o) => o.id === id);
  if (!op) throw new Error(`scope table: unknown operation ${id}`);
  return op;
};

const rowsOf = (rules: readonly InventoryRule[], prefix: string, kind: ScopeRow["kind"]): ScopeRow[] =>
  rules.flatMap((r) => {
    const scope = r.id.startsWith(prefix) ? scopeOf(r) : null;
    if (!scope || !Array.isArray(r.operations)) return [];
    return [{ rule: r.id, kind, scope, operations: (r.operations as readonly string[]).map(operationOf) }];
  });

/** Partner rows (live-service.md) and tenant rows (api-rules.md), in the pages' order. */
const SCOPE_ROWS: readonly ScopeRow[] = [
  ...rowsOf(LIVE_SERVICE_RULES.rules, "live.scope.", "partner"),
  ...rowsOf(API_RULES.rules, "api.scope.", "tenant"),
];

/** A path of the operation's pattern with every parameter filled (authorization comes before any lookup). */
const pathOf = (op: Operation): string =>
  "/api/v1" +
  op.path.replace(/:(\w+)\{([^}|]+)[^}]*\}/g, "$2").replace(/:(\w+)/g, (_, name: string) => `scope-probe-${name}`);

const call = (http: Parameters<Check["run"]>[0]["http"], op: Operation, key: string) =>
  http.call(op.method, pathOf(op), { key, ...(op.method === "GET" || op.method === "DELETE" ? {} : { body: {} }) });

export const scopeChecks: Check[] = [
  {
    id: "pipeline.scopes-403",
    guards:
      "docs/reference/live-service.md “Partner scopes”; docs/reference/api-rules.md “Scopes” and “Error codes” (403 Insufficient permissions)",
    profile: "pipeline",
    title: "Each scope guards its operations: a key lacking only that scope → 403 on every one",
    rule: "Every row of the partner and tenant scope tables: a key holding every other scope of its kind but not the row's is refused each listed operation with 403 Insufficient permissions (payout:manage and pool:manage are not implied by the others); any tenant key, with no scope at all, reads orders and cards.",
    ...emulatorOnly(
      "operator",
      "mints partner and tenant keys that lack exactly one scope each, and a tenant key with none",
    ),
    deviation: "deposit_address_without_wallet_deposit",
    async run({ http, control, note }) {
      ensure(SCOPE_ROWS.length >= 18, `the scope tables give ${SCOPE_ROWS.length} rows`);
      const all = (kind: ScopeRow["kind"]) => [
        ...new Set(SCOPE_ROWS.filter((r) => r.kind === kind).map((r) => r.scope)),
      ];
      let calls = 0;
      for (const row of SCOPE_ROWS) {
        const scopes = all(row.kind).filter((s) => s !== row.scope);
        const key = await control!.newKey({ kind: row.kind, scopes });
        for (const op of row.operations) {
          const r = await call(http, op, key);
          const what = `${op.method} ${op.path} (${op.id}) with a ${row.kind} key lacking ${row.scope} (${row.rule})`;
          if (op.envelope === "warehouse") expectWarehouseError(r, 403, "Insufficient permissions", what);
          else expectError(r, 403, "Insufficient permissions", what);
          calls++;
        }
      }
      // “any tenant key”: orders and cards need no scope.
      const bare = await control!.newKey({ kind: "tenant", scopes: [] });
      for (const path of ["/api/v1/orders", "/api/v1/cards"])
        expectSuccess(await http.get(path, { key: bare }), `GET ${path} with a tenant key holding no scope`);
      for (const path of ["/api/v1/orders/scope-probe-order", "/api/v1/cards/scope-probe-card"]) {
        const r = await http.get(path, { key: bare });
        ensure(
          r.status === 404,
          `GET ${path} (missing) with a tenant key holding no scope must be 404, not ${r.status}`,
        );
      }
      note(`${SCOPE_ROWS.length} scope rows, ${calls} refused calls`);
    },
  },
];
