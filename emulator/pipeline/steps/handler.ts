import { responseProblem } from "../schema.ts";
import { answerProblems } from "../../../contract/invariants/index.ts";
import type { Reply } from "../route.ts";
import type { PipelineContext, Step } from "./context.ts";

/**
 * The route's handler; with `validateResponses`, its answer is checked against the route's schema and the
 * contract's invariants (a 500 when outside them). A cached read's 200 is kept for its `ttl_ms`.
 */
export const handler: Step = {
  name: "handler",
  run: handle,
};

async function handle(p: PipelineContext): Promise<void> {
  const { spec, services } = p;
  const c = p.handlerContext!;
  const reply = await spec.handle(c);
  if (spec.schema && services.options.validateResponses) check(p, reply);
  p.reply =
    spec.cache && p.cacheEntry ? p.cache.put(p.cacheEntry, reply, spec.cache.ttl_ms, services.clock.now()) : reply;
}

function check(p: PipelineContext, reply: Reply): void {
  const { spec } = p;
  const c = p.handlerContext!;
  const problem = responseProblem(spec.schema!, reply.status ?? 200, reply.data, { top: reply.top, query: c.query });
  if (problem) throw new Error(`${spec.method} ${spec.path} answered outside its schema: ${problem}`);
  // The contract's invariants hold too: the same predicates the conformance suite applies to every answer.
  const broken = spec.operation
    ? answerProblems(
        spec.operation.id,
        { status: reply.status ?? 200, data: reply.data, ...(reply.top ? { top: reply.top } : {}), headers: {} },
        { method: spec.method, url: p.target.url, key: p.key?.key ?? "" },
      )
    : [];
  if (broken.length)
    throw new Error(
      `${spec.method} ${spec.path} broke ${broken.map((b) => `invariant ${b.invariant} at ${b.pointer}: ${b.text}`).join("; ")}`,
    );
}
