import { describe, expect, it } from "vitest";
import type { Game } from "../../emulator/catalog-data/model.ts";
import { compileQuery, MAX_QUERY_LENGTH, QueryError, type Resource } from "../../emulator/areas/catalog/query/index.ts";
import { expectQueryError } from "./helpers.ts";

const compile =
  (q: string, resource: Resource = "cards", game: Game = "pokemon") =>
  () =>
    compileQuery(q, resource, game);

describe("QueryError", () => {
  it("is an Error with code, message, details and status 400", () => {
    const err = expectQueryError(compile("name:"), "parse_error", 5);
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe("QueryError");
    expect(err.message).toMatch(/empty value/);
  });
});

describe("parse_error with position", () => {
  const cases: [string, number][] = [
    ["(pikachu", 0],
    ["pikachu)", 7],
    ["x (y", 2],
    ["(a (b) c", 0],
    ["()", 1],
    ["pikachu OR", 8],
    ["OR pikachu", 0],
    ["a OR OR b", 2],
    ["(a OR) b", 3],
    ["a AND", 2],
    ["AND a", 0],
    ["name:", 5],
    ["name: pikachu", 5],
    ["(name:)", 6],
    ['name:""', 5],
    ['name:"abc', 5],
    ['abc "de', 4],
    ['name:"a"b', 8],
    ["hp:[1 TO", 3],
    ["hp:[1 2]", 3],
    ["hp:[1 TO 2 TO 3]", 3],
    ["hp:[1 to 2]", 3],
    ["hp:[1 TO 2]x", 11],
    ["pikachu -", 8],
    ["- pikachu", 0],
    ["(-)", 1],
    ["-OR a", 0],
    ["! name:x", 0],
    ["a !", 2],
    [":foo", 0],
  ];
  for (const [q, pos] of cases) {
    it(`${JSON.stringify(q)} → parse_error at ${pos}`, () => {
      expectQueryError(compile(q), "parse_error", pos);
    });
  }
});

describe("unknown_field with position and suggestion", () => {
  it("suggests a close field name", () => {
    const err = expectQueryError(compile("nmae:pikachu"), "unknown_field", 0);
    expect(err.message).toContain('did you mean "name"?');
  });

  it("points at the field name, after - and !", () => {
    expect(expectQueryError(compile("pikachu -artst:x"), "unknown_field", 9).message).toContain(
      'did you mean "artist"?',
    );
    expect(expectQueryError(compile("!nmae:x"), "unknown_field", 1).message).toContain('did you mean "name"?');
    expectQueryError(compile("(a OR expansion.idd:b)"), "unknown_field", 6);
  });

  it("no suggestion when nothing is within 2 edits", () => {
    const err = expectQueryError(compile("(a OR zzzzzz:b)"), "unknown_field", 6);
    expect(err.message).not.toContain("did you mean");
    expect(err.message).toContain("zzzzzz");
  });

  it("game-specific card fields are unknown on other games", () => {
    expect(expectQueryError(compile("pikachu cost:3", "cards", "pokemon"), "unknown_field", 8).message).toContain(
      "onepiece",
    );
    expectQueryError(compile("hp:60", "cards", "onepiece"), "unknown_field", 0);
    expectQueryError(compile("attacks.name:x", "cards", "onepiece"), "unknown_field", 0);
    expectQueryError(compile("types:fire", "cards", "azuki"), "unknown_field", 0);
    expectQueryError(compile("colors:red", "cards", "azuki"), "unknown_field", 0);
    expect(() => compileQuery("colors:red power:[1000 TO *]", "cards", "onepiece")).not.toThrow();
  });

  it("fields of one resource are unknown on another", () => {
    expectQueryError(compile("rarity:rare", "expansions"), "unknown_field", 0);
    expect(expectQueryError(compile("seriesid:sv", "expansions"), "unknown_field", 0).message).toContain(
      'did you mean "series_id"?',
    );
    expectQueryError(compile("price:1", "cards"), "unknown_field", 0);
    expectQueryError(compile("a raw_price:1", "sealed"), "unknown_field", 2);
    expectQueryError(compile("release_date:2023", "cards"), "unknown_field", 0); // orderBy-only alias for cards
  });

  it("the first offending term (left to right) is reported", () => {
    expectQueryError(compile("foo:1 bar:2"), "unknown_field", 0);
    expectQueryError(compile("hp:x foo:1"), "invalid_value", 3);
  });
});

