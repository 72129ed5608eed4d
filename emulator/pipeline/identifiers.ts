import { badRequest } from "./errors.ts";

export const MAX_IDENTIFIER = 255;

/** Identifiers over 255 characters are 400 identifier_too_long. */
export function checkIdentifier(value: string, name: string): void {
  if (value.length > MAX_IDENTIFIER)
    throw badRequest(
      "identifier_too_long",
      `${name} is ${value.length} characters; identifiers are at most ${MAX_IDENTIFIER}`,
    );
}
