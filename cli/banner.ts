import type { EmulatorKey } from "../emulator/index.ts";

// The start-up banner: what a developer needs to start calling the API.

const bold = (s: string, color: boolean) => (color ? `\x1b[1m${s}\x1b[0m` : s);
const dim = (s: string, color: boolean) => (color ? `\x1b[2m${s}\x1b[0m` : s);

export interface BannerInfo {
  url: string;
  rpcUrl: string | null;
  chainNote: string;
  chain: { chainId: number; vrf: string; accounts: number } | null;
  seed: number;
  clock: string;
  keys: EmulatorKey[];
  /** Process start to ready (module loading included). */
  readyMs: number;
  /** Process start to the CLI's modules loaded (Hardhat, loaded with the chain, not included). */
  loadedMs: number;
}

export function banner(info: BannerInfo, color: boolean): string {
  const lines = [
    "",
    bold("  CardOS emulator", color) +
      dim(`  ready in ${info.readyMs} ms from process start (${info.loadedMs} ms loading modules)`, color),
    "",
    `  API            ${info.url}/api/v1`,
    `  Control plane  ${info.url}/_emulator`,
    `  Dashboard      ${info.url}/_emulator/ui`,
    `  Chain          ${info.rpcUrl ?? info.chainNote}` +
      (info.chain
        ? dim(
            `  (chain id ${info.chain.chainId}, VRF ${info.chain.vrf}, ${info.chain.accounts} funded end-user wallets: GET /_emulator/chain)`,
            color,
          )
        : ""),
    `  Seed / clock   ${info.seed} / ${info.clock}`,
    "",
    bold("  Keys (send the value as X-API-Key; control routes also take the name)", color),
  ];
  const width = Math.max(...info.keys.map((k) => k.name.length));
  for (const k of info.keys) {
    lines.push(`    ${k.name.padEnd(width)}  ${k.kind.padEnd(8)} ${k.key}`);
    lines.push(dim(`    ${" ".repeat(width)}  ${k.label} · ${k.scopes.join(" ")}`, color));
  }
  lines.push(
    "",
    dim(`  Try: curl -H "X-API-Key: ${info.keys[0]?.key}" ${info.url}/api/v1/pokemon/cards/base1-4`, color),
  );
  lines.push(dim("  Ctrl-C to stop.", color), "");
  return lines.join("\n");
}
