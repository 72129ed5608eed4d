import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { FIXTURE_ACCOUNTS } from "./accounts.ts";
import { ChainJournal, JournalError, replayJournal, type Eip1193Like } from "./journal.ts";
import type { ChainStateExport } from "./state.ts";
import type { RpcGuard, RpcHeaders } from "./types.ts";
import { viemVersion } from "./viem-late.ts";
import { isoOf } from "../contract/time.ts";

// The network under the chain: Hardhat's in-process EDR provider and its JSON-RPC server. Hardhat is
// an optional peer (docs/decisions.md "Packaging"): it is required here, on the first chain asked
// for, and never by importing the package.

const CHAIN_DIR = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(CHAIN_DIR, "..");

/** The Hardhat range the chain is built and tested with (the optional peer's range in package.json). */
export const HARDHAT_RANGE = "~2.29.0";

/**
 * A chain was asked for, but Hardhat is not installed beside the package. `without` says how to start
 * without one in the caller's own terms: the CLI passes its flag; in-process, the option is named.
 */
export class HardhatMissingError extends Error {
  constructor(without = "leave out createEmulator's `chain` option") {
    super(
      `the local chain needs Hardhat, which is not installed: npm install -D hardhat@${HARDHAT_RANGE} (or start without a chain: ${without})`,
    );
    this.name = "HardhatMissingError";
  }
}

/** Hardhat's JSON-RPC handler (parsing, batches, error shapes, subscriptions), driven by our own server. */
interface JsonRpcHandler {
  handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void>;
  handleWs(ws: unknown): Promise<void>;
  _setCorsHeaders(res: ServerResponse): void;
}

interface WsServer {
  on(event: "connection", listener: (ws: unknown, req: IncomingMessage) => void): void;
  close(cb: (err?: Error) => void): void;
}

interface HardhatModules {
  resolveConfig: (configPath: string, config: unknown) => unknown;
  createProvider: (config: unknown, network: string) => Promise<Eip1193Like>;
  JsonRpcHandler: new (provider: Eip1193Like) => JsonRpcHandler;
  WsServer: new (opts: {
    server: Server;
    verifyClient: (
      info: { req: IncomingMessage },
      done: (ok: boolean, status?: number, message?: string) => void,
    ) => void;
  }) => WsServer;
  network: { solidity: unknown; hardhatNetwork: Record<string, unknown> };
}

let hardhatModules: HardhatModules | undefined;

/** Whether Hardhat resolves from the package (the CLI checks before it starts anything). */
export function hardhatInstalled(): boolean {
  try {
    createRequire(path.join(ROOT, "package.json")).resolve("hardhat/package.json");
    return true;
  } catch {
    return false;
  }
}

function loadHardhat(): HardhatModules {
  if (!hardhatModules) {
    if (!hardhatInstalled()) throw new HardhatMissingError();
    process.env.HARDHAT_DISABLE_TELEMETRY_PROMPT = "true";
    const require = createRequire(path.join(ROOT, "package.json"));
    hardhatModules = {
      resolveConfig: require("hardhat/internal/core/config/config-resolution.js").resolveConfig,
      createProvider: require("hardhat/internal/core/providers/construction.js").createProvider,
      JsonRpcHandler: require("hardhat/internal/hardhat-network/jsonrpc/handler.js").JsonRpcHandler,
      // Hardhat's own WebSocket library, resolved from Hardhat (not a dependency of the package).
      WsServer: createRequire(require.resolve("hardhat/package.json"))("ws").Server,
      network: require(path.join(CHAIN_DIR, "network.cjs")),
    };
  }
  return hardhatModules;
}

/** The genesis accounts: explicit keys (same as the default mnemonic) avoid HD derivation at start-up. */
const genesisAccounts = () =>
  FIXTURE_ACCOUNTS.map((a) => ({ privateKey: a.privateKey, balance: (10_000n * 10n ** 18n).toString() }));

/** A fresh in-process network whose genesis block is at `startTime` (unix ms), the fixture accounts funded. */
export async function createInProcessProvider(startTime: number): Promise<Eip1193Like> {
  const hh = loadHardhat();
  const config = hh.resolveConfig(path.join(CHAIN_DIR, "hardhat.config.cjs"), {
    solidity: hh.network.solidity,
    networks: {
      hardhat: {
        ...hh.network.hardhatNetwork,
        initialDate: isoOf(Math.floor(startTime / 1000) * 1000),
        accounts: genesisAccounts(),
      },
    },
  });
  return hh.createProvider(config, "hardhat");
}

/** What a network started here is made of, for the deployment cache's key (chain/deploy-cache.ts): versions and settings. */
export function networkFingerprint(): unknown {
  const hh = loadHardhat();
  const require = createRequire(path.join(ROOT, "package.json"));
  const hardhatRequire = createRequire(require.resolve("hardhat/package.json"));
  // EDR's exports leave out its package.json: read it beside its entry.
  const version = (req: NodeJS.Require, name: string) =>
    (
      JSON.parse(readFileSync(path.join(path.dirname(req.resolve(name)), "package.json"), "utf8")) as {
        version: string;
      }
    ).version;
  return {
    hardhat: (require("hardhat/package.json") as { version: string }).version,
    edr: version(hardhatRequire, "@nomicfoundation/edr"),
    viem: viemVersion(),
    network: hh.network.hardhatNetwork,
    accounts: genesisAccounts(),
  };
}

