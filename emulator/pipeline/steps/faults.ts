import { documentedError } from "../errors.ts";
import type { Fault } from "../faults.ts";
import type { PipelineContext, Step } from "./context.ts";

/** An injected fault of this method and path (`/_emulator/faults`): its latency, then its error if it has one. */
export const faults: Step = {
  name: "faults",
  run(p) {
    const fault = p.services.faults.take(p.req.method, p.target.pathname);
    if (!fault) return;
    if (fault.latency_ms) return after(p, fault);
    refuse(fault);
  },
};

async function after(p: PipelineContext, fault: Fault): Promise<void> {
  await p.services.clock.sleep(fault.latency_ms!);
  refuse(fault);
}

function refuse(fault: Fault): void {
  if (fault.status >= 400)
    throw documentedError(fault.status, fault.error, fault.message ?? `Injected fault (${fault.id})`);
}
