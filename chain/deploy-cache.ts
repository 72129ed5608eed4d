import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Hex } from "viem";
import type { DeployConfig } from "./deploy.ts";
import { networkFingerprint } from "./provider.ts";
import type { ChainAddresses } from "./state.ts";

// The deployment as data: the journal entries a fresh deployment made (its signed raw transactions and
// the Multicall3 setCode, in order), kept in memory for later chains of the process and on disk for later
// processes. A chain started from it sends the same entries to its fresh network through the same path a
// deployment's own sends take (block time pinned to the clock the same way), so its blocks, hashes and
// journal are the ones a fresh deployment at that time makes. See docs/chain.md "Start-up".

/** Bumped when the cached shape or what a chain does with it changes. */
const FORMAT = 1;

export interface CachedDeployment {
  /** Journal entries of the deployment, without block times (those come from the clock at replay). */
  entries: Array<[method: string, params: unknown[]]>;
  /** The deployment's progress steps, reported again by a replay that stands. */
  steps: string[];
  addresses: ChainAddresses;
  vrf: { subscriptionId: string; keyHash: Hex };
  /** The block the deployment ends on. */
  block: number;
}

interface CacheFile extends CachedDeployment {
  format: number;
  key: string;
}

const CHAIN_DIR = path.dirname(fileURLToPath(import.meta.url));
const EXT = path.extname(fileURLToPath(import.meta.url)); // .ts from the sources, .js from dist/
/** Every file whose code decides the transactions a deployment sends (with the network settings and versions). */
const INPUT_FILES = [
  "deploy",
  "emulator-chain",
  "send",
  "accounts",
  "constants",
  "tiers",
  "instant",
  "provider",
  "journal",
  "viem-late",
  "generated/contracts",
];

let sourceDigest: string | undefined;

const json = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? `${x}n` : x));

/** What a deployment depends on, hashed: the chain's code and compiled contracts, the network and its versions, the deploy config. */
export function deployCacheKey(config: DeployConfig): string {
  if (sourceDigest === undefined) {
    const h = createHash("sha256");
    for (const name of INPUT_FILES) {
      h.update(name);
      h.update(readFileSync(path.join(CHAIN_DIR, name + EXT)));
    }
    h.update(readFileSync(path.join(CHAIN_DIR, "network.cjs")));
    sourceDigest = h.digest("hex");
  }
  return createHash("sha256")
    .update(json({ format: FORMAT, sources: sourceDigest, network: networkFingerprint(), config }))
    .digest("hex");
}

/** Where the deployment is cached on disk: the project's node_modules/.cache (the OS temp dir without one). */
export function defaultCacheDir(): string {
  const root = path.resolve(CHAIN_DIR, EXT === ".js" ? "../.." : "..");
  // Installed: <project>/node_modules/cardos-emulator/dist/chain; a checkout: <checkout>/chain or dist/chain.
  const parent = path.dirname(root);
  if (path.basename(parent) === "node_modules") return path.join(parent, ".cache", "cardos-emulator");
  try {
    readFileSync(path.join(root, "node_modules", ".package-lock.json"));
    return path.join(root, "node_modules", ".cache", "cardos-emulator");
  } catch {
    return path.join(tmpdir(), "cardos-emulator-cache");
  }
}

const isHex = (v: unknown): v is string => typeof v === "string" && /^0x[0-9a-fA-F]*$/.test(v);

/** The file's deployment when it is whole and made for `key`; null otherwise (a corrupt file is ignored). */
function parseCacheFile(text: string, key: string): CachedDeployment | null {
  let doc: Partial<CacheFile>;
  try {
    doc = JSON.parse(text) as Partial<CacheFile>;
  } catch {
    return null;
  }
  if (!doc || doc.format !== FORMAT || doc.key !== key) return null;
  const okEntries =
    Array.isArray(doc.entries) &&
    doc.entries.length > 0 &&
    doc.entries.every(
      (e) =>
        Array.isArray(e) &&
        e.length === 2 &&
        (e[0] === "eth_sendRawTransaction" || e[0] === "hardhat_setCode") &&
        Array.isArray(e[1]) &&
        e[1].every(isHex),
    );
  const okSteps = Array.isArray(doc.steps) && doc.steps.every((s) => typeof s === "string");
  const a = doc.addresses as Record<string, unknown> | undefined;
  const okAddresses = !!a && typeof a === "object" && Object.values(a).every((v) => isHex(v) && v.length === 42);
  const okVrf = !!doc.vrf && /^[0-9]+$/.test(String(doc.vrf.subscriptionId)) && isHex(doc.vrf.keyHash);
  if (!okEntries || !okSteps || !okAddresses || !okVrf || !Number.isSafeInteger(doc.block)) return null;
  return {
    entries: doc.entries!,
    steps: doc.steps!,
    addresses: doc.addresses!,
    vrf: doc.vrf!,
    block: doc.block!,
  };
}

/**
 * `CARDOS_EMULATOR_DEPLOY_CACHE`: unset or `1` memory and disk, `memory` this process only, `0` never
 * (every chain deploys afresh).
 */
function mode(): "off" | "memory" | "disk" {
  const v = process.env.CARDOS_EMULATOR_DEPLOY_CACHE;
  if (v === "0" || v === "off" || v === "false") return "off";
  if (v === "memory") return "memory";
  return "disk";
}

/** Deployments by key, this process. */
const memory = new Map<string, CachedDeployment>();
/** Keys whose cached deployment did not replay, until a deployment replaces it (never read from disk again meanwhile). */
const refused = new Set<string>();

export class DeployCache {
  constructor(private readonly dir: string | null = null) {}

  private file(key: string): string | null {
    const dir = this.dir ?? (mode() === "disk" ? defaultCacheDir() : null);
    return dir && path.join(dir, `deploy-${key.slice(0, 40)}.json`);
  }

  load(key: string): CachedDeployment | null {
    if (mode() === "off" || refused.has(key)) return null;
    const hit = memory.get(key);
    if (hit) return hit;
    const file = this.file(key);
    if (!file) return null;
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      return null;
    }
    const found = parseCacheFile(text, key);
    if (found) memory.set(key, found);
    return found;
  }

  /** Remembers a fresh deployment; on disk written whole or not at all (temp file, then rename). */
  save(key: string, deployment: CachedDeployment): void {
    if (mode() === "off") return;
    refused.delete(key);
    memory.set(key, deployment);
    const file = this.file(key);
    if (!file) return;
    const tmp = `${file}.${process.pid}.${process.hrtime.bigint()}.tmp`;
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(tmp, JSON.stringify({ format: FORMAT, key, ...deployment } satisfies CacheFile));
      renameSync(tmp, file);
    } catch {
      // A cache that cannot be written (read-only install, full disk) only costs the next process a deployment.
      rmSync(tmp, { force: true });
    }
  }

  /** A cached deployment that did not replay (made by other code): dropped everywhere. */
  forget(key: string): void {
    refused.add(key);
    memory.delete(key);
    const file = this.file(key);
    if (file) rmSync(file, { force: true });
  }
}

/** Forgets this process's cached deployments (tests: the next chain deploys, or reads the disk). */
export function clearDeployCacheMemory(): void {
  memory.clear();
  refused.clear();
}
