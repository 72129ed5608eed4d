import { call } from "./api.ts";
import { rowActions, type Row } from "./lifecycle-actions.ts";
import { act, type Page } from "./page.ts";

/**
 * The buttons of a record's row: one per action its lifecycle table allows from its status (lifecycle-actions.ts),
 * each calling the action's control route with the record's id. A button's test id is `<prefix><action name>-<id>`
 * (`order-ship-7`, `refund-3`): stable names scripts and tests click by.
 */
export function rowButtons(
  page: Page,
  lifecycle: string,
  row: Row,
  id: string | number,
  prefix = "",
): HTMLButtonElement[] {
  return rowActions(page.lifecycles, lifecycle, row).map((a) =>
    act(page, a.label, () => call(a, { ...a.body, [a.record]: id }), `${prefix}${a.name}-${id}`),
  );
}
