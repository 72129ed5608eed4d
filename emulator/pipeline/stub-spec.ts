// A stub as POST /_emulator/stubs takes it and GET lists it, with plain types only: the pipeline (stubs.ts)
// keeps these and the package's types (emulator/public-types.ts) name them, one declaration for both.

/** Which calls a stub answers: every given field must match. */
export interface StubMatch {
  /** A fixture key's name (demo), a whole key or a key's label. */
  key?: string;
  /** Path parameters by name, as in the path (`{ id: "7" }`). */
  params?: Record<string, string>;
  /** Query parameters that must be present with these values. */
  query?: Record<string, string>;
  /** Members the JSON body must hold with these values (deep; other members are free). */
  body?: Record<string, unknown>;
}

export interface StubSpec {
  /** A contract operation id (`gacha.purchase`). */
  operation: string;
  match?: StubMatch;
  status: number;
  /** The whole JSON body answered (`{ success: true, data: … }`). */
  body: unknown;
  headers?: Record<string, string>;
  /** Answers this many calls, then the operation answers as usual again. */
  times?: number;
  /** Skip the contract check of a 2xx body (a test of what the client does with a malformed answer). */
  unchecked?: boolean;
}

export interface Stub extends StubSpec {
  id: string;
  hits: number;
}
