import { usd, usdCents } from "../../../fixtures/warehouse/index.ts";

// Warehouse money, in one place. Amounts the warehouse bills or declares are
// integer USD cents (declared values, service credits, invoice arithmetic);
// amounts it shows as prices are USD decimal strings ("12.50": card prices,
// rates, invoice lines). The fixtures build prices with the same formatters.

export { usd, usdCents };

/** A USD amount (a decimal string such as a rate's "12.50", or a number of dollars) in integer cents. */
export const toCents = (amount: string | number): number => Math.round(Number(amount) * 100);
