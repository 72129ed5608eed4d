// Shared Hardhat network settings: used by hardhat.config.cjs (compile, `npx hardhat node`)
// and by chain/index.ts (in-process network). CommonJS because Hardhat 2 loads configs with require().
"use strict";

const CHAIN_ID = 31337;

/** Hardhat network user config (without accounts; the default mnemonic is used). */
const hardhatNetwork = {
  chainId: CHAIN_ID,
  // Prague (not Hardhat 2.29's default Osaka): Osaka's 2^24 per-transaction gas cap breaks EDR's
  // eth_estimateGas binary search for VRF fulfilments (probes above the cap and errors).
  hardfork: "prague",
  allowBlocksWithSameTimestamp: true,
  // Like a real node: a reverting transaction is mined with status 0 (eth_sendRawTransaction returns its hash).
  throwOnTransactionFailures: false,
  throwOnCallFailures: true,
  loggingEnabled: false,
  mining: { auto: true, interval: 0 },
};

const solidity = {
  version: "0.8.30",
  settings: {
    evmVersion: "cancun",
    optimizer: { enabled: true, runs: 200 },
  },
};

module.exports = { hardhatNetwork, solidity };
