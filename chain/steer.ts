import { encodeAbiParameters, keccak256 } from "./evm.ts";

// Steered reveals: the VRF words that make the contracts themselves pick what a test asked for.
// Pure arithmetic mirroring MysteryPool._reveal/_pickGroup/_pickValue and InstantPack._draw; the
// emulator fulfils with these words through the ordinary coordinator, so no contract has a special path.

/** A tier slot as MysteryPool stores it: group ids and their integer weights. */
export interface MysteryPoolSlot {
  groupIds: readonly number[];
  weights: readonly number[];
}

/** A group's value range (USD micros), as MysteryPool stores it. */
export interface MysteryPoolGroup {
  minValue: bigint;
  maxValue: bigint;
}

/** What one slot must yield: one of these groups, and (optionally) a value within [minValue, maxValue] micros. */
export interface SlotWant {
  groupIds: readonly number[];
  minValue?: bigint;
  maxValue?: bigint;
}

/** MysteryPool.VALUE_STEP: item values are whole cents. */
const VALUE_STEP = 10_000n;
const LOW128 = (1n << 128n) - 1n;

/** The slot's randomness: keccak256(abi.encode(word, slotIndex)). */
export function slotRandom(word: bigint, slotIndex: number): bigint {
  const encoded = encodeAbiParameters([{ type: "uint256" }, { type: "uint256" }], [word, BigInt(slotIndex)]);
  return BigInt(keccak256(encoded));
}

/** The group's value grid in cents [lo, hi] (hi < lo: the value is always minValue). */
function centsOf(g: MysteryPoolGroup): { lo: bigint; hi: bigint } {
  return { lo: (g.minValue + VALUE_STEP - 1n) / VALUE_STEP, hi: g.maxValue / VALUE_STEP };
}

/** What the pool mints for slot `slotIndex` given `word` (MysteryPool._pickGroup, then _pickValue on rnd >> 128). */
export function mysteryPick(
  slot: MysteryPoolSlot,
  groups: ReadonlyMap<number, MysteryPoolGroup>,
  word: bigint,
  slotIndex: number,
): { groupId: number; value: bigint } {
  const rnd = slotRandom(word, slotIndex);
  const total = slot.weights.reduce((a, w) => a + BigInt(w), 0n);
  let x = (rnd & LOW128) % total;
  for (let j = 0; j < slot.weights.length; j++) {
    const w = BigInt(slot.weights[j]!);
    if (x < w) {
      const groupId = slot.groupIds[j]!;
      const g = groups.get(groupId);
      if (!g) throw new Error(`steer: group ${groupId} is not known`);
      const { lo, hi } = centsOf(g);
      const value = hi <= lo ? g.minValue : (lo + ((rnd >> 128n) % (hi - lo + 1n))) * VALUE_STEP;
      return { groupId, value };
    }
    x -= w;
  }
  throw new Error("steer: weights"); // unreachable, as in the contract
}

function accepts(want: SlotWant, pick: { groupId: number; value: bigint }): boolean {
  if (!want.groupIds.includes(pick.groupId)) return false;
  if (want.minValue !== undefined && pick.value < want.minValue) return false;
  return want.maxValue === undefined || pick.value <= want.maxValue;
}

/** The chance that one word satisfies `want` in this slot (0: never). */
export function slotChance(
  slot: MysteryPoolSlot,
  groups: ReadonlyMap<number, MysteryPoolGroup>,
  want: SlotWant,
): number {
  const total = slot.weights.reduce((a, w) => a + w, 0);
  let chance = 0;
  slot.groupIds.forEach((groupId, j) => {
    const g = groups.get(groupId);
    if (!g || !want.groupIds.includes(groupId)) return;
    const { lo, hi } = centsOf(g);
    const values = hi <= lo ? [g.minValue, g.minValue] : [lo * VALUE_STEP, hi * VALUE_STEP];
    const min = want.minValue ?? 0n;
    const max = want.maxValue ?? values[1]!;
    // Whole cents of the grid inside [min, max]; a one-value group is in or out.
    const from = min > values[0]! ? (min + VALUE_STEP - 1n) / VALUE_STEP : values[0]! / VALUE_STEP;
    const to = max < values[1]! ? max / VALUE_STEP : values[1]! / VALUE_STEP;
    if (hi <= lo) {
      if (g.minValue >= min && g.minValue <= max) chance += slot.weights[j]! / total;
      return;
    }
    if (to < from) return;
    chance += (slot.weights[j]! / total) * (Number(to - from + 1n) / Number(hi - lo + 1n));
  });
  return chance;
}

/** The most tries a steer may need on average; a rarer want is refused up front rather than searched for long. */
export const MAX_EXPECTED_TRIES = 50_000;

/**
 * A word that makes slot `slotIndex` yield `want`: candidates are keccak256(tag, counter) for counter
 * 0, 1, …, so the same request always gets the same word. Null when the want is impossible or too rare
 * (slotChance × MAX_EXPECTED_TRIES < 1); the search runs to 40 × the expected tries (a miss ≈ e^-40).
 */
export function solveSlotWord(
  slot: MysteryPoolSlot,
  groups: ReadonlyMap<number, MysteryPoolGroup>,
  slotIndex: number,
  want: SlotWant,
  tag: bigint = 0n,
): bigint | null {
  const chance = slotChance(slot, groups, want);
  if (chance * MAX_EXPECTED_TRIES < 1) return null;
  const limit = Math.ceil(40 / chance);
  for (let counter = 0; counter < limit; counter++) {
    const word = BigInt(
      keccak256(encodeAbiParameters([{ type: "uint256" }, { type: "uint256" }], [tag, BigInt(counter)])),
    );
    if (accepts(want, mysteryPick(slot, groups, word, slotIndex))) return word;
  }
  return null;
}

/**
 * The word that makes InstantPack draw the bundle at `position` of the undrawn ones: `_draw` takes
 * `word % undrawn`, so the position itself (position < undrawn) is such a word.
 */
export function instantWord(position: number, undrawn: number): bigint {
  if (!Number.isInteger(position) || position < 0 || position >= undrawn)
    throw new Error(`steer: position ${position} is not among ${undrawn} undrawn bundles`);
  return BigInt(position);
}

/** InstantPack's `_pool` mapping slot (Ownable's owner, vrfCoordinator, keyHash, subscriptionId, gas/confirmations, _types, _typeIds before it). */
export const INSTANT_POOL_SLOT = 7n;

/** The storage slot of `_pool[packetTypeId][position]` (a value v ≠ 0 means bundle v − 1; 0 means bundle `position`). */
export function instantPoolSlot(packetTypeId: number, position: number): `0x${string}` {
  const inner = keccak256(
    encodeAbiParameters([{ type: "uint256" }, { type: "uint256" }], [BigInt(packetTypeId), INSTANT_POOL_SLOT]),
  );
  return keccak256(encodeAbiParameters([{ type: "uint256" }, { type: "bytes32" }], [BigInt(position), inner]));
}
