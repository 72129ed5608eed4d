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
  { files: ANY_DEBT, rules: { "@typescript-eslint/no-explicit-any": "off" } },
  // The provider wrapper's request() closes over the chain.
  { files: ["chain/emulator-chain.ts"], rules: { "@typescript-eslint/no-this-alias": "off" } },
  {
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs" },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
