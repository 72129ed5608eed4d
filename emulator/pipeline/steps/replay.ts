import type { Step } from "./context.ts";

/**
 * A recorded read (`--replay`) answers as recorded, once the pipeline's own rules and the input checks passed
 * (after the input: a bad query never reaches a recorded or cached answer).
 */
export const replay: Step = {
  name: "replay",
  run(p) {
    const recorded = p.services.replay?.find(p.spec.method, p.target.pathname, p.target.search);
    if (recorded) p.reply = { status: recorded.status, text: recorded.body };
  },
};
