import { describe, expect, it } from "vitest";
import {
  asInvoked,
  closest,
  helpText,
  invokedAs,
  parseCommand,
  UsageError,
  type CommandSpec,
} from "../../harness/cli-args.ts";
import { CONFORMANCE_COMMAND } from "../../conformance/cli.ts";

const SPEC: CommandSpec = {
  usage: "  tool [options]",
  options: [
    { name: "port", type: "string", value: "N", describe: "the port" },
    { name: "rpc-url", type: "string", value: "URL", describe: "a node" },
    { name: "profile", type: "string", multiple: true, value: "P", describe: "a profile" },
    { name: "no-chain", type: "boolean", describe: "no chain" },
  ],
};

describe("parseCommand", () => {
  it("reads values, repeats, booleans and positionals", () => {
    const a = parseCommand(SPEC, ["--port", "5", "--profile=a", "--profile", "b", "--no-chain", "x"]);
    expect(a.flags.get("port")).toEqual(["5"]);
    expect(a.flags.get("profile")).toEqual(["a", "b"]);
    expect(a.flags.get("no-chain")).toEqual(["true"]);
    expect(a.positionals).toEqual(["x"]);
  });

  it.each([
    [["--prot", "5"], "unknown option --prot; did you mean --port?"],
    [["--rpcurl", "x"], "unknown option --rpcurl; did you mean --rpc-url?"],
    [["--zzzzzz"], "unknown option --zzzzzz"],
    [["--port"], "--port needs a value (N)"],
    [["--no-chain=yes"], "--no-chain takes no value"],
  ])("%j → %s", (argv, message) => {
    expect(() => parseCommand(SPEC, argv)).toThrow(UsageError);
    expect(() => parseCommand(SPEC, argv)).toThrow(message);
  });

  it("an alias (a former name) is read as its option, is named once in help, and is not given with it", () => {
    const spec: CommandSpec = {
      usage: "  tool",
      options: [{ name: "new-key", aliases: ["old-key"], type: "string", value: "K", describe: "a key" }],
    };
    expect(parseCommand(spec, ["--old-key", "k1"]).flags).toEqual(new Map([["new-key", ["k1"]]]));
    expect(parseCommand(spec, ["--new-key=k1"]).flags).toEqual(new Map([["new-key", ["k1"]]]));
    expect(helpText(spec)).toContain("--new-key K  a key (also --old-key)");
    expect(() => parseCommand(spec, ["--old-key", "a", "--new-key", "b"])).toThrow(
      "--new-key and --old-key are one option; give one",
    );
    expect(() => parseCommand(spec, ["--old-kye", "a"])).toThrow("did you mean --old-key?");
  });

  it("conformance: --tier-key is the former name of --revenue-share-key, read the same", () => {
    const byNew = parseCommand(CONFORMANCE_COMMAND, ["--revenue-share-key", "rip_v1_x", "--mode", "sandbox"]);
    const byOld = parseCommand(CONFORMANCE_COMMAND, ["--tier-key", "rip_v1_x", "--mode", "sandbox"]);
    expect(byOld).toEqual(byNew);
    expect(byNew.flags.get("revenue-share-key")).toEqual(["rip_v1_x"]);
    expect(helpText(CONFORMANCE_COMMAND)).toMatch(
      /--revenue-share-key K +a partner key of the revenue-share[^]*\(also --tier-key\)/,
    );
  });

  it("help lists every option with its placeholder, and --help itself", () => {
    const text = helpText(SPEC);
    for (const flag of ["--port N", "--rpc-url URL", "--profile P", "--no-chain", "--help"])
      expect(text).toContain(flag);
    expect(text).toContain("(repeatable)");
  });

  it("closest: near names only", () => {
    expect(closest("scenraio", ["scenario", "conformance"])).toBe("scenario");
    expect(closest("xyz", ["scenario", "conformance"])).toBeUndefined();
  });

  it("names the command by the bin it was started as: npm's bin link keeps its name in argv[1]", () => {
    expect(invokedAs("/p/node_modules/.bin/cardos-emulator")).toBe("cardos-emulator");
    expect(invokedAs("/p/node_modules/.bin/emulator")).toBe("emulator");
    expect(invokedAs("/repo/bin/emulator.js")).toBe("emulator");
    expect(asInvoked('Run "npx emulator exec --help"; npx emulator trigger X', "cardos-emulator")).toBe(
      'Run "npx cardos-emulator exec --help"; npx cardos-emulator trigger X',
    );
    expect(asInvoked("npx emulator --help", "emulator")).toBe("npx emulator --help");
  });
});
