import { all, has, intFlag, last, parseOrHelp, UsageError, type CommandSpec } from "../harness/cli-args.ts";
import { checkWritable, writeOutput } from "../harness/output-file.ts";
import { OverlayError } from "../emulator/index.ts";
import { startShadow } from "./proxy.ts";
import { toHtml, toMarkdown } from "./render.ts";
import type { DriftReport } from "./report.ts";

// `npx emulator fixtures import DIR` is shadow's too: it reads what --record wrote.
export { FIXTURES_COMMAND, runFixturesCli } from "./fixtures-cli.ts";

// `npx emulator shadow`: the proxy until Ctrl-C / SIGTERM, --requests N or --duration S, then the
// drift report, and an exit status for CI (1 when the upstream differed, 0 when it did not).

export const SHADOW_COMMAND: CommandSpec = {
  usage: "  npx emulator shadow --upstream URL --upstream-key KEY [options]",
  about: `A proxy to point your app (or the SDK's baseUrl) at: every request goes to the upstream (the sandbox),
whose answer your app receives; reads (GET) also go to an emulator started in-process, and the two answers
are compared by the contract. Writes are sent once, to the upstream, and its answer is checked against the
contract (with --mirror-writes and --emulator-key, to the emulator too, and the two answers compared). On Ctrl-C, SIGTERM, --requests or --duration it writes the drift report and exits 1 when any
difference was found (docs/shadow.md).`,
  options: [
    {
      name: "upstream",
      type: "string",
      value: "URL",
      describe: "the service to shadow (its base URL; requests keep their path under it)",
    },
    {
      name: "upstream-key",
      type: "string",
      value: "KEY",
      describe: "the upstream's API key, sent as X-API-Key on every upstream request",
    },
    {
      name: "port",
      type: "string",
      value: "N",
      describe: "the proxy's port on 127.0.0.1 (default 4020; 0 = any free port)",
    },
    {
      name: "allowed-host",
      type: "string",
      value: "NAME",
      multiple: true,
      describe:
        "also answer a Host header of NAME (.NAME: and its subdomains) on the proxy and the dashboard;\nloopback names and IP addresses always are, pages of other sites never (DNS-rebinding guard)",
    },
    {
      name: "dashboard-port",
      type: "string",
      value: "N",
      describe:
        "the emulator's port, for its dashboard (/_emulator/ui: the drift report live under Reports)\n" +
        "(default: the proxy's port + 1; any free port with --port 0)",
    },
    {
      name: "emulator-key",
      type: "string",
      value: "KEY",
      describe: "the key the emulator is called with: a fixture key's name or a key (default demo)",
    },
    {
      name: "mirror-writes",
      type: "boolean",
      describe: "send writes to the emulator too (needs --emulator-key) and compare the two answers as reads are",
    },
    {
      name: "catalog-overlay",
      type: "string",
      value: "FILE",
      describe:
        "lay this catalog overlay (npx emulator fixtures import) over the emulator's catalog, so\nrecorded records are compared instead of counted unknown",
    },
    { name: "seed", type: "string", value: "N", describe: "the emulator's fixture seed (default 1)" },
    {
      name: "no-chain",
      type: "boolean",
      describe: "run the emulator without its local chain (chain reads answer 503 there)",
    },
    {
      name: "report",
      type: "string",
      value: "FILE",
      multiple: true,
      describe: "write the drift report to FILE: .json, .md or .html (default: Markdown on stdout)",
    },
    {
      name: "record",
      type: "string",
      value: "DIR",
      describe:
        "keep the upstream's successful read answers, masked, one file per request\n(npx emulator --replay DIR serves them)",
    },
    { name: "requests", type: "string", value: "N", describe: "stop after N requests" },
    { name: "duration", type: "string", value: "S", describe: "stop after S seconds" },
  ],
};

const RENDER: Record<string, (r: DriftReport) => string> = {
  json: (r) => JSON.stringify(r, null, 2) + "\n",
  md: toMarkdown,
  html: toHtml,
};

export async function runShadowCli(argv: readonly string[]): Promise<number> {
  const args = parseOrHelp(SHADOW_COMMAND, argv);
  if (!args) return 0;
  if (args.positionals.length) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
  const upstream = last(args, "upstream");
  const upstreamKey = last(args, "upstream-key");
  if (!upstream || !upstreamKey) throw new UsageError("shadow needs --upstream URL and --upstream-key KEY");
  if (!URL.canParse(upstream) || !/^https?:$/.test(new URL(upstream).protocol))
    throw new UsageError(`--upstream must be an http(s) URL (got "${upstream}")`);
  const reports = all(args, "report").map((file) => {
    const kind = /\.(json|md|html)$/.exec(file)?.[1];
    if (!kind) throw new UsageError(`--report ${file}: the name must end in .json, .md or .html`);
    checkWritable("--report", file);
    return { file, render: RENDER[kind]! };
  });
  const mirrorWrites = has(args, "mirror-writes");
  if (mirrorWrites && !last(args, "emulator-key"))
    throw new UsageError(
      "--mirror-writes needs --emulator-key NAME|KEY: the key the writes are made with on the emulator",
    );
  const requests = intFlag(args, "requests");
  const duration = intFlag(args, "duration");
  const log = (line: string) => process.stderr.write(`emulator shadow: ${line}\n`);
  const port = intFlag(args, "port", 4020) ?? 4020;

  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const noChain = has(args, "no-chain");
  if (!noChain) log("starting the emulator and its local chain…");
  const dashboardPort = intFlag(args, "dashboard-port", port === 0 ? 0 : port + 1);
  const shadow = await startShadow({
    upstream,
    upstreamKey,
    port,
    dashboardPort,
    emulatorKey: last(args, "emulator-key"),
    mirrorWrites,
    record: last(args, "record"),
    allowedHosts: all(args, "allowed-host"),
    emulator: {
      seed: intFlag(args, "seed", 1),
      chain: !noChain,
      catalogOverlay: last(args, "catalog-overlay"),
      allowedHosts: all(args, "allowed-host"),
    },
    onSettled: (n) => requests !== undefined && n >= requests && stop(),
  }).catch((err: unknown) => {
    if (err instanceof OverlayError) throw new UsageError(`--catalog-overlay: ${err.message}`);
    const taken = err as NodeJS.ErrnoException & { port?: number };
    if (taken.code === "EADDRINUSE") {
      const flag = taken.port === dashboardPort ? "--dashboard-port" : "--port";
      const hint = `stop the other process or pass ${flag} 0 (any free port)`;
      throw new UsageError(`${flag} ${taken.port}: the port is in use; ${hint}`);
    }
    throw err;
  });
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  const timer = duration !== undefined ? setTimeout(stop, duration * 1000) : null;
  log(`listening on ${shadow.url}, shadowing ${new URL(upstream).origin}; point your app's base URL here`);
  log(`the drift report, live: ${shadow.emulator.url}/_emulator/ui (the dashboard, Reports tab)`);
  if (requests === 0) stop();
  await stopped;
  if (timer) clearTimeout(timer);
  process.off("SIGINT", stop);
  process.off("SIGTERM", stop);
  await shadow.close();

  const report = shadow.log.report();
  for (const r of reports) writeOutput("--report", r.file, r.render(report));
  if (!reports.length) process.stdout.write(toMarkdown(report));
  const t = report.totals;
  log(`${t.calls} calls, ${t.compared} compared, ${t.differing} differing, ${t.differences} distinct difference(s)`);
  return t.differences > 0 ? 1 : 0;
}
