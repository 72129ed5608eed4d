import { readFileSync } from "node:fs";
import { all, has, intFlag, last, parseOrHelp, UsageError, type CommandSpec } from "../harness/cli-args.ts";
import { checkWritable, writeOutput } from "../harness/output-file.ts";
import { ALL_CHECKS } from "./registry.ts";
import { runSuite, passed, type SuiteResult } from "./runner.ts";
import { MODES, needsIn, PROFILES, type Mode, type Profile } from "./types.ts";
import { progressLine, summaryTable } from "./reporters/console.ts";
import { junit, json, markdown } from "./reporters/files.ts";
import {
  certificationBundle,
  certified,
  checksDigest,
  suiteVersion,
  verifyBundle,
  type CertificationBundle,
  type LoggedRequest,
} from "./certify.ts";
import { html } from "./reporters/html.ts";
import { parseShard } from "./shard.ts";
import { mergeShards, MergeError } from "./merge.ts";

/** `npx emulator receiver-check`: the partner's webhook receiver, certified (conformance/receiver/). */
export { runReceiverCheckCli } from "./receiver/cli.ts";

export const CONFORMANCE_COMMAND: CommandSpec = {
  usage: "  npx emulator conformance [options]",
  about: "Runs the conformance suite against a base URL, or against an in-process emulator when --base-url is omitted.",
  options: [
    {
      name: "base-url",
      type: "string",
      value: "URL",
      describe: "target (e.g. the sandbox); omit to start an emulator in-process",
    },
    { name: "partner-key", type: "string", value: "K", describe: "a mystery-partner key with read:catalog" },
    { name: "tenant-key", type: "string", value: "K", describe: "a warehouse tenant key" },
    {
      name: "revenue-share-key",
      aliases: ["tier-key"],
      type: "string",
      value: "K",
      describe:
        "a partner key of the revenue-share (TIER) billing model:\nthe sell-back and revenue-share checks use it",
    },
    {
      name: "read-only-tenant-key",
      type: "string",
      value: "K",
      describe: "a tenant key with read:inventory only: the write-scope check uses it",
    },
    {
      name: "legacy-key",
      type: "string",
      value: "K",
      describe: "a legacy unmetered catalog key: the metering check uses it",
    },
    { name: "profile", type: "string", multiple: true, value: "P", describe: `${PROFILES.join(", ")} (default: all)` },
    {
      name: "mode",
      type: "string",
      value: "M",
      describe:
        "read-only | sandbox | emulator (default: emulator for the in-process emulator\nor a target answering /_emulator, else read-only)",
    },
    {
      name: "max-credits",
      type: "string",
      value: "N",
      describe:
        "credit budget: a check whose declared credits exceed what is left is not applicable\n(default 50 in read-only mode, else no limit; the summary shows what was spent)",
    },
    {
      name: "max-wait",
      type: "string",
      value: "SECONDS",
      describe:
        "the most real time one check may wait for a reveal, a delivery or a retry\noutside emulator mode (default 180: the webhook retry schedule, +30 s and +2 min)",
    },
    {
      name: "report",
      type: "string",
      multiple: true,
      value: "KIND=FILE",
      describe: "junit=FILE, json=FILE, md=FILE, html=FILE",
    },
    {
      name: "expected-failures",
      type: "string",
      value: "FILE",
      describe: "check ids (one per line) whose failure is not scored",
    },
    {
      name: "wallet-key",
      type: "string",
      value: "HEX",
      describe:
        "a funded test wallet's private key on the target's chain: commerce checks\n(purchase → reveal, its webhook, redemption quote) buy with it; needs --rpc-url\nand --max-spend-usdc",
    },
    {
      name: "rpc-url",
      type: "string",
      value: "URL",
      describe: "JSON-RPC of the target's chain (the sandbox's), for --wallet-key",
    },
    {
      name: "max-spend-usdc",
      type: "string",
      value: "N",
      describe: "the most test USDC the commerce checks may spend in all (required with --wallet-key)",
    },
    {
      name: "webhook-url",
      type: "string",
      value: "URL",
      describe:
        "a public URL (your tunnel) that forwards to --webhook-port on this machine: delivery\nchecks register it and verify what arrives; without it they read the delivery log",
    },
    {
      name: "webhook-port",
      type: "string",
      value: "N",
      describe: "the local port the suite's webhook receiver listens on (with --webhook-url)",
    },
    {
      name: "keep-state",
      type: "boolean",
      describe:
        "emulator mode: keep what the run changed on the target (default: the suite snapshots\nan emulator target first and restores it at the end)",
    },
    {
      name: "shard",
      type: "string",
      value: "I/N",
      describe:
        "run the I-th of N deterministic shares of the checks (a CI matrix); join the shards'\n--report json=FILE files with `npx emulator conformance merge`",
    },
    {
      name: "certify",
      type: "boolean",
      describe:
        "certification run: no check may be skipped (not applicable) in the chosen\nprofiles, no expected failures; writes a certification bundle",
    },
    {
      name: "bundle",
      type: "string",
      value: "FILE",
      describe: "where --certify writes its bundle (default certification.json)",
    },
    {
      name: "checks-digest",
      type: "boolean",
      describe: "print the suite version and the digest of its checks' source, and exit",
    },
    {
      name: "verify",
      type: "string",
      value: "FILE",
      describe:
        "verify a certification bundle against this suite (digest, verdict, checks digest)\nand exit 0 when it holds",
    },
    {
      name: "request-log",
      type: "string",
      value: "FILE",
      describe:
        "with --verify: the service's request log, one JSON object per line\n{request_id, method, path, status}; every request of the bundle must be in it",
    },
  ],
};

