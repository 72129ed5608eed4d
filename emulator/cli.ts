import { writeFileSync } from "node:fs";
import { createEmulator, StateFileError } from "./index.ts";
import { classifyHost } from "./pipeline/address-policy.ts";
import { JournalError } from "../chain/journal.ts";
import { closest, has, helpText, intFlag, last, parseCommand, UsageError, type CommandSpec, type ParsedArgs } from "../harness/cli-args.ts";
import { banner } from "./cli/banner.ts";
import { checkWritable, writeOutput } from "../harness/output-file.ts";
import { requestLine } from "./cli/request-line.ts";
import { journalOf } from "./ui/journal.ts";

const START: CommandSpec = {
  usage: `  npx emulator [options]                 start the emulator
  npx emulator conformance [options]     run the conformance suite (npx emulator conformance --help)
  npx emulator receiver-check --url URL --secret S   certify your webhook receiver (--help)
  npx emulator scenario NAME | --list    run a scripted lifecycle (npx emulator scenario --help)
  npx emulator openapi [--out FILE]      write the OpenAPI document (npx emulator openapi --help)`,
  options: [
    { name: "port", type: "string", value: "N", describe: "API port on 127.0.0.1 (default 4010, or EMULATOR_PORT; 0 = any free port)" },
    { name: "host", type: "string", value: "ADDRESS", describe: "listen on ADDRESS instead of 127.0.0.1 (or EMULATOR_HOST); a non-loopback address\nmakes the control plane reachable from the network" },
    { name: "allowed-host", type: "string", value: "NAME", multiple: true, describe: "also answer a Host header of NAME (.NAME: and its subdomains); loopback names and\nIP addresses always are, others get 403 host_not_allowed (DNS-rebinding guard)" },
    { name: "seed", type: "string", value: "N", describe: "fixture seed (default 1): same seed, same keys and data" },
    { name: "json", type: "boolean", describe: "print exactly one JSON line {url, rpcUrl, keys} when ready" },
    { name: "quiet", type: "boolean", describe: "no line per API call in the terminal (printed while stdout is a TTY)" },
    { name: "state", type: "string", value: "FILE", describe: "keep the state in FILE, the local chain included: imported on start when it\nexists, every change written through to it (atomically) within a second" },
    { name: "clock", type: "string", value: "MODE", describe: "realtime (default) or manual (time moves only via /_emulator/clock/advance)" },
    { name: "catalog", type: "string", value: "SIZE", describe: "default, or large (~40k cards, for benchmarks)" },
    { name: "strict-webhook-urls", type: "boolean", describe: "accept only public https webhook URLs, as the live service does" },
    { name: "ip-rate-limit", type: "string", value: "N", describe: "per-IP budget, requests per minute (default 3000)" },
    { name: "no-chain", type: "boolean", describe: "run the API without the local chain" },
    { name: "rpc-port", type: "string", value: "N", describe: "JSON-RPC port of the local chain on 127.0.0.1 (default 8545; 0 = any free port)" },
    { name: "rpc-url", type: "string", value: "URL", describe: "attach to an existing node (e.g. npx hardhat node --hostname 127.0.0.1) and deploy there" },
    { name: "vrf", type: "string", value: "MODE", describe: "auto (default: reveal 5 s after a purchase, on the clock) or manual (POST /_emulator/vrf/fulfill)" },
  ],
};

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "conformance") {
    const { runConformanceCli } = await import("../conformance/cli.ts");
    return runConformanceCli(rest);
  }
  if (command === "receiver-check") {
    const { runReceiverCheckCli } = await import("../conformance/cli.ts");
    return runReceiverCheckCli(rest);
  }
  if (command === "openapi") return openapiCommand(rest);
  if (command === "scenario") {
    const { runScenarioCli } = await import("../scenarios/cli.ts");
    return runScenarioCli(rest);
  }
  const args = parseCommand(START, argv);
  if (has(args, "help")) {
    process.stdout.write(helpText(START));
    return 0;
  }
  if (args.positionals.length) {
    const guess = closest(args.positionals[0]!, ["conformance", "scenario", "openapi"]);
    throw new UsageError(`unknown command "${args.positionals[0]}"${guess ? `; did you mean "${guess}"?` : ""}`);
  }
  return start(args);
}

