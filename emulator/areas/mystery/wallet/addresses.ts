import { encodeAbiParameters, getAddress, keccak256 } from "../../../../chain/evm.ts";

// Addresses the area derives from ids (no fixture data): moved here from fixtures/mystery, so the area's only
// reader of the partner fixtures is its seed module (seed.ts; docs/decisions.md "Areas seed their partner facts").

/**
 * A deterministic address for a purpose and a tuple of ids: the ABI encoding of the strings (each length-prefixed)
 * is hashed, so account `co` + user `x:bob` and account `co:x` + user `bob` get different addresses.
 */
export const derivedAddress = (purpose: string, ...ids: string[]): `0x${string}` =>
  getAddress(
    `0x${keccak256(encodeAbiParameters([{ type: "string" }, { type: "string[]" }], [purpose, ids])).slice(-40)}`,
  );

/** Deterministic custody address of an auto-provisioned custodial end user (no fixture wallet). */
export const custodyAddress = (accountId: string, userId: string): `0x${string}` =>
  derivedAddress("custody", accountId, userId);