const REPORTERS: Record<string, (s: SuiteResult) => string> = { junit, json, md: markdown, html };

/** An emulator the CLI starts when no --base-url is given (the entry point provides it: the suite never imports the emulator). */
export interface LocalTarget {
  url: string;
  key(name: string): string;
  close(): Promise<void>;
}

export async function runConformanceCli(
  argv: readonly string[],
  startLocal?: () => Promise<LocalTarget>,
): Promise<number> {
  if (argv[0] === "merge") return runMergeCli(argv.slice(1));
  const args = parseOrHelp(CONFORMANCE_COMMAND, argv, { positionals: false });
  if (!args) return 0;
  if (has(args, "checks-digest")) {
    process.stdout.write(`${suiteVersion()} ${checksDigest().sha256}\n`);
    return 0;
  }
  const verifyFile = last(args, "verify");
  if (verifyFile) return verifyCli(verifyFile, last(args, "request-log"));
  const profiles = (all(args, "profile").length ? all(args, "profile") : [...PROFILES]) as Profile[];
  for (const p of profiles)
    if (!PROFILES.includes(p)) throw new UsageError(`unknown profile "${p}" (have ${PROFILES.join(", ")})`);
  const reports = reportSpecs(all(args, "report"));
  const shardArg = last(args, "shard");
  const shard = shardArg === undefined ? undefined : parseShard(shardArg);
  if (typeof shard === "string") throw new UsageError(shard);
  if (shard && !reports.some((r) => r.kind === "json"))
    throw new UsageError("--shard needs --report json=FILE: the merge reads the shards' JSON reports");
  const modeArg = last(args, "mode");
  if (modeArg && !MODES.includes(modeArg as Mode)) throw new UsageError(`--mode must be one of ${MODES.join(", ")}`);
  const maxCreditsRaw = last(args, "max-credits");
  const maxCreditsArg = maxCreditsRaw === undefined ? undefined : Number(maxCreditsRaw);
  if (maxCreditsArg !== undefined && (!Number.isFinite(maxCreditsArg) || maxCreditsArg < 0))
    throw new UsageError("--max-credits must be a non-negative number");
  const maxWaitRaw = last(args, "max-wait");
  const maxWaitS = maxWaitRaw === undefined ? undefined : Number(maxWaitRaw);
  if (maxWaitS !== undefined && (!Number.isFinite(maxWaitS) || maxWaitS < 0))
    throw new UsageError("--max-wait must be a non-negative number of seconds");
  const certify = has(args, "certify");
  const bundleFile = last(args, "bundle") ?? "certification.json";
  if (certify) checkWritable("--bundle", bundleFile);
  const expectedFile = last(args, "expected-failures");
  if (certify && expectedFile) throw new UsageError("--certify does not allow --expected-failures");
  const expected = expectedFile ? readExpected(expectedFile) : undefined;

  const walletKey = last(args, "wallet-key");
  const rpcUrl = last(args, "rpc-url");
  const maxSpendRaw = last(args, "max-spend-usdc");
  if (walletKey && (!rpcUrl || maxSpendRaw === undefined))
    throw new UsageError("--wallet-key spends real test funds: it needs --rpc-url and --max-spend-usdc");
  if (!walletKey && (rpcUrl || maxSpendRaw !== undefined))
    throw new UsageError("--rpc-url and --max-spend-usdc go with --wallet-key");
  if (walletKey && !/^0x[0-9a-fA-F]{64}$/.test(walletKey))
    throw new UsageError("--wallet-key must be a 32-byte hex private key (0x…)");
  const maxSpend = maxSpendRaw === undefined ? undefined : Number(maxSpendRaw);
  if (maxSpend !== undefined && (!Number.isFinite(maxSpend) || maxSpend < 0))
    throw new UsageError("--max-spend-usdc must be a non-negative number");
  const wallet =
    walletKey && rpcUrl && maxSpend !== undefined
      ? { privateKey: walletKey as `0x${string}`, rpcUrl, maxSpendUsdc: maxSpend }
      : undefined;

  const webhookUrl = last(args, "webhook-url");
  const webhookPort = intFlag(args, "webhook-port");
  if ((webhookUrl === undefined) !== (webhookPort === undefined))
    throw new UsageError("--webhook-url and --webhook-port go together (the URL must forward to the port)");
  const receiver =
    webhookUrl !== undefined && webhookPort !== undefined
      ? { host: "0.0.0.0", port: webhookPort, publicUrl: webhookUrl }
      : undefined;

  let baseUrl = last(args, "base-url");
  let partnerKey = last(args, "partner-key");
  let tenantKey = last(args, "tenant-key");
  const revenueShareKey = last(args, "revenue-share-key");
  const readOnlyTenantKey = last(args, "read-only-tenant-key");
  const legacyKey = last(args, "legacy-key");
  let stop: (() => Promise<void>) | null = null;
  let mode = modeArg as Mode | undefined;
  if (!baseUrl) {
    if (!startLocal) throw new UsageError("--base-url is required here (no emulator to start in-process)");
    process.stderr.write("starting an in-process emulator…\n");
    const emu = await startLocal();
    baseUrl = emu.url;
    partnerKey ??= emu.key("demo");
    tenantKey ??= emu.key("tenant");
    stop = () => emu.close();
    mode ??= "emulator";
  }
  if (!mode) {
    const { HttpClient, ControlClient } = await import("../harness/http.ts");
    mode = (await ControlClient.detect(new HttpClient(baseUrl))) ? "emulator" : "read-only";
  }

  if (wallet) {
    // Real test funds: say up front what may be spent, before anything is.
    const { privateKeyToAccount } = await import("viem/accounts");
    const spenders = ALL_CHECKS.filter((c) => profiles.includes(c.profile) && needsIn(c, false).includes("wallet"));
    const upTo = spenders.reduce((n, c) => n + (c.spendUsdc ?? 0), 0);
    process.stderr.write(
      `commerce budget: ${spenders.length} checks may spend up to ${upTo} test USDC from ${privateKeyToAccount(wallet.privateKey).address} on ${wallet.rpcUrl}; ` +
        `--max-spend-usdc ${wallet.maxSpendUsdc} (checks beyond it are not applicable)\n`,
    );
  }
  const suite = await runSuite(ALL_CHECKS, {
    wallet,
    receiver,
    baseUrl,
    partnerKey,
    tenantKey,
    ...(revenueShareKey ? { revenueShareKey } : {}),
    ...(readOnlyTenantKey ? { readOnlyTenantKey } : {}),
    ...(legacyKey ? { legacyKey } : {}),
    profiles,
    mode,
    // Read-only runs go against production keys: a small budget unless told otherwise.
    ...(maxCreditsArg !== undefined ? { maxCredits: maxCreditsArg } : mode === "read-only" ? { maxCredits: 50 } : {}),
    ...(maxWaitS !== undefined ? { maxWaitMs: maxWaitS * 1000 } : {}),
    expectedFailures: expected,
    ...(has(args, "keep-state") ? { keepState: true } : {}),
    ...(shard ? { shard } : {}),
    onResult: (r, i, n) => process.stderr.write(progressLine(r, i, n) + "\n"),
  });
  await stop?.();
  // A shard is judged as certification too; its bundle comes from `conformance merge --certify`.
  return finishRun(suite, reports, certify ? { bundleFile: shard ? null : bundleFile } : null);
}

