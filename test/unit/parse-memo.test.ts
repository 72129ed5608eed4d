import { describe, expect, it } from "vitest";
import { ParseMemo, paramsKey } from "../../emulator/pipeline/parse-memo.ts";
import { tupleKey } from "../../emulator/state/tuple-key.ts";

describe("parse memo (GET input reused for the same raw text)", () => {
  it("keeps plain data frozen, parses again for other text, never keeps Sets or failures", () => {
    const memo = new ParseMemo();
    const schema = {};
    let parses = 0;
    const plain = () => (parses++, { include: { prices: true }, select: ["id", "name"] });
    const a = memo.get(schema, "include=prices", plain);
    expect(memo.get(schema, "include=prices", plain)).toBe(a);
    expect(parses).toBe(1);
    expect(Object.isFrozen(a) && Object.isFrozen(a.include) && Object.isFrozen(a.select)).toBe(true);
    expect(() => {
      (a.include as { prices: boolean }).prices = false;
    }).toThrow(TypeError);
    memo.get(schema, "include=prices&x=1", plain);
    expect(parses).toBe(2);

    const withSet = () => (parses++, { page: { size: 20 }, language: new Set(["en"]) });
    const handed = memo.get(schema, "language=en", withSet);
    memo.get(schema, "language=en", withSet);
    expect(parses).toBe(4);
    // Not kept, so left as the parser made it (nothing frozen half-way).
    expect(Object.isFrozen(handed) || Object.isFrozen(handed.page)).toBe(false);

    const failing = () => {
      parses++;
      throw new Error("400");
    };
    expect(() => memo.get(schema, "bad", failing)).toThrow("400");
    expect(() => memo.get(schema, "bad", failing)).toThrow("400");
    expect(parses).toBe(6);
  });

  it("params keys name each parameter", () => {
    expect(paramsKey({ game: "pokemon", id: "a" })).not.toBe(paramsKey({ game: "pokemona", id: "" }));
  });

  it("a params key is the tuple key of its names and values (unambiguous whatever the values hold)", () => {
    for (const params of [
      { id: "base1-4" },
      { game: "pokemon", id: "a\u0000b" },
      { game: "po\u0001ke", id: "\u0001\u0000" },
      {},
    ] as Record<string, string>[])
      expect(paramsKey(params)).toBe(tupleKey(...Object.entries(params).flat(), ""));
    expect(paramsKey({ a: "x\u0000", b: "y" })).not.toBe(paramsKey({ a: "x", b: "\u0000y" }));
  });
});
