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

const VISION_SLICE = defineSlice<VisionSlice>({ name: "vision", init: () => ({ feedback: {} }) });

export const visionSlice = (store: Store): VisionSlice => store.slice(VISION_SLICE);
