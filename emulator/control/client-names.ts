import type { ControlSpec } from "./route.ts";

// The typed control client's method names (`control.clock.advance`), worked out from each control route's
// method and path, so a new route gets its method without anyone naming it: the group is the path's first
// segment, the name the other literal segments in camelCase, or a verb for the group's own path (GET list
// for a collection one can add to or clear, else get; POST add; PUT set; DELETE clear). Two routes of a group
// with one name: the writes take a verb prefix (set, clear). NAMED holds the few routes better said otherwise.

const NAMED: Readonly<Record<string, string>> = {
  "POST /reset": "state.reset",
  "POST /snapshot": "state.snapshot",
  "POST /restore": "state.restore",
  "GET /state": "state.export",
  "PUT /state": "state.import",
  "GET /clock": "clock.get",
  "POST /clock": "clock.setMode",
  "GET /vrf": "vrf.get",
  "POST /vrf": "vrf.setMode",
  "POST /events": "events.trigger",
  "POST /mystery/custodial/fund": "mystery.fund",
};

/** Routes that answer no JSON envelope (a page, a stream, a file): not client methods. */
const NOT_JSON: ReadonlySet<string> = new Set(["GET /ui", "GET /ui/stream", "GET /ui/:file", "GET /images/:path{.+}"]);

const camel = (words: string[]) =>
  words
    .flatMap((w) => w.split("-"))
    .map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1)))
    .join("");

const WRITE_PREFIX: Readonly<Record<string, string>> = { POST: "set", PUT: "set", DELETE: "clear" };

/** `group.name` of every control route that answers JSON, by `METHOD /path`. */
export function clientNames(routes: readonly Pick<ControlSpec, "method" | "path">[]): Map<string, string> {
  const json = routes.filter((r) => !NOT_JSON.has(`${r.method} ${r.path}`));
  const literal = (p: string) => p.split("/").filter((s) => s && !s.startsWith(":"));
  const isCollection = (group: string) =>
    json.some((r) => r.path === `/${group}` && (r.method === "POST" || r.method === "DELETE"));
  const plain = json.map((r) => {
    const route = `${r.method} ${r.path}`;
    const named = NAMED[route];
    if (named) return { route, method: r.method, group: named.split(".")[0]!, name: named.split(".")[1]!, fixed: true };
    const [group, ...rest] = literal(r.path);
    const bare = { GET: isCollection(group!) ? "list" : "get", POST: "add", PUT: "set", DELETE: "clear", PATCH: "set" };
    return {
      route,
      method: r.method,
      group: camel([group!]),
      name: rest.length ? camel(rest) : bare[r.method],
      fixed: false,
    };
  });
  const out = new Map<string, string>();
  for (const p of plain) {
    const clash = plain.some((q) => q !== p && q.group === p.group && q.name === p.name);
    const name = clash && !p.fixed && p.method !== "GET" ? camel([WRITE_PREFIX[p.method]!, p.name]) : p.name;
    out.set(p.route, `${p.group}.${name}`);
  }
  return out;
}
