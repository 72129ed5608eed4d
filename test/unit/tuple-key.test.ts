import { describe, expect, it } from "vitest";
import { tupleKey, tupleParts } from "../../emulator/state/tuple-key.ts";

describe("tupleKey", () => {
  it("different tuples never share a key; parts read back; plain ids keep the older `a\\u0000b` form", () => {
    const tuples = [
      ["co", "x\u0000bob"],
      ["co\u0000x", "bob"],
      ["co\u0001", "0bob"],
      ["co", "\u00010bob"],
      ["co:x", "bob"],
      ["co", "x:bob"],
    ];
    const keys = tuples.map((t) => tupleKey(...t));
    expect(new Set(keys).size).toBe(tuples.length);
    for (const [i, t] of tuples.entries()) expect(tupleParts(keys[i]!, 2)).toEqual(t);
    expect(tupleKey("acme", "bob")).toBe("acme\u0000bob");
  });
});
