import { getAddress, isAddress } from "viem";
import { badRequest } from "../../pipeline/errors.ts";
import { checkIdentifier } from "../../pipeline/identifiers.ts";
import type { HandlerContext } from "../../pipeline/route.ts";
import type { Services } from "../../services.ts";
import { publishEvent } from "../../events/publish.ts";
import type { EventType } from "../../events/types.ts";
import { mystery } from "./state.ts";

// Small helpers shared by the mystery routes: partner money strings, body
// readers with clear 400s, and event publishing (also kept for /_emulator).

/** Integer micros → "12.500000". */
export function usdc(micros: bigint | string | number): string {
  const m = BigInt(micros);
  const neg = m < 0n;
  const abs = neg ? -m : m;
  return `${neg ? "-" : ""}${abs / 1_000_000n}.${(abs % 1_000_000n).toString().padStart(6, "0")}`;
}

/** Integer micros → USD with cents ("12.50"). */
export const usd2 = (micros: bigint | string): string => (Number(BigInt(micros)) / 1_000_000).toFixed(2);

/** "12.5" | 12.5 → micros, or null when not a non-negative decimal with ≤ 6 places. */
export function parseUsdc(v: unknown): bigint | null {
  if (typeof v !== "string" && typeof v !== "number") return null;
  const s = String(v).trim();
  const m = /^(\d+)(?:\.(\d{1,6}))?$/.exec(s);
  if (!m) return null;
  return BigInt(m[1]!) * 1_000_000n + BigInt((m[2] ?? "").padEnd(6, "0") || "0");
}

export type Body = Record<string, unknown>;

export async function body(c: HandlerContext): Promise<Body> {
  const b = await c.json<unknown>();
  if (!b || typeof b !== "object" || Array.isArray(b)) throw badRequest("invalid_json", "The request body must be a JSON object");
  return b as Body;
}

export const isTxHash = (v: unknown): v is `0x${string}` => typeof v === "string" && /^0x[0-9a-fA-F]{64}$/.test(v);

/** Accepts any 0x address whose checksum is right when mixed-case (viem strict isAddress). */
export function checksummed(v: unknown): `0x${string}` | null {
  if (typeof v !== "string" || !isAddress(v, { strict: true })) return null;
  return getAddress(v);
}

export function walletParam(v: unknown, code = "invalid_wallet_address"): `0x${string}` {
  const a = checksummed(v);
  if (!a) throw badRequest(code, "wallet_address must be a 0x-prefixed 20-byte EVM address (EIP-55 checksum when mixed-case)");
  return a;
}

/** Tier ids are numbers (a numeric string is accepted); anything else is invalid_tier. */
export function tierParam(v: unknown): number {
  const n = typeof v === "number" ? v : typeof v === "string" && /^\d+$/.test(v.trim()) ? Number(v.trim()) : NaN;
  if (!Number.isInteger(n) || n <= 0) throw badRequest("invalid_tier", "tier_id must be the numeric id of a tier (see GET /mystery/catalog)");
  return n;
}

export function optIdentifier(b: Body, name: string): string | null {
  const v = b[name];
  if (v === undefined || v === null || v === "") return null;
  if (typeof v !== "string" && typeof v !== "number") throw badRequest("invalid_value", `${name} must be a string`);
  const s = String(v);
  checkIdentifier(s, name);
  return s;
}

/** Positive integer ids (purchase_id, redemption_id) given as a number or digit string. */
export function intId(v: unknown): number | null {
  if (typeof v === "number" && Number.isInteger(v) && v > 0) return v;
  if (typeof v === "string" && /^\d{1,15}$/.test(v.trim()) && Number(v) > 0) return Number(v.trim());
  return null;
}

/** Token ids are decimal strings (uint256). */
export function tokenIdOf(v: unknown): string | null {
  if (typeof v === "number" && Number.isInteger(v) && v >= 0) return String(v);
  if (typeof v === "string" && /^\d{1,78}$/.test(v.trim())) return BigInt(v.trim()).toString();
  return null;
}

const EVENT_LOG_CAP = 1000;

/** Publishes a webhook event and keeps it in the area's event log (GET /_emulator/mystery/events). */
export function emit(services: Services, accountId: string, type: EventType, key: string, data: Record<string, unknown>): void {
  const log = mystery(services).events;
  log.push({ account_id: accountId, type, key, data: structuredClone(data), at: services.clock.nowIso() });
  if (log.length > EVENT_LOG_CAP) log.splice(0, log.length - EVENT_LOG_CAP);
  publishEvent(services, accountId, type, key, data);
}

export const isoAt = (ms: number) => new Date(ms).toISOString();
