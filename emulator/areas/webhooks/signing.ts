import { hexId } from "../../state/ids.ts";

// The signature scheme is the contract's (contract/webhook-signature.ts); the secrets are the emulator's.

/** A 64-hex signing secret, deterministic from the seed and the webhook id (same seed, same secrets). */
export function makeSecret(seed: number, webhookId: number, createdAt: string): string {
  return hexId(`cardos-emulator:webhook-secret:${seed}:${webhookId}:${createdAt}`);
}
