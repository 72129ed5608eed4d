// A catalog overlay that cannot be used: its own module, so the package's public types (emulator/public.ts)
// name it without the contract's schemas behind the overlay.
export class OverlayError extends Error {}
