import { writeRateLimitHeaders } from "../rate-limit.ts";
import { stubAnswer } from "../stubs.ts";
import type { PipelineContext, Step } from "./context.ts";

/** A stub of the operation answers as told, only a caller the real route would serve, unbilled (pipeline/stubs.ts). */
export const stub: Step = {
  name: "stub",
  on: (spec) => Boolean(spec.operation),
  run(p) {
    if (p.stubs.size) return answer(p);
  },
};

async function answer(p: PipelineContext): Promise<void> {
  const found = await p.stubs.take(p.spec.operation!, {
    key: p.key!,
    seed: p.services.options.seed,
    params: p.params,
    url: p.target.url,
    req: p.req,
  });
  if (!found) return;
  if (p.note) p.note.stub = found.id;
  writeRateLimitHeaders(p.headers, p.window!);
  p.response = stubAnswer(found, p.headers);
}
