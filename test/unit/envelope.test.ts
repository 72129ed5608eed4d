import { describe, it, expect } from "vitest";
import { successBody, successText } from "../../emulator/pipeline/envelope.ts";
import type { Reply } from "../../emulator/pipeline/route.ts";

describe("successText", () => {
  it("splices pre-serialised data into exactly the envelope JSON.stringify would give", () => {
    const replies: Reply[] = [
      {
        data: [{ id: "a", n: 1 }],
        pagination: { limit: 1, offset: 0, has_more: true },
        top: { page: 1, total_count: 3, language: "en" },
      },
      { data: [] },
      { data: { id: "x" }, top: { page: 2 } },
    ];
    for (const r of replies) {
      const plain = successText(r);
      const spliced = successText({ ...r, dataJson: JSON.stringify(r.data) });
      expect(spliced).toBe(plain);
      expect(JSON.parse(spliced)).toEqual(successBody(r));
    }
  });
});
