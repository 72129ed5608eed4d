import { errorIs, type Deviation, type Exchange } from "./deviation.ts";
import { own } from "../../emulator/state/own.ts";

// Deviations that break the vision area's rules (one per conformance check).

const isIdentify = (x: Exchange) => x.url.pathname === "/api/v1/vision/identify";
const accountOf = (x: Exchange) => own(x.services.store.state.credits, x.req.headers.get("x-api-key") ?? "");

export const visionDeviations: readonly Deviation[] = [
  {
    name: "vision_error_charged",
    breaks: "vision errors are refunded",
    apply: (x) => {
      const acct = accountOf(x);
      if (isIdentify(x) && x.status === 400 && acct && x.headers.get("X-Credits-Cost") === "0") {
        const take = Math.min(acct.free, 5);
        acct.free -= take;
        x.headers.set("X-Credits-Cost", String(take));
        x.headers.set("X-Credits-Remaining", String(acct.free + acct.purchased));
      }
    },
  },
  {
    name: "vision_allows_http",
    breaks: "image_url must be public https",
    apply: (x) => {
      if (isIdentify(x) && errorIs(x, 400, "image_url_not_allowed")) x.body!.error = "image_fetch_failed";
    },
  },
  {
    name: "vision_lenient_options",
    breaks: "identify options are validated with their codes",
    apply: (x) => {
      if (
        isIdentify(x) &&
        x.status === 400 &&
        ["invalid_game", "invalid_limit", "invalid_include", "invalid_expansion_ids"].includes(String(x.body?.error))
      )
        x.body!.error = "invalid_request";
    },
  },
  {
    name: "vision_confirm_wrong_code",
    breaks: "confirm with an unknown feedback_id is 404 feedback_not_found",
    apply: (x) => {
      if (errorIs(x, 404, "feedback_not_found")) x.body!.error = "not_found";
    },
  },
  {
    name: "vision_image_required_wrong_code",
    breaks: "identify without an image is 400 image_required",
    apply: (x) => {
      if (isIdentify(x) && errorIs(x, 400, "image_required")) x.body!.error = "invalid_upload";
    },
  },
  {
    name: "vision_no_feedback_id",
    breaks: "each identify result carries a feedback_id",
    apply: (x) => {
      const d = x.body?.data as Record<string, unknown> | undefined;
      if (isIdentify(x) && x.status === 200 && d) delete d.feedback_id;
    },
  },
  {
    name: "vision_no_match_free",
    breaks: "a no-match still costs 5 credits",
    apply: (x) => {
      const d = x.body?.data as { matched?: boolean } | undefined;
      const acct = accountOf(x);
      if (
        isIdentify(x) &&
        x.status === 200 &&
        d?.matched === false &&
        acct &&
        x.headers.get("X-Credits-Cost") === "5"
      ) {
        acct.free += 5;
        x.headers.set("X-Credits-Cost", "0");
        x.headers.set("X-Credits-Remaining", String(acct.free + acct.purchased));
      }
    },
  },
  {
    name: "vision_no_size_limit",
    breaks: "images over 10 MB are 413 image_too_large",
    apply: (x) => {
      if (isIdentify(x) && errorIs(x, 413, "image_too_large")) {
        x.status = 400;
        x.body!.error = "invalid_image";
      }
    },
  },
];
