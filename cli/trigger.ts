import { asInvoked, closest, has, last, parseOrHelp, UsageError, type CommandSpec } from "../harness/cli-args.ts";
import { PARTNER_EVENT_TYPES, WAREHOUSE_EVENT_TYPES, EVENT_TYPES } from "../emulator/events/types.ts";
import { BodyTooLarge } from "../contract/index.ts";
import { HttpClient, type HttpResult } from "../harness/http.ts";

// `npx emulator trigger <event-type>` (as `stripe trigger`): emits a catalogue event on a running
// emulator through its control plane (POST /_emulator/events) and prints where it was delivered.

const wrap = (types: readonly string[]) => types.map((t) => `    ${t}`).join("\n");

export const TRIGGER: CommandSpec = {
  usage: "  npx emulator trigger EVENT_TYPE [--key NAME] [--url URL] [--data JSON]",
  about: `Emits EVENT_TYPE with a realistic fixture payload on a running emulator and delivers it, signed, to
the matching webhooks (every account with a webhook, or the one of --key). Event types:
  partner
${wrap(PARTNER_EVENT_TYPES)}
  warehouse
${wrap(WAREHOUSE_EVENT_TYPES)}`,
  options: [
    {
      name: "key",
      type: "string",
      value: "NAME",
      describe: "the account to emit for: a fixture key's name (demo, revenue-share, tenant, …) or a key's value",
    },
    {
      name: "url",
      type: "string",
      value: "URL",
      describe: "the running emulator (default EMULATOR_URL, else http://127.0.0.1:4010)",
    },
    {
      name: "data",
      type: "string",
      value: "JSON",
      describe: "fields merged over the fixture payload, a JSON object (e.g. '{\"purchase_id\":7}')",
    },
    { name: "json", type: "boolean", describe: "print the control plane's answer as JSON" },
  ],
};

interface Delivery {
  id: number;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  url: string | null;
}

interface Answer {
  success: boolean;
  message?: string;
  data?: { event: { id: string }; account_ids: string[]; deliveries: Delivery[] };
}

export async function runTrigger(argv: readonly string[]): Promise<number> {
  const args = parseOrHelp(TRIGGER, argv);
  if (!args) return 0;
  const [type, ...extra] = args.positionals;
  if (!type) throw new UsageError("trigger needs an event type (npx emulator trigger --help lists them)");
  if (extra.length) throw new UsageError(`trigger takes one event type, got ${args.positionals.join(" ")}`);
  if (!(EVENT_TYPES as readonly string[]).includes(type)) {
    const guess = closest(type, EVENT_TYPES);
    throw new UsageError(
      `unknown event type "${type}"${guess ? `; did you mean "${guess}"?` : ""} (npx emulator trigger --help lists them)`,
    );
  }
  const body: Record<string, unknown> = { type };
  const key = last(args, "key");
  if (key) body.key = key;
  const data = last(args, "data");
  if (data !== undefined) body.data = parseData(data);
  const base = (last(args, "url") ?? process.env.EMULATOR_URL ?? "http://127.0.0.1:4010").replace(/\/+$/, "");

  let res: HttpResult;
  try {
    // --url may point at anything: the client reads its answer up to a bound
    res = await new HttpClient(base).post("/_emulator/events", { body });
  } catch (err) {
    const why =
      err instanceof BodyTooLarge
        ? err.message
        : `no emulator answers at ${base} (${(err as Error).message}); start one with npx emulator, or pass --url`;
    process.stderr.write(asInvoked(`emulator trigger: ${why}\n`));
    return 1;
  }
  const answer = (res.body ?? { success: false, message: `HTTP ${res.status}, not JSON` }) as Answer;
  if (has(args, "json")) process.stdout.write(JSON.stringify(answer) + "\n");
  if (res.status >= 300 || !answer.data) {
    process.stderr.write(`emulator trigger: ${res.status} ${answer.message ?? "failed"}\n`);
    return 1;
  }
  if (!has(args, "json")) process.stdout.write(summary(answer.data));
  return 0;
}

function parseData(text: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new UsageError(`--data must be a JSON object, got ${text}`);
  }
  if (!v || typeof v !== "object" || Array.isArray(v))
    throw new UsageError(`--data must be a JSON object, got ${text}`);
  return v as Record<string, unknown>;
}

function summary(d: NonNullable<Answer["data"]>): string {
  const lines = [
    `emitted ${d.event.id} for ${d.account_ids.length ? d.account_ids.join(", ") : "no account (no webhook is registered)"}`,
  ];
  if (!d.deliveries.length) lines.push("  no matching webhook: nothing delivered");
  for (const x of d.deliveries)
    lines.push(
      `  delivery ${x.id} → ${x.url ?? "?"}: ${x.status} after ${x.attempts} attempt(s)${x.last_status_code !== null ? `, HTTP ${x.last_status_code}` : ""}${x.last_error && x.status !== "DELIVERED" ? ` (${x.last_error})` : ""}`,
    );
  return lines.join("\n") + "\n";
}
