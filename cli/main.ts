import { asInvoked, closest, has, last, parseOrHelp, UsageError, type ParsedArgs } from "../harness/cli-args.ts";
import { banner } from "./banner.ts";
import { classifyHost } from "../emulator/pipeline/address-policy.ts";
import { checkWritable, writeOutput } from "../harness/output-file.ts";
import { requestLine } from "./request-line.ts";
import { launch, startConfig } from "./launch.ts";
import { OPENAPI, START } from "./commands.ts";
import { runExec } from "./exec.ts";
import { runTrigger } from "./trigger.ts";
import { runInit, runWorld } from "./world.ts";
import { journalOf } from "../emulator/ui/journal.ts";

const COMMANDS = [
  "exec",
  "trigger",
  "conformance",
  "scenario",
  "shadow",
  "fixtures",
  "receiver-check",
  "openapi",
  "init",
  "world",
];

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "conformance") {
    const { runConformanceCli } = await import("../conformance/cli.ts");
    // The suite never imports the emulator: the entry point hands it one to start when no --base-url is given.
    return runConformanceCli(rest, async () => {
      const { createEmulator } = await import("../emulator/index.ts");
      return createEmulator({ seed: 1, clock: "manual", port: 0, chain: { rpcPort: 0 } });
    });
  }
  if (command === "shadow") {
    const { runShadowCli } = await import("../shadow/cli.ts");
    return runShadowCli(rest);
  }
  if (command === "fixtures") {
    const { runFixturesCli } = await import("../shadow/cli.ts");
    return runFixturesCli(rest);
  }
  if (command === "receiver-check") {
    const { runReceiverCheckCli } = await import("../conformance/cli.ts");
    return runReceiverCheckCli(rest);
  }
  if (command === "openapi") return openapiCommand(rest);
  if (command === "exec") return runExec(rest);
  if (command === "init") return runInit(rest);
  if (command === "world") return runWorld(rest);
  if (command === "trigger") return runTrigger(rest);
  if (command === "scenario") {
    const { runScenarioCli } = await import("../scenarios/cli.ts");
    return runScenarioCli(rest);
  }
  const args = parseOrHelp(START, argv);
  if (!args) return 0;
  if (args.positionals.length) {
    const guess = closest(args.positionals[0]!, COMMANDS);
    throw new UsageError(`unknown command "${args.positionals[0]}"${guess ? `; did you mean "${guess}"?` : ""}`);
  }
  return start(args);
}

async function openapiCommand(argv: readonly string[]): Promise<number> {
  const args = parseOrHelp(OPENAPI, argv);
  if (!args) return 0;
  const { apiDocument, controlDocument } = await import("../emulator/openapi/document.ts");
  const { apiAreas, controlRoutes } = await import("../emulator/app.ts");
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
  // Both from process start (performance.now()'s origin): what the banner reports includes module loading.
  const loadedMs = Math.round(performance.now());
  const c = startConfig(START, args);
  const { json, noChain, vrf, clock, stateFile } = c;
  const progress = json
    ? () => {}
    : (step: string) => process.stderr.write(step === "ready" ? "  chain: ready\n" : `  chain: ${step}…\n`);
  const emu = await launch(c, progress);
  const readyMs = Math.round(performance.now());
  if (c.host && classifyHost(c.host).class !== "loopback")
    process.stderr.write(
      `emulator: listening on ${c.host}: the control plane (keys, state, reset) is reachable from the network\n`,
    );
  // Ctrl-C is handled from before the first line is printed: a script that reads the ready line and
  // stops the emulator at once must get a clean exit, never the default signal death.
  const stopped = new Promise<void>((resolve) => {
    let stopping = false;
    const stop = async () => {
      if (stopping) return;
      stopping = true;
      // Never hang on shutdown: whatever is still open after 5 s is cut off by the exit.
      const slow = new Promise<"slow">((r) => setTimeout(() => r("slow"), 5000).unref());
      if ((await Promise.race([emu.close(), slow])) === "slow")
        process.stderr.write("emulator: some connections did not close in 5 s; exiting anyway\n");
      if (!json)
        process.stderr.write(stateFile ? `emulator stopped; state saved in ${stateFile}\n` : "emulator stopped\n");
      resolve();
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  const keys = emu.keys;
  if (json) {
    const line = {
      url: emu.url,
      rpcUrl: emu.rpcUrl,
      keys: keys.map(({ name, key, kind, scopes, label }) => ({ name, key, kind, scopes, label })),
    };
    process.stdout.write(JSON.stringify(line) + "\n");
  } else {
    const chainNote = noChain ? "disabled (--no-chain)" : "in-process only";
    const chainInfo = emu.chain ? { chainId: emu.chain.chainId, vrf, accounts: emu.chain.endUsers.length } : null;
    const tty = process.stdout.isTTY === true;
    process.stdout.write(
      banner(
        {
          url: emu.url,
          rpcUrl: emu.rpcUrl,
          chainNote,
          chain: chainInfo,
          seed: emu.services.options.seed,
          clock,
          keys,
          readyMs,
          loadedMs,
        },
        tty,
      ),
    );
    // One line per API call, from the dashboard's journal; EMULATOR_REQUEST_LOG=1 asks for it without a TTY (tests, `| tee`).
    if ((tty || process.env.EMULATOR_REQUEST_LOG === "1") && !c.quiet)
      journalOf(emu.services).subscribe((e) => process.stdout.write(requestLine(e, tty)), { bodies: false });
  }

  await stopped;
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UsageError) {
      process.stderr.write(asInvoked(`emulator: ${err.message}\nRun "npx emulator --help" for usage.\n`));
      process.exit(2);
    }
    process.stderr.write(`emulator: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
