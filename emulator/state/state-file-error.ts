// The error a state file that cannot be used throws: its own module, so the package's public types
// (emulator/public.ts) name it without the store behind the state file.

/** A state file that cannot be used: `reason` says why, `remedy` what to do (the CLI prints both on one line). */
/** How a caller names the options a remedy mentions: `createEmulator`'s option names, or the CLI's flags. */
export interface OptionNames {
  state: string;
  seed: string;
  catalog: string;
}

/** `createEmulator`'s names: an in-process error never names a CLI flag. */
export const OPTION_NAMES: OptionNames = { state: "stateFile", seed: "seed", catalog: "catalog" };

export class StateFileError extends Error {
  /**
   * `remedy` names options as `{state}`, `{seed}` and `{catalog}`; the message says them as `createEmulator`'s
   * options, and the CLI asks `remedyIn` with its flags.
   */
  constructor(
    readonly file: string,
    readonly reason: string,
    private readonly remedyText: string,
  ) {
    super(`state file ${file}: ${reason}. ${fillNames(remedyText, OPTION_NAMES)}`);
  }

  /** The remedy with the options named as `names` says them. */
  remedyIn(names: OptionNames): string {
    return fillNames(this.remedyText, names);
  }
}

const fillNames = (text: string, names: OptionNames): string =>
  text.replace(/\{(state|seed|catalog)\}/g, (_, k: keyof OptionNames) => names[k]);
