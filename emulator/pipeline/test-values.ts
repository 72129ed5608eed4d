import type { Services } from "./services.ts";

// Emulator-only test values, in the style of a payment provider's test cards (docs/test-values.md): a
// partner's UI tests reach each branch through their own app's screens, no control call. One table here;
// each flow asks `isTestValue` where it decides. `--no-test-values` / `testValues: false` turns them off.

export const TEST_VALUES = {
  /** external_user_id of a purchase: its redemption's KYC is approved at once (a KYC partner). */
  kyc_approve: "kyc_approve",
  /** external_user_id of a purchase: its redemption's KYC is declined at once → FAILED kyc_declined. */
  kyc_decline: "kyc_decline",
  /** shipping address street1 of a warehouse order: the label purchase fails (label_purchase_failed). */
  fail_label: "FAIL LABEL",
  /** shipping address street1 of a warehouse order: the carrier returns it once the label is bought. */
  return_to_sender: "RETURN TO SENDER",
  /** offer_price_usdc of a buyback offer: the marketplace rejects it (409 not_eligible, marketplace_rejected). */
  rejected_buyback_price: "1.23",
} as const;

export type TestValueName = keyof typeof TEST_VALUES;

/** Whether `given` is the test value `name` (street lines compare case-insensitively) and test values are on. */
export function isTestValue(s: Pick<Services, "options">, name: TestValueName, given: unknown): boolean {
  if (!s.options.testValues || typeof given !== "string") return false;
  return given.trim().toUpperCase() === TEST_VALUES[name].toUpperCase();
}
