// A world that cannot be used, every problem named by its path: its own module, so the package's public
// types (emulator/public.ts) name it without the world's schema.

export class WorldError extends Error {
  constructor(
    readonly file: string,
    readonly problems: readonly string[],
  ) {
    super(
      `world ${file}: ${problems.length} problem${problems.length === 1 ? "" : "s"}\n${problems.map((p) => `  ${p}`).join("\n")}`,
    );
    this.name = "WorldError";
  }
}
