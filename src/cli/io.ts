/** What a CLI command may touch: its arguments, output streams and the exit code it returns. */

/** Streams a command writes to; tests pass string sinks. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** True when stdout is a terminal (progress bars, colours). */
  readonly isTty: boolean;
  /** True when stderr is a terminal (progress); read as `isTty` when not given. */
  readonly stderrIsTty?: boolean;
  /** Milliseconds for progress displays (when to draw, the time left); `Date.now` when not given. */
  readonly clock?: () => number;
}

/** A CLI command: parses its own arguments and returns the process exit code. */
export type Command = (args: readonly string[], io: CliIo) => Promise<number> | number;

/** Exit codes shared by every command. */
export const EXIT = { ok: 0, insufficient: 1, badInput: 2 } as const;

/** Thrown by commands for bad input; main prints `tollgate: <message>` and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
