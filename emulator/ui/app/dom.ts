// Plain DOM helpers: an element from a tag, attributes and children; a form field whose value survives a
// live re-render; a table; a shortened hash.

export type Child = Node | string | number | boolean | null | undefined | readonly Child[];
type Attrs = Record<string, unknown>;

/** An element from a tag, attributes (`on…` are listeners) and children (strings and numbers become text). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v as EventListener);
    else if (v !== undefined && v !== null && v !== false) el.setAttribute(k, v === true ? "" : String(v));
  }
  el.append(...flat(children));
  return el;
}

/** Children as nodes, nested arrays flattened (null and undefined are empty text, as they always were here). */
export function flat(children: readonly Child[]): Node[] {
  const out: Node[] = [];
  for (const c of children) {
    if (Array.isArray(c)) out.push(...flat(c as readonly Child[]));
    else out.push(c instanceof Node ? c : document.createTextNode(c === null || c === undefined ? "" : String(c)));
  }
  return out;
}

/** A form field whose value lives in `state[key]`, so a live re-render keeps what the user typed or picked. */
export function bound<E extends HTMLInputElement | HTMLSelectElement>(
  state: Record<string, string>,
  key: string,
  el: E,
): E {
  if (state[key]) el.value = state[key];
  else state[key] = el.value;
  const keep = () => (state[key] = el.value);
  el.addEventListener("input", keep);
  el.addEventListener("change", keep);
  return el;
}

export const table = (head: readonly string[], rows: Child, attrs: Attrs = {}): HTMLTableElement =>
  h(
    "table",
    attrs,
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        head.map((t) => h("th", {}, t)),
      ),
    ),
    h("tbody", {}, rows),
  );

export const short = (hash: string | null | undefined): string => (hash ? `${hash.slice(0, 10)}…` : "—");
export const hashCell = (hash: string | null | undefined): HTMLElement =>
  h("td", { class: "muted", title: hash ?? "" }, short(hash));
