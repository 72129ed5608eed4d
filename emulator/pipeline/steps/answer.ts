import { errorResponse, successText, textResponse } from "../envelope.ts";
import { writeRateLimitHeaders } from "../rate-limit.ts";
import type { Step } from "./context.ts";

/** The answer in the route's envelope, with the window in force (X-RateLimit-* on every response). */
export const answer: Step = {
  name: "answer",
  always: true,
  run(p) {
    if (p.response) return;
    if (p.window) writeRateLimitHeaders(p.headers, p.window);
    if (p.error) {
      p.response = errorResponse(p.error, p.spec.envelope, p.headers);
      return;
    }
    const reply = p.reply!;
    if (reply.headers) Object.assign(p.headers, reply.headers);
    p.response = textResponse(reply.status ?? 200, successText(reply), p.headers);
  },
};
