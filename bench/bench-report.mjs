// Printing for `npm run bench`: a scenario's task table, and every ratio as min / median / max over
// the runs beside its target. Shared by bench/index.mjs and the scenario modules' summaries.

export const fmt = (n) => (typeof n === 'number' ? n.toLocaleString('en-US') : String(n));

/** One scenario's tasks: ops/s, ns/op and the per-round figures, then its ratios. */
export function printTable(title, results, ratios, ratiosMean) {
  console.log(`\n== ${title} ==`);
  const rows = Object.entries(results).map(([name, r]) => [
    name,
    fmt(r.opsPerSec),
    Number(r.nsPerOp).toFixed(1),
    r.meanNsPerOp === undefined ? '-' : Number(r.meanNsPerOp).toFixed(1),
    r.rmePercent === undefined ? '-' : `±${r.rmePercent}%`,
    r.samples === undefined ? '-' : String(r.samples),
    r.rounds === undefined ? '-' : r.rounds.map(fmt).join(' / '),
  ]);
  const head = ['task', 'ops/s', 'ns/op (median)', 'ns/op (mean)', 'rme', 'samples', 'ops/s per round'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(line(head));
  // ops/s: the best of the interleaved rounds, each round's figure from its median batch time.
  for (const row of rows) console.log(line(row));
  for (const [name, value] of Object.entries(ratios ?? {}))
    console.log(
      `ratio ${name}: ${value}x${ratiosMean?.[name] === undefined ? '' : ` (on means: ${ratiosMean[name]}x)`}`,
    );
}

/**
 * A target: `{ atLeast }` or `{ atMost }`, judged on `on` ('median' by default; 'min' for "in every
 * run" of an at-least target, 'max' for an at-most one).
 */
export function describeTarget(target) {
  const on = target.on ?? 'median';
  const when = on === 'median' ? 'median' : 'every run';
  return target.atLeast !== undefined ? `${when} >= ${target.atLeast}` : `${when} <= ${target.atMost}`;
}

/** min / median / max of a ratio's runs, and whether its target is met. */
export function summarizeRuns(values, target) {
  const sorted = [...values].sort((a, b) => a - b);
  const row = {
    min: sorted[0],
    median: sorted[sorted.length >> 1],
    max: sorted[sorted.length - 1],
    runs: values,
  };
  if (target !== undefined) {
    const figure = row[target.on ?? 'median'];
    row.target = describeTarget(target);
    row.met = target.atLeast !== undefined ? figure >= target.atLeast : figure <= target.atMost;
  }
  return row;
}

/** Prints each ratio's line; returns the summary rows by name. */
export function printRatioSummary(title, ratioRuns, targets) {
  console.log(`\n== ${title} ==`);
  const summary = {};
  const width = Math.max(48, ...Object.keys(ratioRuns).map((name) => name.length + 1));
  for (const [name, values] of Object.entries(ratioRuns)) {
    const row = summarizeRuns(values, targets[name]);
    summary[name] = row;
    console.log(
      `${name.padEnd(width)} ${row.min}x / ${row.median}x / ${row.max}x` +
        (row.target === undefined ? '' : `   target ${row.target}: ${row.met ? 'met' : 'MISSED'}`),
    );
  }
  return summary;
}
