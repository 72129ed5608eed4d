import createClient from "openapi-fetch";
import type { paths } from "./api.generated.ts";

// A partner's code written against a client generated from the emulator's
// OpenAPI document (openapi-typescript types, openapi-fetch calls). The test
// type-checks this file against the freshly generated types, then runs it.

export async function flow(baseUrl: string, key: string) {
  const api = createClient<paths>({ baseUrl, headers: { "X-API-Key": key } });

  const search = await api.GET("/api/v1/{game}/cards", {
    params: { path: { game: "pokemon" }, query: { q: "name:charizard", limit: "5" } },
  });
  if (!search.data) throw new Error(`search failed: ${JSON.stringify(search.error)}`);
  const first = search.data.data[0];
  if (!first) throw new Error("no card");
  const total: number = search.data.total_count;

  const card = await api.GET("/api/v1/{game}/cards/{id}", { params: { path: { game: "pokemon", id: first.id } } });
  if (!card.data) throw new Error(`get failed: ${JSON.stringify(card.error)}`);
  const tcgplayer: string | null = card.data.data.tcgplayer_id;

  const usage = await api.GET("/api/v1/account/usage");
  if (!usage.data) throw new Error("usage failed");
  const balance: number = usage.data.data.balance;

  const registered = await api.POST("/api/v1/webhooks", {
    body: { url: "https://hooks.example.com/cardos", event_types: ["purchase.fulfilled"] },
  });
  if (!registered.data) throw new Error(`register failed: ${JSON.stringify(registered.error)}`);
  const secret: string = registered.data.data.signing_secret;
  const listed = await api.GET("/api/v1/webhooks");
  const removed = await api.DELETE("/api/v1/webhooks/{id}", {
    params: { path: { id: String(registered.data.data.id) } },
  });

  const missing = await api.GET("/api/v1/{game}/cards/{id}", {
    params: { path: { game: "pokemon", id: "no-such-card" } },
  });

  return {
    total,
    firstName: first.name,
    cardId: card.data.data.id,
    tcgplayer,
    balance,
    secretLength: secret.length,
    listedIds: listed.data?.data.webhooks.map((w) => w.id) ?? [],
    deleted: removed.data?.data.deleted,
    missingStatus: missing.response.status,
    missingError: missing.error?.error,
  };
}
