import { all, has, intFlag, last, parseOrHelp, UsageError, type CommandSpec } from "../../harness/cli-args.ts";
import { checkWritable, writeOutput } from "../../harness/output-file.ts";
import { progressLine, summaryTable } from "../reporters/console.ts";
import { junit, json, markdown } from "../reporters/files.ts";
import { html } from "../reporters/html.ts";
import { passed, type SuiteResult } from "../runner.ts";
import { RECEIVER_CASES } from "./cases.ts";
import { checkReceiver, DEFAULT_TIMEOUT_MS } from "./run.ts";

export const RECEIVER_CHECK_COMMAND: CommandSpec = {
  usage: "  npx emulator receiver-check --url URL --secret SECRET [--probe URL] [--report KIND=FILE]",
  about:
    "Certifies your webhook receiver: sends it correctly signed events of every type and hostile deliveries\n" +
    "(forged, stale, replayed, parallel duplicates, out of order, unknown type, huge body) and checks its answers\n" +
    '(docs/webhooks.md "Certify your receiver"). Exit code 0 when every case passes.',
  options: [
    {
      name: "url",
      type: "string",
      value: "URL",
      describe: "the receiver's endpoint, as registered with POST /api/v1/webhooks",
    },
    { name: "secret", type: "string", value: "SECRET", describe: "the signing secret the receiver verifies with" },
    {
      name: "probe",
      type: "string",
      value: "URL",
      describe:
        'optional: GET answers {"applied": [{"id", "event"}, …]}, each event the receiver\napplied; then every case also checks each event was applied exactly once',
    },
    {
      name: "timeout-ms",
      type: "string",
      value: "N",
      describe: `the time the receiver has to answer (default ${DEFAULT_TIMEOUT_MS}, the service's)`,
    },
    {
      name: "case",
      type: "string",
      multiple: true,
      value: "ID",
      describe: "run only this case (e.g. signature.missing)",
    },
    { name: "list", type: "boolean", describe: "list the cases and exit" },
    {
      name: "report",
      type: "string",
      multiple: true,
      value: "KIND=FILE",
      describe: "junit=FILE, json=FILE, md=FILE, html=FILE",
    },
  ],
};

const REPORTERS: Record<string, (s: SuiteResult) => string> = { junit, json, md: markdown, html };

export async function runReceiverCheckCli(argv: readonly string[]): Promise<number> {
  const args = parseOrHelp(RECEIVER_CHECK_COMMAND, argv, { positionals: false });
  if (!args) return 0;
  if (has(args, "list")) {
    process.stdout.write(RECEIVER_CASES.map((c) => `${c.id.padEnd(42)} ${c.title}\n`).join(""));
    return 0;
  }
  const url = httpUrl("--url", last(args, "url"));
  const secret = last(args, "secret");
  if (!url || !secret) throw new UsageError("--url and --secret are required");
  const probe = httpUrl("--probe", last(args, "probe"));
  const timeoutMs = intFlag(args, "timeout-ms", DEFAULT_TIMEOUT_MS) ?? DEFAULT_TIMEOUT_MS;
  if (timeoutMs < 1) throw new UsageError("--timeout-ms must be at least 1");
  const only = all(args, "case");
  for (const id of only)
    if (!RECEIVER_CASES.some((c) => c.id === id))
      throw new UsageError(`unknown case "${id}" (npx emulator receiver-check --list)`);
  const reports = all(args, "report").map((spec) => {
    const [kind, file] = spec.split("=");
    if (!REPORTERS[kind] || !file)
      throw new UsageError(`--report must be junit=FILE, json=FILE, md=FILE or html=FILE (got "${spec}")`);
    checkWritable("--report", file);
    return { kind, file };
  });
  const suite = await checkReceiver({
    url,
    secret,
    probe,
    timeoutMs,
    only,
    onResult: (r, i, n) => process.stderr.write(progressLine(r, i, n) + "\n"),
  });
  process.stdout.write(summaryTable(suite));
  if (!probe)
    process.stdout.write("\nNo --probe: answers were checked, not whether each event was applied exactly once.\n");
  for (const { kind, file } of reports) {
    writeOutput("--report", file, REPORTERS[kind](suite));
    process.stderr.write(`wrote ${kind} report to ${file}\n`);
  }
  return passed(suite) ? 0 : 1;
}

function httpUrl(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new UsageError(`${flag} ${value}: not a URL`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new UsageError(`${flag} must be an http or https URL`);
  return value;
}
