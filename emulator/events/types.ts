// The event names are read off the contract's lifecycle tables (contract/events.ts); re-exported for the areas.
export {
  PARTNER_EVENT_TYPES,
  WAREHOUSE_EVENT_TYPES,
  EVENT_TYPES,
  NOT_LIVE_EVENT_TYPES,
  type EventType,
} from "../../contract/events.ts";