/** The summary, the reports and (with a bundle file) the certification verdict and bundle: one run's or a merge's. */
function finishRun(suite: SuiteResult, reports: ReportSpec[], certify: { bundleFile: string | null } | null): number {
  process.stdout.write(summaryTable(suite));
  for (const { kind, file } of reports) {
    writeOutput("--report", file, REPORTERS[kind](suite));
    process.stderr.write(`wrote ${kind} report to ${file}\n`);
  }
  if (certify === null) return passed(suite) ? 0 : 1;
  const skipped = suite.results.filter((r) => r.outcome === "not_applicable");
  const ok = certified(suite);
  if (skipped.length)
    process.stderr.write(
      `certification needs every check of the chosen profiles to run; ${skipped.length} did not:\n${skipped.map((r) => `  ${r.id}: ${r.message}`).join("\n")}\n`,
    );
  const { bundleFile } = certify;
  if (bundleFile === null) {
    process.stderr.write(
      `certification shard ${ok ? "PASSED" : "NOT PASSED"}; conformance merge --certify writes the bundle\n`,
    );
    return ok ? 0 : 1;
  }
  const bundle = certificationBundle(suite, suite.key_kinds ?? [], ok);
  writeOutput("--bundle", bundleFile, JSON.stringify(bundle, null, 2) + "\n");
  process.stderr.write(`wrote certification bundle to ${bundleFile} (${ok ? "PASSED" : "NOT PASSED"})\n`);
  return ok ? 0 : 1;
}

