import type { CommandSpec } from "../harness/cli-args.ts";
import { ENV_NOTE, START_OPTIONS } from "./launch.ts";

// The option tables of `npx emulator` and `openapi`; exec and trigger keep theirs beside their code.
// The help and the README's CLI synopsis (test/cli-synopsis.test.ts) are written from these tables.

export const START: CommandSpec = {
  usage: `  npx emulator [options]                 start the emulator
  npx emulator exec [options] -- CMD     start it, run CMD with its URLs and keys, stop (npx emulator exec --help)
  npx emulator trigger EVENT_TYPE        emit a webhook event on a running emulator (npx emulator trigger --help)
  npx emulator conformance [options]     run the conformance suite (npx emulator conformance --help)
  npx emulator receiver-check --url URL  certify your webhook receiver (npx emulator receiver-check --help)
  npx emulator scenario NAME | --list    run a scripted lifecycle (npx emulator scenario --help)
  npx emulator shadow --upstream URL     compare the sandbox with the emulator, call by call (npx emulator shadow --help)
  npx emulator fixtures import DIR       recorded catalog answers → a --catalog-overlay file (npx emulator fixtures --help)
  npx emulator openapi [--out FILE]      write the OpenAPI document (npx emulator openapi --help)
  npx emulator init [--out FILE]         write a starter test world (npx emulator init --help)
  npx emulator world --schema            the world file's JSON Schema; --check FILE checks one`,
  about: ENV_NOTE,
  options: START_OPTIONS,
};

export const OPENAPI: CommandSpec = {
  usage: "  npx emulator openapi [--out FILE] [--control] [--yaml] [--server URL]",
  about: "Writes the OpenAPI 3.1 document generated from the emulator's route table (stdout without --out).",
  options: [
    { name: "out", type: "string", value: "FILE", describe: "write to FILE (.yaml or .yml writes YAML)" },
    { name: "control", type: "boolean", describe: "the control plane's document instead of the API's" },
    { name: "yaml", type: "boolean", describe: "YAML instead of JSON" },
    {
      name: "server",
      type: "string",
      value: "URL",
      describe: "the server URL in the document (default http://127.0.0.1:4010)",
    },
  ],
};