describe("invalid_value with position", () => {
  const cases: [string, number, Resource?][] = [
    ["name:*chu", 5],
    ["*chu", 0],
    ["pikachu name:*", 13],
    ["name:p*", 5],
    ["name:p**", 5],
    ["name:a*b*c*d*e", 5],
    ['name:"x" name:pi*k*a*c*u', 14],
    ["hp:abc", 3],
    ["hp:12*", 3],
    ["hp:1e3", 3],
    ["hp:[1 TO x]", 9],
    ["hp:[x TO 1]", 4],
    ["raw_price:{abc TO *}", 11],
    ["types:[a TO b]", 6],
    ["subtypes:{a TO b}", 9],
    ["is_holo:yes", 8],
    ["is_holo:[true TO false]", 8],
    ["expansion.release_date:2023/13/01", 23],
    ["expansion.release_date:2023/02/30", 23],
    ["expansion.release_date:01/02/2023", 23],
    ["expansion.release_date:[2023/01/01 TO tomorrow]", 38],
    ["expansion.release_date:2023*", 23],
    ["card_count.total:many", 17, "expansions"],
    ["release_date:[2023 TO x]", 22, "expansions"],
    ["product_type:starter_deck", 13, "sealed"],
    ["product_type:booster*", 13, "sealed"],
    ["is_on_sale:maybe", 11, "sealed"],
    ["price:cheap", 6, "sealed"],
  ];
  for (const [q, pos, resource] of cases) {
    it(`${JSON.stringify(q)} → invalid_value at ${pos}`, () => {
      expectQueryError(compile(q, resource ?? "cards"), "invalid_value", pos);
    });
  }

  it("messages explain the problem", () => {
    expect(expectQueryError(compile("name:*chu"), "invalid_value", 5).message).toMatch(/cannot start/);
    expect(expectQueryError(compile("name:a*b*c*d*e"), "invalid_value", 5).message).toMatch(/at most 3/);
    expect(expectQueryError(compile("name:p*"), "invalid_value", 5).message).toMatch(/at least 2/);
    expect(expectQueryError(compile("types:[a TO b]"), "invalid_value", 6).message).toMatch(/range/);
    expect(expectQueryError(compile("product_type:starter_deck", "sealed"), "invalid_value", 13).message).toContain(
      "booster_box",
    );
  });
});

describe("query_too_complex (no position)", () => {
  it("q longer than 512 characters", () => {
    const q = "a".repeat(MAX_QUERY_LENGTH + 1);
    expectQueryError(compile(q), "query_too_complex");
    expect(() => compileQuery("a".repeat(MAX_QUERY_LENGTH), "cards", "pokemon")).not.toThrow();
  });

  it("more than 20 terms", () => {
    const terms = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`).join(" OR ");
    expect(() => compileQuery(terms(20), "cards", "pokemon")).not.toThrow();
    expectQueryError(compile(terms(21)), "query_too_complex");
    expectQueryError(compile(Array.from({ length: 21 }, () => "-x").join(" ")), "query_too_complex");
  });

  it("nesting deeper than 5 levels", () => {
    const nest = (n: number) => "(".repeat(n) + "pikachu" + ")".repeat(n);
    expect(() => compileQuery(nest(5), "cards", "pokemon")).not.toThrow();
    expectQueryError(compile(nest(6)), "query_too_complex");
    expectQueryError(compile("a (b (c (d (e (f (g))))))"), "query_too_complex");
    expect(() => compileQuery("(a) (b) (c) (d) (e) (f) (g)", "cards", "pokemon")).not.toThrow();
  });

  it("complexity errors are QueryError instances", () => {
    try {
      compileQuery("(".repeat(6) + "a" + ")".repeat(6), "cards", "pokemon");
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(QueryError);
    }
  });
});