interface ReportSpec {
  kind: string;
  file: string;
}

function reportSpecs(specs: readonly string[]): ReportSpec[] {
  return specs.map((spec) => {
    const [kind, file] = spec.split("=");
    if (!REPORTERS[kind] || !file)
      throw new UsageError(`--report must be junit=FILE, json=FILE, md=FILE or html=FILE (got "${spec}")`);
    checkWritable("--report", file);
    return { kind, file };
  });
}

export const MERGE_COMMAND: CommandSpec = {
  usage: "  npx emulator conformance merge FILE... [options]",
  about:
    "Joins the JSON reports of a run split with --shard i/n (one per shard) into the report, verdict and certification bundle one run would have given.",
  options: [
    {
      name: "report",
      type: "string",
      multiple: true,
      value: "KIND=FILE",
      describe: "junit=FILE, json=FILE, md=FILE, html=FILE",
    },
    {
      name: "certify",
      type: "boolean",
      describe: "judge the merged run as a certification run and write its bundle (as --certify does)",
    },
    {
      name: "bundle",
      type: "string",
      value: "FILE",
      describe: "where --certify writes the bundle (default certification.json)",
    },
  ],
};

/** `conformance merge FILE...`: the shards' JSON reports joined; exit 1 when the joined run did not pass, 2 on a bad set. */
async function runMergeCli(argv: readonly string[]): Promise<number> {
  const args = parseOrHelp(MERGE_COMMAND, argv);
  if (!args) return 0;
  if (args.positionals.length === 0)
    throw new UsageError("merge needs the shards' JSON reports (--report json=FILE of each)");
  const reports = reportSpecs(all(args, "report"));
  const bundleFile = last(args, "bundle") ?? "certification.json";
  const certify = has(args, "certify");
  if (certify) checkWritable("--bundle", bundleFile);
  const suites = args.positionals.map((file) => {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (err) {
      throw new UsageError(`${file}: ${(err as Error).message}`);
    }
    try {
      const parsed = JSON.parse(text) as SuiteResult;
      if (!parsed || typeof parsed !== "object" || !Array.isArray(parsed.results)) throw new Error();
      return parsed;
    } catch {
      throw new UsageError(`${file}: not a conformance JSON report (write one with --report json=FILE)`);
    }
  });
  let merged: SuiteResult;
  try {
    merged = mergeShards(suites);
  } catch (err) {
    if (err instanceof MergeError) throw new UsageError(err.message);
    throw err;
  }
  process.stderr.write(`merged ${suites.length} shards: ${merged.results.length} checks\n`);
  return finishRun(merged, reports, certify ? { bundleFile } : null);
}

