import { createHash } from "node:crypto";

// Where ids come from (docs/decisions.md, "One way for each job"): the one module that names the state's
// counters and holds the deterministic sources of anything random-looking. A record's number is
// `store.nextId(COUNTERS.x)`; a counter is named `<area>.<record>` and declared here once, with its first
// value; random-looking values (seeded streams, hex ids) come from `mulberry32`, `hashString` and `hexId`,
// fed with the emulator's seed or the record's own fields, never Math.random or the wall clock, so the
// same seed and the same calls give the same ids.

/** A counter of the state: `name` as the export writes it, the first id it gives, and its name in older state files. */
export interface Counter {
  readonly name: string;
  readonly start: number;
  readonly legacy?: string;
}

/** A counter `<area>.<record>`, counting from `start`. */
export const counter = (name: string, start = 1, legacy?: string): Counter => Object.freeze({ name, start, legacy });

/** Every counter of the state. The starts are the wire's first ids (tests and docs pin them). */
export const COUNTERS = Object.freeze({
  controlKey: counter("control.key", 1, "control-key"),
  visionFeedback: counter("vision.feedback", 1, "vision_feedback"),
  webhook: counter("webhooks.webhook", 1, "webhook"),
  webhookDelivery: counter("webhooks.delivery", 1, "webhook_delivery"),
  webhookAttempt: counter("webhooks.attempt", 1, "webhook_attempt"),
  webhookEvent: counter("webhooks.event", 1, "emulator_event"),
  webhookRotation: counter("webhooks.rotation", 1, "webhook_rotation"),
  mysteryPurchase: counter("mystery.purchase", 5001, "mystery-purchase"),
  // pool.item_pulled's usage id (the POOL model; not the MysteryPool contract)
  mysteryPulledItem: counter("mystery.pool_usage", 1, "mystery-pool-usage"),
  mysterySteer: counter("mystery.steer", 1, "mystery-steer"),
  mysteryOffer: counter("mystery.offer", 7001, "mystery-offer"),
  mysteryEndUser: counter("mystery.end_user", 1, "mystery-end-user"),
  mysteryLedger: counter("mystery.ledger", 1, "mystery-ledger"),
  mysteryWalletId: counter("mystery.wallet_id", 9001, "mystery-wallet-id"),
  mysteryDeposit: counter("mystery.deposit", 7001, "mystery-deposit"),
  mysteryRedemption: counter("mystery.redemption", 9001, "mystery-redemption"),
  mysterySellback: counter("mystery.sellback", 3001, "mystery-sellback"),
  mysteryPayout: counter("mystery.payout", 4001, "mystery-payout"),
  instantPurchase: counter("instant.purchase", 1, "instant-purchase"),
  instantSteer: counter("instant.steer", 1, "instant-steer"),
  warehouseOrder: counter("warehouse.order", 100_001),
  warehouseInbound: counter("warehouse.inbound", 3001),
  warehouseAttachment: counter("warehouse.attachment", 1),
  warehouseWithdrawal: counter("warehouse.withdrawal", 5001),
  warehouseTransfer: counter("warehouse.transfer", 7001),
  warehouseIssue: counter("warehouse.issue", 1),
  warehouseDeclaredValue: counter("warehouse.declared_value", 1),
  warehouseServiceCredit: counter("warehouse.service_credit", 1),
  warehouseActivity: counter("warehouse.activity", 1),
  warehouseException: counter("warehouse.exception", 9001),
  warehouseReport: counter("warehouse.report", 1),
});

/** A tenant's card numbers in the warehouse: `warehouse.card.<account>`, from 1000. */
export const warehouseCardCounter = (accountId: string): Counter => counter(`warehouse.card.${accountId}`, 1000);

/** State files written before the one naming style keep their counters: read under today's names. */
export function upgradeLegacyCounters(counters: unknown): void {
  if (typeof counters !== "object" || counters === null || Array.isArray(counters)) return;
  const rec = counters as Record<string, unknown>;
  for (const c of Object.values(COUNTERS)) {
    if (c.legacy === undefined || !Object.hasOwn(rec, c.legacy)) continue;
    if (!Object.hasOwn(rec, c.name)) rec[c.name] = rec[c.legacy];
    delete rec[c.legacy];
  }
}

/** mulberry32: a seeded stream of uniform floats in [0, 1), the one PRNG (fixtures, faults, chaos). */
export function mulberry32(a: number): () => number {
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 32-bit FNV-1a hash of a string, mixed with an optional seed: a stream's seed from a label. */
export function hashString(text: string, seed = 0x811c9dc5): number {
  let h = (seed ^ 0x811c9dc5) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  // final avalanche (murmur3 fmix32)
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest();

/** A hex id derived from `text` (the seed and the record's own fields): SHA-256, its first `length` hex digits. */
export const hexId = (text: string, length = 64): string => sha256(text).toString("hex").slice(0, length);

/** The same in base64url (43 characters): API keys. */
export const base64urlId = (text: string): string => sha256(text).toString("base64url");

/** A stable pick in [0, n) derived from `text`: the first 32 bits of its SHA-256, modulo n. */
export const hashIndex = (text: string, n: number): number => sha256(text).readUInt32BE(0) % n;
