import { instantProduct } from "../../../fixtures/instant/index.ts";
import { usdc } from "../../../contract/money.ts";
import type { Services } from "../../pipeline/services.ts";
import { chainOf, packetTypes } from "./chain-io.ts";

// The instant catalog (docs/reference/sdk-shapes.md “Instant shapes” InstantCatalogItem): the product of
// each packet type (fixtures/instant) with its live on-chain price and stock.
// By default only packs with available_packs > 0; include_unavailable shows sold-out ones too.

export async function catalogItems(s: Services, includeUnavailable: boolean) {
  const types = await packetTypes(chainOf(s));
  const items = [];
  for (const t of types) {
    const p = instantProduct(s.catalog, s.options.seed, t.packetTypeId);
    if (!p || (!includeUnavailable && t.stock === 0)) continue;
    items.push({
      packet_type_id: t.packetTypeId,
      set_id: p.set_id,
      set_name: p.set_name,
      product_id: p.product_id,
      name: p.name,
      image_url: p.image_url,
      large_image_url: p.large_image_url,
      price: String(t.price),
      price_usdc: usdc(t.price),
      available_packs: t.stock,
      tcg_type: p.tcg_type,
      language: p.language,
    });
  }
  return items;
}
