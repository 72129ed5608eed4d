import { textWithin } from "../../contract/index.ts";
import { CheckFailure } from "../types.ts";

// The partner's optional probe (docs/webhooks.md "Certify your receiver"):
// `GET <probe>` answers `{"applied": [{"id": "<event id>", "event": "<type>"}, …]}`,
// one entry each time the receiver applied an event's side effect, oldest first.
// It must include an event by the time the receiver has answered its delivery.

/** The most of a probe's answer read: its list of applied events is far smaller (issue 37: a 400 MiB answer took 1.4 GB). */
export const PROBE_ANSWER_BYTES = 8 * 1024 * 1024;

export interface AppliedEntry {
  id: string;
  event: string;
}

export class Probe {
  constructor(
    readonly url: string,
    private readonly timeoutMs: number,
  ) {}

  /** How many times the receiver applied each of `ids`. */
  async counts(ids: readonly string[]): Promise<Map<string, number>> {
    const applied = await this.read();
    const out = new Map(ids.map((id) => [id, 0]));
    for (const e of applied) if (out.has(e.id)) out.set(e.id, out.get(e.id)! + 1);
    return out;
  }

  private async read(): Promise<AppliedEntry[]> {
    let res: Response;
    try {
      res = await fetch(this.url, {
        headers: { accept: "application/json" },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw new CheckFailure(
        `the probe ${this.url} did not answer: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    if (res.status !== 200) {
      void res.body?.cancel().catch(() => {});
      throw new CheckFailure(`the probe ${this.url} answered ${res.status}, expected 200`);
    }
    let text: string;
    try {
      text = await textWithin(res, PROBE_ANSWER_BYTES, `the answer of the probe ${this.url}`);
    } catch (err) {
      throw new CheckFailure(err instanceof Error ? err.message : String(err));
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new CheckFailure(`the probe ${this.url} answered something that is not JSON`);
    }
    const applied = (body as { applied?: unknown } | null)?.applied;
    if (
      !Array.isArray(applied) ||
      !applied.every((e) => typeof e === "object" && e !== null && typeof (e as AppliedEntry).id === "string")
    )
      throw new CheckFailure(
        `the probe ${this.url} must answer {"applied": [{"id": "<event id>", "event": "<type>"}, …]}`,
      );
    return applied as AppliedEntry[];
  }
}
