import { runtimeSlot } from "../pipeline/runtime.ts";
import type { Services } from "../pipeline/services.ts";
import { z } from "../pipeline/schema.ts";
import { isoOf } from "../../contract/time.ts";
import { hostNow } from "../clock/clock.ts";

// Panels: reports that a tool composing the emulator publishes to the dashboard (shadow mode's drift
// report). A panel is plain data the page shows as it is: a title, a few figures and one table.
// Publishing replaces the panel of that id and tells every open dashboard (a `panel` event).

export const panelSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, "lower-case letters, digits and dashes"),
  title: z.string().min(1).max(200),
  /** Figures shown above the table. */
  summary: z.array(z.object({ label: z.string(), value: z.union([z.string(), z.number()]) })),
  columns: z.array(z.string()),
  /** `tone: "bad"` marks a row (a difference), `"ok"` one without. */
  rows: z.array(
    z.object({ cells: z.array(z.union([z.string(), z.number()])), tone: z.enum(["bad", "ok"]).optional() }),
  ),
  /** One line under the title. */
  note: z.string().optional(),
});

export type Panel = z.infer<typeof panelSchema>;
/** A panel as the dashboard reads it: with the wall-clock time it was last published. */
export type PublishedPanel = Panel & { updated_at: string };

class Panels {
  private readonly panels = new Map<string, PublishedPanel>();
  private readonly listeners = new Set<(id: string) => void>();

  /** Validates and stores the panel (replacing one of the same id), then tells the listeners. */
  publish(panel: Panel): void {
    const parsed = panelSchema.safeParse(panel);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"} ${i.message}`);
      throw new Error(`panel is invalid: ${issues.join("; ")}`);
    }
    this.panels.set(parsed.data.id, { ...parsed.data, updated_at: isoOf(hostNow()) });
    for (const l of this.listeners) l(parsed.data.id);
  }

  list(): PublishedPanel[] {
    return [...this.panels.values()];
  }

  subscribe(fn: (id: string) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
}

/** The published panels of one emulator (its runtime). */
const PANELS = runtimeSlot("dashboard panels", () => new Panels());

export function panelsOf(s: Services): Panels {
  return s.runtime.of(PANELS);
}
