import type { Services } from "../pipeline/services.ts";
import type { Body, Deviation, Exchange } from "./deviation.ts";
import { coreDeviations } from "./core.ts";
import { creditsDeviations } from "./credits.ts";
import { visionDeviations } from "./vision.ts";
import { webhooksDeviations } from "./webhooks.ts";
import { mysteryDeviations } from "./mystery.ts";
import { warehouseDeviations } from "./warehouse.ts";
import { lifecycleDeviations } from "./lifecycle.ts";

export type { Deviation } from "./deviation.ts";

export const DEVIATIONS: readonly Deviation[] = [
  ...coreDeviations,
  ...creditsDeviations,
  ...visionDeviations,
  ...webhooksDeviations,
  ...mysteryDeviations,
  ...warehouseDeviations,
  ...lifecycleDeviations,
];

export const DEVIATION_NAMES = new Set(DEVIATIONS.map((d) => d.name));

/** Applies the active deviations to a finished response. */
export async function applyDeviations(active: ReadonlySet<string>, req: Request, res: Response, services: Services): Promise<Response> {
  if (active.size === 0) return res;
  const url = new URL(req.url);
  if (url.pathname.startsWith("/_emulator")) return res;
  const text = await res.text();
  let body: Body | null = null;
  try {
    body = text ? (JSON.parse(text) as Body) : null;
  } catch {
    body = null;
  }
  const x: Exchange = { req, url, status: res.status, headers: new Headers(res.headers), body, services };
  for (const d of DEVIATIONS) if (active.has(d.name)) d.apply(x);
  return new Response(x.body === null ? text : JSON.stringify(x.body), { status: x.status, headers: x.headers });
}
