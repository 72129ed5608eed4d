import { errorIs, toSuccess, type Deviation } from "./deviation.ts";

// Deviations that break the Card Data catalog's rules (one per conformance check).

export const catalogDeviations: readonly Deviation[] = [
  {
    name: "catalog_card_by_id_hp_changed",
    breaks: "a card fetched by id carries the listed card's values",
    apply: (x) => {
      const d = x.body?.data as Record<string, unknown> | undefined;
      if (
        x.req.method === "GET" &&
        /^\/api\/v1\/[a-z]+\/cards\/[^/]+$/.test(x.url.pathname) &&
        x.status === 200 &&
        typeof d?.hp === "string" &&
        /^\d+$/.test(d.hp)
      )
        d.hp = String(Number(d.hp) + 10);
    },
  },
  {
    name: "catalog_expansion_by_id_total_changed",
    breaks: "an expansion fetched by id carries its listed values (total)",
    apply: (x) => {
      const d = x.body?.data as Record<string, unknown> | undefined;
      const hit = x.status === 200 && /^\/api\/v1\/[a-z]+\/expansions\/[^/]+$/.test(x.url.pathname);
      if (hit && typeof d?.total === "number") d.total += 1;
    },
  },
  {
    name: "catalog_sealed_by_id_name_changed",
    breaks: "a sealed product fetched by id carries its listed values (name)",
    apply: (x) => {
      const d = x.body?.data as Record<string, unknown> | undefined;
      const hit = x.status === 200 && /^\/api\/v1\/[a-z]+\/sealed\/[^/]+$/.test(x.url.pathname);
      if (hit && typeof d?.name === "string") d.name = `${d.name} (boxed)`;
    },
  },
  {
    name: "catalog_orderby_desc_ignored",
    breaks: "orderBy=-field sorts descending",
    apply: (x) => {
      // A server that drops the "-": each page of a descending sort comes back ascending.
      const orderBy = x.url.searchParams.get("orderBy") ?? "";
      if (
        x.req.method === "GET" &&
        /^\/api\/v1\/[a-z]+\/cards$/.test(x.url.pathname) &&
        orderBy.trim().startsWith("-") &&
        Array.isArray(x.body?.data)
      )
        x.body.data.reverse();
    },
  },
  {
    name: "catalog_no_total_count",
    breaks: "Card Data pages carry their paging fields",
    apply: (x) => {
      if (x.body && Array.isArray(x.body.data)) {
        delete x.body.total_count;
        delete x.body.page_size;
        delete x.body.pagination;
      }
    },
  },
  {
    name: "include_prices_ignored",
    breaks: "include=prices embeds pricing",
    apply: (x) => {
      const strip = (o: unknown) => o && typeof o === "object" && delete (o as Record<string, unknown>).pricing;
      if (x.url.searchParams.get("include")?.includes("prices") && x.body) {
        if (Array.isArray(x.body.data)) x.body.data.forEach(strip);
        else strip(x.body.data);
      }
    },
  },
  {
    name: "not_found_wrong_code",
    breaks: "a missing card is 404 not_found",
    apply: (x) => {
      if (/\/cards\/[^/]+$/.test(x.url.pathname) && errorIs(x, 404, "not_found")) x.body!.error = "card_not_found";
    },
  },
  {
    name: "no_error_position",
    breaks: "q errors carry details.position",
    apply: (x) => {
      if (x.status === 400 && x.body) delete x.body.details;
    },
  },
  {
    name: "no_query_caps",
    breaks: "q caps give query_too_complex",
    apply: (x) => {
      if (errorIs(x, 400, "query_too_complex")) toSuccess(x, []);
    },
  },
  {
    name: "page_size_uncapped",
    breaks: "page_size is at most 100",
    apply: (x) => {
      if (errorIs(x, 400, "invalid_pagination") && x.url.searchParams.has("page_size")) toSuccess(x, []);
    },
  },
  {
    name: "expansion_cards_empty",
    breaks: "an expansion lists its cards",
    apply: (x) => {
      if (/\/expansions\/[^/]+\/cards$/.test(x.url.pathname) && x.body?.success) x.body.data = [];
    },
  },
  {
    name: "sealed_prices_missing",
    breaks: "sealed prices carry pricing",
    apply: (x) => {
      if (/\/sealed\/[^/]+\/prices$/.test(x.url.pathname) && x.body?.success)
        delete (x.body.data as Record<string, unknown>).pricing;
    },
  },
  {
    name: "printings_uncapped",
    breaks: "printings are capped at 50",
    apply: (x) => {
      if (x.url.pathname.endsWith("/printings") && Array.isArray(x.body?.data)) {
        const rows = x.body!.data as unknown[];
        x.body!.data = Array.from({ length: 60 }, (_, i) => rows[i % rows.length]);
      }
    },
  },
  {
    name: "price_history_charged",
    breaks: "not-live endpoints cost nothing",
    apply: (x) => {
      if (x.url.pathname.endsWith("/price-history")) x.headers.set("X-Credits-Cost", "5");
    },
  },
  {
    name: "id_array_uncapped",
    breaks: "id arrays over 500 entries are invalid_pagination",
    apply: (x) => {
      if (x.url.pathname.endsWith("/grading/certs/batch") && errorIs(x, 400, "invalid_pagination"))
        toSuccess(x, { results: [] });
    },
  },
  {
    name: "catalog_last_page_dropped",
    breaks: "paging reaches the last rows of a collection",
    apply: (x) => {
      // The last, partial page of a multi-page walk comes back empty; every other page is intact.
      const b = x.body as { data?: unknown; page?: unknown; page_size?: unknown; total_count?: unknown } | null;
      if (
        !b ||
        !Array.isArray(b.data) ||
        typeof b.page !== "number" ||
        typeof b.page_size !== "number" ||
        typeof b.total_count !== "number"
      )
        return;
      if (b.page > 1 && (b.page - 1) * b.page_size < b.total_count && b.page * b.page_size >= b.total_count)
        b.data = [];
    },
  },
];