function readExpected(file: string): Set<string> {
  try {
    return new Set(
      readFileSync(file, "utf8")
        .split(/\r?\n/)
        .map((l) => l.replace(/#.*/, "").trim())
        .filter(Boolean),
    );
  } catch (err) {
    throw new UsageError(`--expected-failures ${file}: ${(err as Error).message}`);
  }
}

/** `--verify FILE [--request-log FILE]`: what a service runs on a bundle a partner sends. */
async function verifyCli(file: string, logFile: string | undefined): Promise<number> {
  const read = (f: string, what: string) => {
    try {
      return readFileSync(f, "utf8");
    } catch (err) {
      throw new UsageError(`${what} ${f}: ${(err as Error).message}`);
    }
  };
  // A torn or foreign file is one line saying so, never a parser's stack trace.
  const json = (text: string): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  };
  const parsed = json(read(file, "--verify"));
  if (parsed === undefined) throw new UsageError(`--verify ${file}: not JSON (is it a certification bundle?)`);
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
    throw new UsageError(`--verify ${file}: not a certification bundle (expected a JSON object)`);
  const bundle = parsed as CertificationBundle;
  let log: Map<string, LoggedRequest> | null = null;
  if (logFile) {
    log = new Map();
    const lines = read(logFile, "--request-log").split(/\r?\n/);
    lines.forEach((line, i) => {
      if (!line.trim()) return;
      const e = json(line) as (LoggedRequest & { request_id: string }) | null | undefined;
      if (!e || typeof e !== "object" || Array.isArray(e))
        throw new UsageError(`--request-log ${logFile}: line ${i + 1} is not a JSON object`);
      log!.set(e.request_id, e);
    });
  }
  const v = await verifyBundle(bundle, {
    checksDigest: checksDigest().sha256,
    suiteVersion: suiteVersion(),
    ...(log ? { lookup: (id: string) => log.get(id) } : {}),
  });
  const requests = bundle.results?.reduce((n, r) => n + (r.requests?.length ?? 0), 0) ?? 0;
  if (v.ok)
    process.stdout.write(
      `bundle verified: ${bundle.target_url}, ${bundle.results.length} checks, ${requests} requests${log ? " (all in the request log)" : ""}, passed=${bundle.passed}\n`,
    );
  else process.stdout.write(`bundle NOT verified:\n${v.problems.map((p) => `  ${p}`).join("\n")}\n`);
  return v.ok ? 0 : 1;
}
