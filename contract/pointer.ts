/** JSON pointer of a path (RFC 6901): how the suite and the emulator name a place in a body. */
export const pointer = (path: readonly PropertyKey[]): string =>
  path.map((k) => "/" + String(k).replace(/~/g, "~0").replace(/\//g, "~1")).join("");
