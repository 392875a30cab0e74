// The progress display of `tollgate simulate`, on a clock the test moves by hand.
import { describe, expect, it } from 'vitest';
import { progress } from '../../src/cli/simulate-progress.js';

function display(terminal: boolean, forced: boolean) {
  let now = 0;
  let written = '';
  const bar = progress(
    { stdout: () => {}, stderr: (text) => (written += text), isTty: terminal },
    'simulating',
    forced,
    () => now,
  );
  return {
    bar,
    at(ms: number) {
      now = ms;
    },
    take() {
      const text = written;
      written = '';
      return text;
    },
  };
}

describe('the simulate progress display', () => {
  it('stays silent on a terminal for the first second, then redraws at most every 100 ms, and clears', () => {
    const shown = display(true, false);
    shown.bar.update(0);
    shown.at(999);
    shown.bar.update(0.5);
    expect(shown.take()).toBe('');
    shown.at(1000);
    shown.bar.update(0.5);
    // 0.5 done in 1 s: about 1 s left.
    expect(shown.take()).toBe(`\rsimulating [${'#'.repeat(15)}${' '.repeat(15)}] 50%, about 1 s left   `);
    shown.at(1099);
    shown.bar.update(0.6);
    expect(shown.take()).toBe('');
    shown.at(1100);
    shown.bar.update(1);
    expect(shown.take()).toBe(`\rsimulating [${'#'.repeat(30)}] 100%, done   `);
    shown.bar.clear();
    expect(shown.take()).toBe(`\r${' '.repeat('simulating'.length + 70)}\r`);
    shown.bar.clear();
    expect(shown.take()).toBe('');
  });

  it('never goes backwards when a later estimate of the whole is larger', () => {
    const shown = display(false, true);
    shown.bar.update(0.45);
    shown.at(10_000);
    shown.bar.update(0.3);
    expect(shown.take()).toBe('simulating 45%, estimating the time left\n');
  });

  it('writes one line per tenth off a terminal when forced, in minutes past two, and nothing unforced', () => {
    const forced = display(false, true);
    forced.bar.update(0);
    forced.at(60_000);
    forced.bar.update(0.2);
    forced.bar.update(0.25);
    forced.at(300_000);
    forced.bar.update(0.5);
    expect(forced.take()).toBe(
      'simulating 0%, estimating the time left\nsimulating 20%, about 4 min left\nsimulating 50%, about 5 min left\n',
    );
    const quiet = display(false, false);
    quiet.at(5000);
    quiet.bar.update(0.5);
    quiet.bar.clear();
    expect(quiet.take()).toBe('');
  });
});
