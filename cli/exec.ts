import { parseOrHelp, UsageError, envName, type CommandSpec } from "../harness/cli-args.ts";
import { ENV_NOTE, ENV_PREFIX, launch, START_OPTIONS, startConfig } from "./launch.ts";
import type { Emulator } from "../emulator/index.ts";
import { GRACE_MS, runGroup } from "./child-group.ts";
import { FIXTURE_KEYS } from "../fixtures/keys.ts";

// `npx emulator exec -- <command>` (as Firebase's emulators:exec): start the emulator on free ports,
// run the command with the emulator's URLs and keys in its environment, stop, and exit with the
// command's status. For CI: one step, nothing left running.

export const EXEC: CommandSpec = {
  usage: "  npx emulator exec [options] -- COMMAND [ARGS...]",
  about: `Starts the emulator (any free ports unless --port / --rpc-port are given), runs COMMAND with
EMULATOR_URL, EMULATOR_RPC_URL (empty with --no-chain) and one EMULATOR_KEY_<NAME> per fixture key
(EMULATOR_KEY_DEMO, EMULATOR_KEY_CATALOG_ONLY, …) in its environment, stops the emulator and exits with
COMMAND's status (127 when it is not found; 128+N when a signal N ended it). Ctrl-C and SIGTERM are passed
to COMMAND's whole process group; what is left of it ${GRACE_MS / 1000} s later is killed. A single
argument with spaces runs through the shell: exec "npm test && npm run e2e".

${ENV_NOTE}`,
  options: START_OPTIONS.filter((o) => o.name !== "quiet" && o.name !== "json"),
};

/** The variables the command gets: the URLs and one per fixture key. */
export function execEnv(emu: Emulator): Record<string, string> {
  const env: Record<string, string> = { EMULATOR_URL: emu.url, EMULATOR_RPC_URL: emu.rpcUrl ?? "" };
  for (const k of emu.keys) env[envName(`${ENV_PREFIX}KEY_`, k.name)] = k.key;
  // A fixture key's former name too (EMULATOR_KEY_TIER for revenue-share), so existing scripts keep working.
  for (const spec of FIXTURE_KEYS) if (spec.alias) env[envName(`${ENV_PREFIX}KEY_`, spec.alias)] = emu.key(spec.name);
  return env;
}

export async function runExec(argv: readonly string[]): Promise<number> {
  const cut = argv.indexOf("--");
  const args = parseOrHelp(EXEC, cut === -1 ? argv : argv.slice(0, cut));
  if (!args) return 0;
  const command = cut === -1 ? args.positionals : [...args.positionals, ...argv.slice(cut + 1)];
  if (!command.length) throw new UsageError("exec needs a command: npx emulator exec -- npm test");
  const config = startConfig(EXEC, args, { freePorts: true });
  const log = (line: string) => process.stderr.write(`emulator exec: ${line}\n`);
  const emu = await launch(config, config.json ? () => {} : (step) => step !== "ready" && log(`chain: ${step}…`));
  if (!config.json)
    log(`emulator at ${emu.url}${emu.rpcUrl ? `, chain at ${emu.rpcUrl}` : ""}; running ${command.join(" ")}`);
  try {
    return await run(command, { ...process.env, ...execEnv(emu) }, log);
  } finally {
    await emu.close();
  }
}

/** Runs the command to its end; its status, or 127 / 126 when it cannot start. */
async function run(command: string[], env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<number> {
  const [file, ...rest] = command as [string, ...string[]];
  const shell = command.length === 1 && /\s/.test(file);
  const exit = await runGroup(file, rest, { stdio: "inherit", env, shell });
  if ("status" in exit) return exit.status;
  const err = exit.error;
  if (err.code === "ENOENT") log(`command not found: ${file} (is it installed and on PATH?)`);
  else if (err.code === "EACCES") log(`cannot run ${file}: permission denied`);
  else log(`cannot run ${file}: ${err.message}`);
  return err.code === "EACCES" ? 126 : 127;
}
