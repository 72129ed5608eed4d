// The catalog never changes after start, so the ordered result set of a query
// (scope, q, orderBy, distinct, filters) can be reused for every page of it:
// paging through a large search costs one sort, not one per page.

export class ResultCache<V> {
  private map = new Map<string, V>();
  constructor(private readonly capacity = 256) {}

  get(key: string, build: () => V): V {
    const hit = this.map.get(key);
    if (hit !== undefined) {
      // refresh recency
      this.map.delete(key);
      this.map.set(key, hit);
      return hit;
    }
    const value = build();
    this.map.set(key, value);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as string);
    return value;
  }
}
