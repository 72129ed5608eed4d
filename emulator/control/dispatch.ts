import type { Reply } from "../pipeline/route.ts";
import type { Services } from "../pipeline/services.ts";
import { parseInput, responseProblem } from "../pipeline/schema.ts";
import type { ControlHost, ControlSpec } from "./route.ts";

// Runs one control-plane route: the body read once, the input parsed by the
// route's schema (its 400s as the API's), the answer checked against the
// schema when responses are validated (tests).

export async function runControl(
  spec: ControlSpec,
  services: Services,
  host: ControlHost,
  params: Record<string, string>,
  url: URL,
  readBody: () => Promise<Record<string, unknown>>,
): Promise<Reply> {
  const body = spec.method === "GET" || spec.method === "DELETE" ? async () => ({}) : readBody;
  const input = await parseInput(spec.schema, params, url.searchParams, body);
  const reply = await spec.handle({ services, params, query: url.searchParams, input, host });
  if (services.options.validateResponses && !reply.raw) {
    const problem = responseProblem(spec.schema, reply.status ?? 200, reply.data);
    if (problem) throw new Error(`${spec.method} /_emulator${spec.path} answered outside its schema: ${problem}`);
  }
  return reply;
}
