import { describe, it, expect } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { startEmulator } from "./helpers.ts";
import { startReceiver } from "./webhooks/receiver.ts";

// The README's webhook verification snippet, run as written against a real signed delivery.

const readme = readFileSync(join(import.meta.dirname, "..", "README.md"), "utf8");

function readmeVerify(): (rawBody: string, header: string, secret: string) => boolean {
  const block = /```ts\n(import \{ createHmac[\s\S]*?)```/.exec(readme);
  if (!block) throw new Error("the README has no webhook verification snippet");
  const js = ts.transpileModule(block[1], {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const module = { exports: {} as Record<string, unknown> };
  new Function("require", "module", "exports", `${js}\nmodule.exports.verify = verify;`)(
    require,
    module,
    module.exports,
  );
  return module.exports.verify as (rawBody: string, header: string, secret: string) => boolean;
}

describe("README snippets", () => {
  it("the webhook verification snippet accepts a real delivery and rejects a tampered one", async () => {
    const verify = readmeVerify();
    const rx = await startReceiver();
    const { emu, api, close } = await startEmulator();
    try {
      const key = emu.key("demo");
      const { signing_secret } = (
        await api.post("/api/v1/webhooks").set("X-API-Key", key).send({ url: rx.url }).expect(201)
      ).body.data;
      await api.post("/_emulator/events").send({ type: "purchase.fulfilled", key }).expect(201);
      expect(rx.received).toHaveLength(1);
      const { body, headers } = rx.received[0];
      const signature = String(headers["x-mystery-signature"]);
      expect(verify(body, signature, signing_secret)).toBe(true);
      expect(verify(body.replace("purchase", "purchasE"), signature, signing_secret)).toBe(false);
      expect(verify(body, signature, "0".repeat(64))).toBe(false);
      expect(verify(body, "t=1,sha256=nothex", signing_secret)).toBe(false);
    } finally {
      await close();
      await rx.close();
    }
  });
});
