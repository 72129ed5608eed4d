import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Operation } from "../contract/index.ts";
import type { Recording } from "../emulator/index.ts";
import type { Answer } from "./compare.ts";
import { maskRecording } from "./mask.ts";
import { isoOf } from "../contract/time.ts";

// --record DIR: each read the upstream answered with success, masked, in a file of its own
// (numbered in arrival order, so a later answer to the same request wins on replay).

export class Recorder {
  private seq = 0;
  constructor(
    readonly dir: string,
    private readonly secrets: readonly string[],
  ) {
    mkdirSync(dir, { recursive: true });
  }

  keep(op: Operation, pathAndQuery: string, up: Answer): void {
    if (up.status < 200 || up.status >= 300) return;
    const rec: Recording = {
      recording: 1,
      method: "GET",
      path: maskRecording(pathAndQuery, this.secrets),
      status: up.status,
      body: maskRecording(up.text, this.secrets),
      recorded_at: isoOf(Date.now()),
    };
    const name = `${String(++this.seq).padStart(6, "0")}-${op.id.replace(/[^\w.-]/g, "_")}.json`;
    writeFileSync(join(this.dir, name), JSON.stringify(rec, null, 2) + "\n");
  }
}
