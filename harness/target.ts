import { ControlClient, type HttpClient } from "./http.ts";

// What a running emulator offers a client that only has its URL: the fixture
// keys by name and the chain's JSON-RPC URL, read from its control plane.

export interface EmulatorTarget {
  keys: Record<string, string>;
  rpcUrl: string | null;
}

export async function lookupEmulator(http: HttpClient, withChain: boolean): Promise<EmulatorTarget> {
  const control = new ControlClient(http);
  const { keys } = await control.request<{ keys: Array<{ name?: string; key: string }> }>("GET", "/keys");
  const rpcUrl = withChain ? (await control.request<{ rpcUrl: string | null }>("GET", "/chain")).rpcUrl : null;
  return { keys: Object.fromEntries(keys.filter((k) => k.name).map((k) => [k.name!, k.key])), rpcUrl };
}
