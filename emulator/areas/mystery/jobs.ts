// What the area's worker jobs share (purchases, redemptions, buyback forwarding).

/** How a worker job reports a failure (logged; the worker goes on and re-arms). */
export type JobErrorHandler = (job: string, err: unknown) => void;
/** A job that failed is not due again for this long (the worker must not spin on it). */
export const JOB_RETRY_MS = 60 * 1000;
