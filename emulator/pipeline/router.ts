import type { Result, Router } from "hono/router";
import { RouteTable } from "../../contract/index.ts";

// The route table (contract/route-table.ts) as Hono's router: the app passes it
// as `new Hono({ router })`, so every request is routed once, by the same table
// the conformance suite matches operations with. Hono still reads the path
// (its decoding of percent escapes) and decodes params when a handler reads them.
// One handler per request: the app registers no middleware, so the first
// registered route that matches is the whole answer (none → the app's 404).

/** Paths remembered per method: a client asks the same few paths again and again (a card, a page, a poll). */
const MEMO_CAP = 1024;

export class TableRouter<T> implements Router<T> {
  readonly name = "RouteTable";
  readonly #table = new RouteTable<T>();
  /**
   * The last answers by method and path, handed out again as they are (Hono only reads a match: it
   * decodes the params into an object of its own when a handler asks). Emptied when a route is added.
   */
  readonly #memo = new Map<string, Map<string, Result<T>>>();

  add(method: string, path: string, handler: T): void {
    if (method === "ALL") throw new Error(`TableRouter: one handler per request; no middleware or ALL (${path})`);
    this.#table.add(method, path, handler);
    this.#memo.clear();
  }

  match(method: string, path: string): Result<T> {
    let byPath = this.#memo.get(method);
    if (!byPath) this.#memo.set(method, (byPath = new Map()));
    let result = byPath.get(path);
    if (!result) {
      const hit = this.#table.match(method, path);
      result = [hit ? [[hit.value, hit.params]] : []];
      if (byPath.size >= MEMO_CAP) byPath.clear();
      byPath.set(path, result);
    }
    return result;
  }
}
