import { networkInterfaces } from "node:os";
import { classifyHost } from "./address-policy.ts";
import { runtimeSlot } from "./runtime.ts";
import type { Services } from "./services.ts";

// The addresses this emulator listens on (its API and control plane, its chain's JSON-RPC), so an
// outgoing request it makes for a caller (a webhook delivery) can refuse to reach them: a partner key
// must not drive the control plane (issue 37 item 17). Nothing is resolved through DNS (as
// address-policy.ts): a loopback or unspecified address in any spelling, the bound address, and, for an
// any-address bind, this machine's own addresses count as the emulator's; other names cannot reach
// the listeners' Host check anyway.

export interface OwnListener {
  /** What listens there, for messages: "its API and control plane". */
  what: string;
  /** The bound address (0.0.0.0 / :: for any). */
  host: string;
  port: number;
}

const LISTENERS = runtimeSlot("own listeners", () => [] as OwnListener[]);

export function addOwnListener(services: Services, listener: OwnListener): void {
  services.runtime.of(LISTENERS).push(listener);
}

const isAnyAddress = (host: string) => host === "0.0.0.0" || host === "::";

function machineAddresses(): Set<string> {
  const out = new Set<string>();
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) out.add(classifyHost(a.address).host);
  return out;
}

/** The listener of this emulator `raw` (a URL) points at, or null. */
export function ownListenerAt(services: Services, raw: string): OwnListener | null {
  const listeners = services.runtime.of(LISTENERS);
  if (!listeners.length) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  const host = classifyHost(url.hostname);
  let machine: Set<string> | null = null;
  return (
    listeners.find((l) => {
      if (l.port !== port) return false;
      if (host.class === "loopback" || host.class === "unspecified") return true;
      const bound = classifyHost(l.host).host;
      if (host.host === bound) return true;
      return isAnyAddress(bound) && (machine ??= machineAddresses()).has(host.host);
    }) ?? null
  );
}

/** Why a delivery may not go to `raw`, or null. */
export function ownListenerProblem(services: Services, raw: string): string | null {
  const at = ownListenerAt(services, raw);
  return at
    ? `url points at the emulator itself (${at.what} on port ${at.port}): deliveries never go to the emulator's own listeners; register your receiver's URL`
    : null;
}
