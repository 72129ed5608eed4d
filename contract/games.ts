/** The games the service covers (path segment of Card Data, `game` fields). */
export const GAMES = ["pokemon", "onepiece", "azuki"] as const;
export type Game = (typeof GAMES)[number];
