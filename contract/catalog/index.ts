// Card Data: cards, expansions, sealed products, prices, printings and graded certificates.
export * from "./shapes.ts";
export * from "./operations.ts";