/** EIP-1193 "Unauthorized": the method or the account is not open to this caller (the message starts with the reason). */
const UNAUTHORIZED = 4100;

/** `provider` as this request's caller may use it: each call first passes the guard. */
function guardedProvider(provider: Eip1193Like, guard: RpcGuard, headers: RpcHeaders): Eip1193Like {
  return {
    async request(args) {
      const refused = guard.call(args.method, args.params, headers);
      // Hardhat's handler answers an error marked as a provider error with its own code and message.
      if (refused)
        throw Object.assign(new Error(`${refused.reason}: ${refused.message}`), {
          code: UNAUTHORIZED,
          _isProviderError: true,
        });
      return provider.request(args);
    },
    addListener: (event, listener) => provider.addListener?.(event, listener),
    removeListener: (event, listener) => provider.removeListener?.(event, listener),
  };
}

/**
 * Serves `provider` as JSON-RPC (HTTP and WebSocket) on 127.0.0.1:<port>, every request and call through
 * `guard` (Hardhat's own server answers any Host and any web page, with CORS `*`); rejects when the port is taken.
 */
export async function serveJsonRpc(
  provider: Eip1193Like,
  port: number,
  guard: RpcGuard,
): Promise<{ url: string; close(): Promise<void> }> {
  const hh = loadHardhat();
  const handlerFor = (headers: RpcHeaders): JsonRpcHandler => {
    const handler = new hh.JsonRpcHandler(guardedProvider(provider, guard, headers));
    handler._setCorsHeaders = () => {}; // ours, from the guard, are already set
    return handler;
  };
  const server = createServer((req, res) => {
    const refused = guard.request(req.headers);
    if (refused) {
      req.resume();
      res.writeHead(refused.status, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          jsonrpc: "2.0",
          id: null,
          error: { code: UNAUTHORIZED, message: `${refused.reason}: ${refused.message}` },
        }),
      );
      return;
    }
    for (const [k, v] of Object.entries(guard.responseHeaders(req.headers))) res.setHeader(k, v);
    if (req.method === "OPTIONS") {
      res.writeHead(204).end();
      return;
    }
    void handlerFor(req.headers).handleHttp(req, res);
  });
  const ws = new hh.WsServer({
    server,
    // Browsers open WebSockets to any origin without a preflight: the same guard at the upgrade.
    verifyClient: ({ req }, done) => {
      const refused = guard.request(req.headers);
      done(refused === null, refused?.status, refused?.message);
    },
  });
  ws.on("connection", (socket, req) => void handlerFor(req.headers).handleWs(socket));
  const actual = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
  return {
    url: `http://127.0.0.1:${actual}`,
    close: () =>
      Promise.all([
        new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
        new Promise<void>((resolve, reject) => ws.close((err) => (err ? reject(err) : resolve()))),
      ]).then(() => undefined),
  };
}

/**
 * In-process Hardhat reverts are SolidityError objects with hex `data` but no JSON-RPC `code`; give them
 * the shape a real node returns ({ code: 3, message: "execution reverted", data }) so viem decodes custom errors.
 */
export function normalizeRpcError(err: unknown): unknown {
  const e = err as { code?: unknown; data?: unknown; message?: string } | null;
  if (e && typeof e === "object" && e.code === undefined && typeof e.data === "string" && e.data.startsWith("0x")) {
    const out = new Error(e.message ?? "execution reverted") as Error & { code: number; data: string };
    out.code = 3;
    out.data = e.data;
    return out;
  }
  return err;
}

export interface RebuiltNetwork {
  journal: ChainJournal;
  /** evm_snapshot id (on the new network) at the end of deployment. */
  deploySnapshot: string;
}

/** A fresh in-process network at the export's genesis, with its journal replayed; checks it ends on the recorded block. */
export async function rebuildNetwork(
  doc: ChainStateExport,
  progress?: (step: string) => void,
): Promise<RebuiltNetwork> {
  const network = await createInProcessProvider(doc.genesis_time * 1000);
  let deploySnapshot = "";
  const every = Math.max(1, Math.ceil(doc.journal.length / 10));
  await replayJournal(network, doc.journal, async (i) => {
    if (i === doc.deployment.journal_length)
      deploySnapshot = (await network.request({ method: "evm_snapshot", params: [] })) as string;
    if (progress && i > 0 && i < doc.journal.length && i % every === 0)
      progress(`replaying the chain journal (${i}/${doc.journal.length})`);
  });
  const journal = await ChainJournal.over(network, [...doc.journal]);
  const head = journal.head;
  if (head.number !== doc.head.number || head.hash !== doc.head.hash)
    throw new JournalError(
      `the chain replayed from the state ends on block ${head.number} (${head.hash}), the state recorded block ${doc.head.number} (${doc.head.hash}); was the file edited, or made by another emulator version?`,
    );
  journal.adoptSnapshot(deploySnapshot, doc.deployment.journal_length);
  return { journal, deploySnapshot };
}
