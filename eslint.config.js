// Lint rules for the whole project: typescript-eslint's recommended set, plus the money rule
// (docs/decisions.md, "Lint, format and dead code").
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

const AMOUNT = "/micros|usd|price|amount|cents|balance|fee|payout|cost|total/i";
const AMOUNT_EXPR = [
  `Identifier[name=${AMOUNT}]`,
  `MemberExpression[property.name=${AMOUNT}]`,
  "CallExpression[callee.name='BigInt']",
].join(", ");
const MONEY =
  "money: amounts are bigint micros (contract/money.ts; the suite and scenarios: conformance/assert.ts), never a float";

/** Float arithmetic on an amount: parseFloat, Number(<amount>), a number divided or multiplied by 10^6. */
const FLOAT_MONEY = [
  { selector: "CallExpression[callee.name='parseFloat']", message: MONEY },
  { selector: "CallExpression[callee.object.name='Number'][callee.property.name='parseFloat']", message: MONEY },
  {
    selector: `CallExpression[callee.name='Number'] > :matches(${AMOUNT_EXPR})`,
    message: MONEY,
  },
  { selector: "BinaryExpression[operator=/^[*\\/]$/] > Literal[value=1000000]:not([bigint])", message: MONEY },
];

/** Every source folder: the time rules hold over all of them. */
const SOURCES = [
  "cli/**/*.ts",
  "emulator/**/*.ts",
  "contract/**/*.ts",
  "chain/**/*.ts",
  "conformance/**/*.ts",
  "scenarios/**/*.ts",
  "harness/**/*.ts",
  "fixtures/**/*.ts",
  "shadow/**/*.ts",
  "testing/**/*.ts",
  "bench/**/*.ts",
  "scripts/**/*.{mjs,mts}",
];
const TIME_TEXT = {
  property: "toISOString",
  message:
    "time: an instant is written by isoOf / isoMonth / isoDay (contract/time.ts), the one formatter (docs/decisions.md, 'One way for each job')",
};
const WALL_TIME = {
  object: "Date",
  property: "now",
  message:
    "time: read the virtual clock (services.clock.now(); clock.wall() or hostNow() in emulator/clock/clock.ts for the host's time); Date.now only where eslint.config.js's WALL_CLOCK list says why",
};
/** The places that must read the host's wall clock, each with its reason. */
const WALL_CLOCK = [
  // The clock itself: hostNow(), the emulator's one read of the host's time.
  "emulator/clock/clock.ts",
  // Build timing printed to the console.
  "chain/compile.ts",
  // Benchmarks measure wall time.
  "bench/**/*.ts",
  // The grace period before a child process group is killed is real time.
  "cli/child-group.ts",
  // A receiver stamps when a delivery arrived on the host (compared with the signature's wall-clock `t`).
  "harness/webhook-receiver.ts",
  // The suite and shadow mode talk to live services in real time: waits and rate-limit resets (wire.ts,
  // wait.ts), names unique across runs (isolate.ts, checks/redemption.ts), signatures a partner's receiver
  // compares with its own clock (receiver/), and when a run or a recording happened (reports).
  "conformance/wire.ts",
  "conformance/wait.ts",
  "conformance/isolate.ts",
  "conformance/checks/redemption.ts",
  "conformance/receiver/*.ts",
  "conformance/runner.ts",
  "shadow/record.ts",
  "shadow/report.ts",
];
/** The one formatter. */
const TIME_FORMATTER = ["contract/time.ts"];
/** Held to neither rule: the build script is plain JS run before anything compiles (it cannot import
 * contract/time.ts), and times itself and stamps the build with the host's time. */
const TIME_FREE = ["scripts/build.mjs"];

/**
 * What an area may take from viem outside its chain-io.ts (docs/architecture.md, its table of where a change
 * goes): pure helpers (ABI encoding and decoding, hashing, typed-data recovery, addresses, error classes, types).
 * The chain's clients (reads, writes, logs) are reached only in chain-io.ts, through chain/.
 */
const AREA_VIEM = [
  "BaseError",
  "ContractFunctionRevertedError",
  "decodeErrorResult",
  "encodeFunctionData",
  "getAddress",
  "hashTypedData",
  "Hex",
  "isAddress",
  "isAddressEqual",
  "keccak256",
  "parseEventLogs",
  "recoverTypedDataAddress",
  "toBytes",
  "toHex",
  "TransactionReceipt",
];

/** Files that still hold an `any` (typed viem/hardhat plumbing, test shortcuts): the list only shrinks. */
const ANY_DEBT = [
  "bench/commerce.ts",
  "bench/restart.ts",
  "chain/emulator-chain.ts",
  "chain/start.ts",
  "chain/journal.ts",
  "test/chain/*.ts",
  "test/mystery/helpers.ts",
  "test/mystery/money-property.test.ts",
  "test/mystery/purchase-lifecycle.test.ts",
  "test/mystery/stale-eligibility.test.ts",
  "test/instant/money-property.test.ts",
  "test/state/chain-journal.test.ts",
  "test/state/chain-kill.test.ts",
  "test/state/chain-state.test.ts",
];

export default tseslint.config(
  {
    ignores: [
      "dist/",
      // scripts/build.mjs's scratch and swap folders, present while a build runs (test/package.test.ts
      // builds during `npm test`, beside this lint).
      "dist.tmp-*/",
      "dist.old-*/",
      "chain/artifacts/",
      "chain/cache/",
      "chain/generated/",
      "reports/",
      "test/openapi-client/api.generated.ts",
      "emulator/control/client.generated.ts",
      // The official SDK, vendored unchanged (test/vendor/cardos-sdk/README.md).
      "test/vendor/",
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // Every shipped folder. The money modules are where amounts are parsed; deviations (testing/) send wrong
    // types on purpose.
    files: [
      "cli/**/*.ts",
      "emulator/**/*.ts",
      "contract/**/*.ts",
      "chain/**/*.ts",
      "conformance/**/*.ts",
      "scenarios/**/*.ts",
      "harness/**/*.ts",
      "fixtures/**/*.ts",
      "shadow/**/*.ts",
    ],
    ignores: ["contract/money.ts", "emulator/**/money.ts", "emulator/**/deviations.ts"],
    rules: { "no-restricted-syntax": ["error", ...FLOAT_MONEY] },
  },
  // One formatter for an instant and one reader of the host's clock (docs/decisions.md, "One way for each job").
  {
    files: SOURCES,
    ignores: [...WALL_CLOCK, ...TIME_FORMATTER, ...TIME_FREE],
    rules: { "no-restricted-properties": ["error", TIME_TEXT, WALL_TIME] },
  },
  { files: WALL_CLOCK, rules: { "no-restricted-properties": ["error", TIME_TEXT] } },
  { files: TIME_FORMATTER, rules: { "no-restricted-properties": ["error", WALL_TIME] } },
  {
    files: ["emulator/areas/**/*.ts"],
    ignores: ["emulator/areas/**/chain-io.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "viem",
              allowImportNames: AREA_VIEM,
              message:
                "an area reaches the chain only in its chain-io.ts; elsewhere viem's pure helpers (AREA_VIEM in eslint.config.js)",
            },
          ],
          patterns: [{ group: ["viem/*"], message: "an area reaches the chain only in its chain-io.ts" }],
        },
      ],
    },
  },
  { files: ANY_DEBT, rules: { "@typescript-eslint/no-explicit-any": "off" } },
  // The provider wrapper's request() closes over the chain.
  { files: ["chain/emulator-chain.ts"], rules: { "@typescript-eslint/no-this-alias": "off" } },
  {
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs" },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