const OPENAPI: CommandSpec = {
  usage: "  npx emulator openapi [--out FILE] [--control] [--yaml] [--server URL]",
  about: "Writes the OpenAPI 3.1 document generated from the emulator's route table (stdout without --out).",
  options: [
    { name: "out", type: "string", value: "FILE", describe: "write to FILE (.yaml or .yml writes YAML)" },
    { name: "control", type: "boolean", describe: "the control plane's document instead of the API's" },
    { name: "yaml", type: "boolean", describe: "YAML instead of JSON" },
    { name: "server", type: "string", value: "URL", describe: "the server URL in the document (default http://127.0.0.1:4010)" },
  ],
};

async function openapiCommand(argv: readonly string[]): Promise<number> {
  const args = parseCommand(OPENAPI, argv);
  if (has(args, "help")) {
    process.stdout.write(helpText(OPENAPI));
    return 0;
  }
  const { apiDocument, controlDocument } = await import("./openapi/document.ts");
  const { apiAreas, controlRoutes } = await import("./app.ts");
  const server = last(args, "server") ?? "http://127.0.0.1:4010";
  const out = last(args, "out");
  if (out) checkWritable("--out", out);
  const doc = has(args, "control") ? controlDocument(controlRoutes, server) : apiDocument(apiAreas(), server);
  const yaml = has(args, "yaml") || /\.ya?ml$/.test(out ?? "");
  const text = yaml ? (await import("yaml")).stringify(doc) : JSON.stringify(doc, null, 2) + "\n";
  if (out) {
    writeOutput("--out", out, text);
    process.stderr.write(`wrote ${out}\n`);
  } else process.stdout.write(text);
  return 0;
}

