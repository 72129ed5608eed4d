import { describe, expect, it } from "vitest";
import { openStream, useEmulator, type Api, type Emulator } from "../helpers.ts";

// Report panels (what `npx emulator shadow` publishes to the dashboard): read back as published,
// replaced by id, refused when malformed (nothing stored), and announced on the dashboard's stream.

let emu: Emulator;
let api: Api;
useEmulator((c) => ({ emu, api } = c));

const panel = (rows: number) => ({
  id: "drift",
  title: "Drift",
  summary: [{ label: "calls", value: rows }],
  columns: ["operation", "difference"],
  rows: Array.from({ length: rows }, (_, i) => ({ cells: [`op${i}`, "type differs"], tone: "bad" as const })),
});

describe("report panels", () => {
  it("GET /_emulator/panels answers the latest panel of each id, with when it was published", async () => {
    expect((await api.get("/_emulator/panels").expect(200)).body.data.panels).toEqual([]);
    emu.publishPanel(panel(1));
    emu.publishPanel(panel(2));
    const { panels } = (await api.get("/_emulator/panels").expect(200)).body.data;
    expect(panels).toHaveLength(1);
    expect(panels[0]).toMatchObject({ id: "drift", summary: [{ label: "calls", value: 2 }] });
    expect(panels[0].rows.map((r: { cells: string[] }) => r.cells[0])).toEqual(["op0", "op1"]);
    expect(Date.parse(panels[0].updated_at)).not.toBeNaN();
  });

  it("a malformed panel is refused and changes nothing", async () => {
    const before = (await api.get("/_emulator/panels").expect(200)).body.data.panels;
    expect(() => emu.publishPanel({ ...panel(3), id: "Not An Id" })).toThrow(/panel is invalid: id/);
    expect((await api.get("/_emulator/panels").expect(200)).body.data.panels).toEqual(before);
  });

  it("the dashboard's stream announces a published panel by id", async () => {
    const stream = await openStream(api.get("/_emulator/ui/stream"));
    try {
      await stream.until("event: hello");
      emu.publishPanel(panel(1));
      await stream.until("event: panel");
      expect(stream.text()).toContain('event: panel\ndata: {"id":"drift"}');
    } finally {
      stream.close();
    }
  });
});
