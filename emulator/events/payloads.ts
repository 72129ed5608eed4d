// The event payload shapes live in the contract (contract/events.ts); re-exported for the areas.
export { EVENT_PAYLOADS, type PartnerEventType } from "../../contract/events.ts";
