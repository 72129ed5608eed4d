import { z } from "zod";
import { isoTime, ownRecord } from "../../state/fields.ts";
import { defineSlice } from "../../state/slices.ts";
import type { Store } from "../../state/store.ts";

// The vision area's slice: one feedback record per identify call, so a match
// (or a correction) can be confirmed later.

export interface FeedbackRecord {
  feedback_id: string;
  /** Any key of the account may confirm; other accounts get feedback_not_found. */
  account_id: string;
  key: string;
  created_at: string;
  matched_card_id: string | null;
  game: string | null;
  candidate_ids: string[];
  confirmed_card_id: string | null;
  confirmed_at: string | null;
}

export interface VisionSlice {
  feedback: Record<string, FeedbackRecord>;
}

const feedback = z.strictObject({
  feedback_id: z.string(),
  account_id: z.string(),
  key: z.string(),
  created_at: isoTime,
  matched_card_id: z.string().nullable(),
  game: z.string().nullable(),
  candidate_ids: z.array(z.string()),
  confirmed_card_id: z.string().nullable(),
  confirmed_at: isoTime.nullable(),
});

const VISION_SLICE = defineSlice<VisionSlice>({
  name: "vision",
  init: () => ({ feedback: {} }),
  schema: z.strictObject({ feedback: ownRecord(feedback) }),
});

export const visionSlice = (store: Store): VisionSlice => store.slice(VISION_SLICE);
