// Hardhat 2 config for the emulator's contracts. CommonJS because package.json is "type": "module".
// Compilation is offline: the solc build is the root `solc` npm package (0.8.30 soljson),
// never a download and never Hardhat's nested solc copy.
"use strict";

process.env.HARDHAT_DISABLE_TELEMETRY_PROMPT = "true";

const path = require("node:path");
const { createRequire } = require("node:module");
const { subtask } = require("hardhat/config");
const { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } = require("hardhat/builtin-tasks/task-names");
const { hardhatNetwork, solidity } = require("./network.cjs");

const ROOT = path.resolve(__dirname, "..");
// Resolve from the project root so we get the root solc (0.8.30), not hardhat/node_modules/solc.
const rootRequire = createRequire(path.join(ROOT, "package.json"));

subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, async (args, _hre, runSuper) => {
  if (args.solcVersion !== solidity.version) return runSuper();
  const solc = rootRequire("solc");
  return {
    compilerPath: rootRequire.resolve("solc/soljson.js"),
    isSolcJs: true,
    version: solidity.version,
    longVersion: solc.version().replace(/\.Emscripten\.clang$/, ""),
  };
});

/** @type {import("hardhat/config").HardhatUserConfig} */
module.exports = {
  solidity,
  defaultNetwork: "hardhat",
  networks: {
    hardhat: { ...hardhatNetwork },
    localhost: { url: "http://127.0.0.1:8545" },
  },
  paths: {
    root: ROOT,
    sources: path.join(ROOT, "chain/contracts"),
    artifacts: path.join(ROOT, "chain/artifacts"),
    cache: path.join(ROOT, "chain/cache"),
    tests: path.join(ROOT, "test/chain"),
  },
};
