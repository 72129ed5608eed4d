import { z } from "zod";
import { accountOf } from "./account.ts";
import { defineControl, type ControlSpec } from "./route.ts";
import { badInput, missing } from "./schemas.ts";
import { checkSteerBody, formatSteer, parseBand, steerBody, steerFor, SteerView } from "./steer.ts";
import type { SteerRow, SteerSlice } from "./steer.ts";
import { created, ok } from "../pipeline/route.ts";
import type { Services } from "../pipeline/services.ts";
import type { Counter } from "../state/ids.ts";
import type { SliceSpec } from "../state/slices.ts";

// Steered reveals, the flow the mystery and instant areas share (issue 35): a steer is checked when it is
// asked for (the 409 when the pool cannot yield it), queued, taken by the first purchase it names, and
// turned into that request's VRF words. Each area brings its own plan (what its contract draws) and words.

/** A purchase as a steer matches it: `tier_id` is the mystery tier or the instant packet type. */
export type SteerTarget = Parameters<typeof steerFor>[1];

/** A steer's input: a row before it is queued. */
export type SteerInput = Omit<SteerRow, "id" | "created_at">;

/** What one area's steering is made of. */
export interface SteeringSpec<Plan> {
  /** The control path (`/mystery/reveals`). */
  path: string;
  slice: SliceSpec<SteerSlice>;
  counter: Counter;
  /** Throws unless the area can steer now (its chain is there). */
  ready(s: Services): void;
  /** The tier of the purchase a steer names: 404 when there is none, 409 once it has opened. */
  tierOfPurchase(s: Services, purchaseId: number): number;
  /** The purchase whose VRF request this is, as a steer matches it. */
  purchaseOfRequest(s: Services, requestId: string): SteerTarget | undefined;
  /** How the tier yields what the steer asks; throws the 409 naming what it cannot. */
  plan(s: Services, tierId: number, row: Pick<SteerRow, "items" | "band">): Promise<Plan>;
  /** The request's words for a plan, and the card each slot (mystery) or the pack (instant) is bound to. */
  words(s: Services, plan: Plan, steer: SteerRow, requestId: bigint): { words: bigint[]; cards: Array<string | null> };
  /** The control routes' texts. */
  texts: {
    post: string;
    created: string;
    missing: string;
    conflict: string;
    get: string;
  };
}

/** One area's steering: its slice, the word source to start with the area, and its control routes. */
export function steering<Plan>(spec: SteeringSpec<Plan>) {
  const steers = (s: Services) => s.store.slice(spec.slice);

  /** The words of a request whose purchase takes a steer (undefined: none does); the steer is used up. */
  async function wordsFor(s: Services, requestId: bigint): Promise<bigint[] | undefined> {
    const p = spec.purchaseOfRequest(s, requestId.toString());
    if (!p) return undefined;
    const slice = steers(s);
    const steer = steerFor(slice, p);
    if (!steer) return undefined;
    slice.pending = slice.pending.filter((r) => r.id !== steer.id);
    // The pool may have changed since the steer was checked (drawn meanwhile): then the reveal draws as usual.
    const planned = await spec.plan(s, p.tier_id, steer).then(
      (plan) => ({ plan }),
      () => null,
    );
    if (!planned) return undefined;
    const { words, cards } = spec.words(s, planned.plan, steer, requestId);
    steers(s).applied[requestId.toString()] = {
      steer_id: steer.id,
      purchase_id: p.id,
      request_id: requestId.toString(),
      cards,
    };
    return words;
  }

  /** Queues a steer after checking that the pool can yield it (the 409 otherwise; nothing is kept). */
  async function add(s: Services, input: SteerInput): Promise<SteerRow> {
    const tierId = input.purchase_id !== null ? spec.tierOfPurchase(s, input.purchase_id) : input.tier_id;
    await spec.plan(s, tierId!, input);
    const row: SteerRow = { ...input, id: s.store.nextId(spec.counter), created_at: s.clock.nowIso() };
    steers(s).pending.push(row);
    return row;
  }

  const controls: ControlSpec[] = [
    defineControl({
      method: "POST",
      path: spec.path,
      describe: spec.texts.post,
      schema: {
        body: steerBody,
        responses: {
          201: { description: spec.texts.created, data: SteerView },
          400: badInput,
          404: missing(spec.texts.missing),
          409: { description: spec.texts.conflict, codes: ["steer_unsatisfiable", "invalid_status"] },
        },
      },
      handle: async (c) => {
        const b = c.input.body;
        checkSteerBody(b);
        spec.ready(c.services);
        const account = b.account_id !== undefined || b.key !== undefined ? accountOf(c.services, b) : null;
        const row = await add(c.services, {
          purchase_id: b.purchase_id ?? null,
          account_id: account,
          tier_id: b.tier_id ?? null,
          external_user_id: b.external_user_id ?? null,
          items: b.items ?? [],
          band: parseBand(b.band),
        });
        return created(formatSteer(row));
      },
    }),
    defineControl({
      method: "GET",
      path: spec.path,
      describe: spec.texts.get,
      schema: {
        responses: {
          200: {
            description: "Pending and applied steers",
            data: z.object({
              pending: z.array(SteerView),
              applied: z.array(
                z.object({
                  steer_id: z.number(),
                  purchase_id: z.number(),
                  request_id: z.string(),
                  cards: z.array(z.string().nullable()),
                }),
              ),
            }),
          },
        },
      },
      handle: (c) => {
        const slice = steers(c.services);
        return ok({ pending: slice.pending.map(formatSteer), applied: Object.values(slice.applied) });
      },
    }),
  ];

  return {
    steers,
    /** Registers the word source with the chain (when there is one); returns its removal. */
    start: (s: Services): (() => void) => s.chainHost?.addWordSource((id) => wordsFor(s, id)) ?? (() => {}),
    controls,
  };
}
