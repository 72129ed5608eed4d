import { describe, it, expect } from "vitest";
import { useEmulator, type Api } from "../helpers.ts";

// A browser on the dashboard asks for an icon: it is served, not a 404 in the console and the journal.

let api: Api;
useEmulator((ctx) => ({ api } = ctx));

describe("the dashboard's icon", () => {
  it("is linked from the page and served at /_emulator/ui/favicon.svg and /favicon.ico", async () => {
    const page = await api.get("/_emulator/ui").expect(200);
    const href = /<link rel="icon"[^>]*href="([^"]+)"/.exec(page.text)?.[1];
    expect(href).toBe("/_emulator/ui/favicon.svg");
    for (const path of [href!, "/favicon.ico"]) {
      const res = await api
        .get(path)
        .buffer(true)
        .parse((r, cb) => {
          let s = "";
          r.on("data", (d: Buffer) => (s += d));
          r.on("end", () => cb(null, s));
        })
        .expect(200);
      expect(res.headers["content-type"]).toBe("image/svg+xml");
      expect(String(res.body)).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    }
  });
});