async function start(args: ParsedArgs): Promise<number> {
  const started = performance.now();
  const json = has(args, "json");
  const envPort = process.env.EMULATOR_PORT ? Number(process.env.EMULATOR_PORT) : 4010;
  const port = intFlag(args, "port", envPort) ?? 4010;
  const seed = intFlag(args, "seed", 1) ?? 1;
  const host = last(args, "host") ?? (process.env.EMULATOR_HOST || undefined);
  const allowedHosts = args.flags.get("allowed-host") ?? [];
  const clock = last(args, "clock") ?? "realtime";
  if (clock !== "realtime" && clock !== "manual") throw new UsageError("--clock must be realtime or manual");
  const catalog = last(args, "catalog") ?? "default";
  if (catalog !== "default" && catalog !== "large") throw new UsageError("--catalog must be default or large");
  const stateFile = last(args, "state");
  const vrf = last(args, "vrf") ?? "auto";
  if (vrf !== "auto" && vrf !== "manual") throw new UsageError("--vrf must be auto or manual");
  const noChain = has(args, "no-chain");
  const rpcUrl = last(args, "rpc-url");
  if (rpcUrl && noChain) throw new UsageError("--rpc-url and --no-chain contradict each other");
  const rpcPort = intFlag(args, "rpc-port", 8545) ?? 8545;
  const progress = json ? () => {} : (step: string) => process.stderr.write(step === "ready" ? "  chain: ready\n" : `  chain: ${step}…\n`);

  if (catalog === "large" && !json) process.stderr.write("  catalog: building the large catalog (~45,000 cards)…\n");
  let emu: Awaited<ReturnType<typeof createEmulator>>;
  try {
    emu = await createEmulator({
      port,
      host,
      allowedHosts,
      // Only an explicit --seed / --catalog is passed with --state: the file's own rule, and a different one is refused.
      seed: stateFile && !has(args, "seed") ? undefined : seed,
      clock,
      catalog: stateFile && !has(args, "catalog") ? undefined : catalog,
      stateFile,
      strictWebhookUrls: has(args, "strict-webhook-urls"),
      ipRateLimitPerMin: intFlag(args, "ip-rate-limit"),
      chain: noChain ? false : { rpcPort: rpcUrl ? undefined : rpcPort, rpcUrl, vrf, onProgress: progress },
    });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (host && (e.code === "EADDRNOTAVAIL" || e.code === "ENOTFOUND" || e.code === "EAI_AGAIN"))
      throw new UsageError(`--host ${host}: not an address of this machine (${e.code}); try 127.0.0.1 or 0.0.0.0`);
    if (err instanceof StateFileError) throw new UsageError(`--state ${err.file}: ${err.reason}. ${err.remedy}`);
    if (e.code === "EADDRINUSE")
      throw new UsageError(`a port is in use (API ${port}, chain ${rpcPort}): stop the other process or pass --port / --rpc-port (0 picks a free port)`);
    // A state file that cannot be loaded says why in one line (e.g. it holds an in-process chain and --rpc-url attaches).
    if (err instanceof JournalError) throw new UsageError(`--state ${stateFile}: ${e.message}`);
    if (rpcUrl) throw new UsageError(`could not attach to ${rpcUrl}: ${e.message}. Is the node running (npx hardhat node --hostname 127.0.0.1)?`);
    throw err;
  }
  const readyMs = Math.round(performance.now() - started);
  if (host && classifyHost(host).class !== "loopback")
    process.stderr.write(`emulator: listening on ${host}: the control plane (keys, state, reset) is reachable from the network\n`);
  // Ctrl-C is handled from before the first line is printed: a script that reads the ready line and
  // stops the emulator at once must get a clean exit, never the default signal death.
  const stopped = new Promise<void>((resolve) => {
    let stopping = false;
    const stop = async () => {
      if (stopping) return;
      stopping = true;
      // Never hang on shutdown: whatever is still open after 5 s is cut off by the exit.
      const slow = new Promise<"slow">((r) => setTimeout(() => r("slow"), 5000).unref());
      if ((await Promise.race([emu.close(), slow])) === "slow") process.stderr.write("emulator: some connections did not close in 5 s; exiting anyway\n");
      if (!json) process.stderr.write(stateFile ? `emulator stopped; state saved in ${stateFile}\n` : "emulator stopped\n");
      resolve();
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  const keys = emu.keys;
  if (json) {
    const line = { url: emu.url, rpcUrl: emu.rpcUrl, keys: keys.map(({ key, kind, scopes, label }) => ({ key, kind, scopes, label })) };
    process.stdout.write(JSON.stringify(line) + "\n");
  } else {
    const chainNote = noChain ? "disabled (--no-chain)" : "in-process only";
    const chainInfo = emu.chain ? { chainId: emu.chain.chainId, vrf, accounts: emu.chain.endUsers.length } : null;
    const tty = process.stdout.isTTY === true;
    process.stdout.write(banner({ url: emu.url, rpcUrl: emu.rpcUrl, chainNote, chain: chainInfo, seed: emu.services.options.seed, clock, keys, readyMs }, tty));
    // One line per API call, from the dashboard's journal; EMULATOR_REQUEST_LOG=1 asks for it without a TTY (tests, `| tee`).
    if ((tty || process.env.EMULATOR_REQUEST_LOG === "1") && !has(args, "quiet"))
      journalOf(emu.services).subscribe((e) => process.stdout.write(requestLine(e, tty)), { bodies: false });
  }

  await stopped;
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UsageError) {
      process.stderr.write(`emulator: ${err.message}\nRun "npx emulator --help" for usage.\n`);
      process.exit(2);
    }
    process.stderr.write(`emulator: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
