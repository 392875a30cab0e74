/** Progress of `tollgate simulate` (and of `--recommend`) on stderr, with an estimate of the time left. */
import type { CliIo } from './io.js';

/** A progress display: `update` with the share done (0 to 1), `clear` when the work ends. */
export interface Progress {
  update(done: number): void;
  clear(): void;
}

/** How long the rest takes at the pace so far, for people. */
function timeLeft(elapsedMs: number, done: number): string {
  if (done >= 1) return 'done';
  if (done < 0.01 || elapsedMs < 200) return 'estimating the time left';
  const seconds = Math.ceil(((elapsedMs / done) * (1 - done)) / 1000);
  if (seconds < 1) return 'about 1 s left';
  return seconds < 120 ? `about ${seconds} s left` : `about ${Math.ceil(seconds / 60)} min left`;
}

/**
 * A progress bar on stderr: on a terminal, redrawn in place once a run has taken a second; with
 * `forced` (the `--progress` flag) also off a terminal, one line each time another tenth is done.
 * Nothing otherwise. Each display says the share done and an estimate of the time left.
 * @example
 * // const bar = progress(io, 'simulating', false);
 * // bar.update(0.4) -> '\rsimulating [############                  ] 40%, about 3 s left'
 */
export function progress(
  io: CliIo,
  label: string,
  forced: boolean,
  clock: () => number = Date.now,
): Progress {
  const started = clock();
  const terminal = io.stderrIsTty ?? io.isTty;
  let shown = false;
  let lastTenth = -1;
  let lastDraw = 0;
  let most = 0;
  return {
    update(done) {
      // Never backwards: a later estimate of the whole may be larger than an earlier one.
      const share = Math.max(most, Math.min(1, done));
      most = share;
      const now = clock();
      const text = `${label} ${Math.floor(share * 100)}%, ${timeLeft(now - started, share)}`;
      if (terminal) {
        if (!forced && now - started < 1000) return;
        if (now - lastDraw < 100 && share < 1) return;
        lastDraw = now;
        shown = true;
        const width = 30;
        const filled = Math.round(share * width);
        io.stderr(
          `\r${label} [${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${text.slice(label.length + 1)}   `,
        );
        return;
      }
      if (!forced) return;
      const tenth = Math.floor(share * 10);
      if (tenth === lastTenth) return;
      lastTenth = tenth;
      io.stderr(`${text}\n`);
    },
    clear() {
      if (shown) io.stderr(`\r${' '.repeat(label.length + 70)}\r`);
      shown = false;
    },
  };
}
