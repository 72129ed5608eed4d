import type { Services } from "../../../pipeline/services.ts";
import { own, setOwn } from "../../../state/own.ts";
import { mystery } from "../state.ts";
import { partnerOf } from "../partners.ts";

// KYC "if required" (docs/reference/api-rules.md “Mystery commerce endpoints”): a per-partner setting. The live service runs no
// KYC (SDK 0.1.2), so it is off by default; the `vesta` fixture partner (key
// "kyc") has it on; POST /_emulator/mystery/kyc switches any partner.

export function kycRequired(s: Services, accountId: string): boolean {
  return own(mystery(s).kyc_required ?? {}, accountId) ?? partnerOf(s, accountId).kyc_required;
}

export function setKycRequired(s: Services, accountId: string, required: boolean): void {
  setOwn((mystery(s).kyc_required ??= {}), accountId, required);
}
