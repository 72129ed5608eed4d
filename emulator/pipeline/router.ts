import type { Result, Router } from "hono/router";
import { RouteTable } from "../../contract/index.ts";

// The route table (contract/route-table.ts) as Hono's router: the app passes it
// as `new Hono({ router })`, so every request is routed once, by the same table
// the conformance suite matches operations with. Hono still reads the path
// (its decoding of percent escapes) and decodes params when a handler reads them.
// One handler per request: the app registers no middleware, so the first
// registered route that matches is the whole answer (none → the app's 404).

export class TableRouter<T> implements Router<T> {
  readonly name = "RouteTable";
  readonly #table = new RouteTable<T>();

  add(method: string, path: string, handler: T): void {
    if (method === "ALL") throw new Error(`TableRouter: one handler per request; no middleware or ALL (${path})`);
    this.#table.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    const hit = this.#table.match(method, path);
    return [hit ? [[hit.value, hit.params]] : []];
  }
}
