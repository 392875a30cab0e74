// `tollgate check` held to the real-code corpus (test/fixtures/real/): every call site counted by
// reading the code. At least 90% of REST call sites per project and 95% overall found with the right
// route, every other site listed as unresolved (none silently dropped), every GraphQL call listed,
// no crash; false finds (calls found where nobody counted one) measured and kept at zero.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Call } from '../../src/check/call.js';
import { readSources } from '../../src/check/read-sources.js';
import { isTollgateError, shippedTables } from '../../src/index.js';
import { loadCorpus } from '../support/corpus.js';
import type { CorpusProject, ExpectedCall } from '../support/corpus-types.js';

const corpus = loadCorpus();

/** What the scanner made of one counted call site. */
type Outcome = 'found' | 'unresolved' | 'wrong' | 'missed';

interface ProjectResult {
  readonly id: string;
  readonly outcomes: ReadonlyMap<ExpectedCall, Outcome>;
  /** Calls found where the corpus counts none. */
  readonly falseFinds: readonly Call[];
  /** Files `check` could not read, with the line it gave. */
  readonly problems: readonly string[];
  /** GraphQL calls whose operation (query or mutation) was read as the corpus has it. */
  readonly operationsRight: number;
}

async function callsOf(project: CorpusProject): Promise<{ calls: Call[]; problems: string[] }> {
  const calls: Call[] = [];
  const problems: string[] = [];
  for (const file of project.callFiles) {
    try {
      const read = await readSources([join(project.dir, file)], shippedTables());
      for (const call of read.calls) calls.push(call);
      // Files `check` reports as unreadable (once per-file problems are reported rather than thrown).
      for (const problem of (read as unknown as { problems?: readonly { message: string }[] }).problems ?? [])
        problems.push(`${file}: ${problem.message}`);
    } catch (error) {
      // Bad input is reported as such (exit 2); anything else would be a crash.
      if (!isTollgateError(error)) throw error;
      problems.push(`${file}: ${error.message}`);
    }
  }
  return { calls, problems };
}

/**
 * True when a found `METHOD /path` is the counted route: the same, or a concrete path of it
 * (`gh api orgs/cli/public_members/$AUTHOR` reads `/orgs/cli/public_members/{author}`, a path of
 * `/orgs/{org}/public_members/{username}`). A parameter found must stand where the route has one.
 */
function sameRoute(route: string, found: string): boolean {
  const [method, path] = route.split(' ');
  const [foundMethod, foundPath] = found.split(' ');
  const segments = path!.split('/');
  const foundSegments = foundPath!.split('/');
  if (method !== foundMethod || segments.length !== foundSegments.length) return false;
  return segments.every((segment, i) => {
    const other = foundSegments[i]!;
    if (segment.startsWith('{')) return other !== '';
    return segment === other;
  });
}

function outcomeOf(expected: ExpectedCall, here: readonly Call[]): Outcome {
  if (expected.kind === 'graphql')
    return here.some((call) => call.graphql !== undefined) ? 'found' : 'missed';
  const unresolved = here.filter((call) => !call.resolved);
  if (expected.kind === 'unresolvable')
    return unresolved.length > 0 ? 'unresolved' : here.length > 0 ? 'wrong' : 'missed';
  // A call that can take several routes is found when each is found, or listed with each as a candidate.
  const resolved = here.filter((call) => call.resolved).map((call) => `${call.method} ${call.path}`);
  if (
    resolved.length > 0 &&
    expected.routes.every((route) => resolved.some((found) => sameRoute(route, found)))
  )
    return 'found';
  if (
    expected.acceptUnresolved &&
    unresolved.some((call) => expected.routes.every((route) => call.candidates?.includes(route)))
  )
    return 'found';
  if (unresolved.length > 0) return 'unresolved';
  return here.length > 0 ? 'wrong' : 'missed';
}

async function judge(project: CorpusProject): Promise<ProjectResult> {
  const { calls, problems } = await callsOf(project);
  const used = new Set<Call>();
  const outcomes = new Map<ExpectedCall, Outcome>();
  let operationsRight = 0;
  for (const expected of project.calls) {
    const lines = [
      expected.line,
      ...expected.alsoAt,
      ...(expected.definedAt === undefined ? [] : [expected.definedAt]),
    ];
    const here = calls.filter(
      (call) => call.origin.file === join(project.dir, expected.file) && lines.includes(call.origin.line),
    );
    for (const call of here) used.add(call);
    outcomes.set(expected, outcomeOf(expected, here));
    if (expected.kind === 'graphql' && here.some((call) => call.graphql?.operation === expected.operation))
      operationsRight++;
  }
  const uncounted = project.notCounted.flatMap((call) => call.lines.map((line) => `${call.file}:${line}`));
  const falseFinds = calls.filter(
    (call) =>
      !used.has(call) &&
      !uncounted.includes(`${call.origin.file.slice(project.dir.length + 1)}:${call.origin.line}`),
  );
  return { id: project.id, outcomes, falseFinds, problems, operationsRight };
}

const results: ProjectResult[] = [];

function count(result: ProjectResult, kind: ExpectedCall['kind'], outcome?: Outcome): number {
  return [...result.outcomes].filter(
    ([call, got]) => call.kind === kind && (outcome === undefined || got === outcome),
  ).length;
}

describe('tollgate check on the real-code corpus', () => {
  for (const project of corpus) {
    it(`${project.id}: finds ≥ 90% of REST call sites with the right route, lists every other one and every GraphQL call`, async () => {
      const result = await judge(project);
      results.push(result);
      const rest = count(result, 'rest');
      const lost = [...result.outcomes].filter(([, outcome]) => outcome === 'missed' || outcome === 'wrong');
      expect(lost.map(([call, outcome]) => `${call.file}:${call.line} ${call.match}: ${outcome}`)).toEqual(
        [],
      );
      if (rest > 0) expect(count(result, 'rest', 'found') / rest).toBeGreaterThanOrEqual(0.9);
      expect(count(result, 'graphql', 'found')).toBe(count(result, 'graphql'));
      expect(result.falseFinds.map((call) => `${call.origin.file}:${call.origin.line} ${call.via}`)).toEqual(
        [],
      );
    });
  }

  it('finds ≥ 95% of all REST call sites with the right route', async () => {
    const all = await Promise.all(corpus.map(judge));
    const rest = all.reduce((sum, result) => sum + count(result, 'rest'), 0);
    const found = all.reduce((sum, result) => sum + count(result, 'rest', 'found'), 0);
    expect(rest).toBeGreaterThan(50);
    expect(found / rest).toBeGreaterThanOrEqual(0.95);
  });
});

afterAll(() => {
  // The figures for the report: found / unresolved / missed / false per project.
  const lines = results.map((result) => {
    const rest = count(result, 'rest');
    const graphql = count(result, 'graphql');
    return `${result.id}: REST ${count(result, 'rest', 'found')}/${rest} found, ${count(result, 'rest', 'unresolved')} unresolved; GraphQL ${count(result, 'graphql', 'found')}/${graphql} listed (${result.operationsRight} with the right operation); ${result.falseFinds.length} false; ${result.problems.length} unreadable files`;
  });
  if (process.env.TOLLGATE_CORPUS_FIGURES !== undefined) console.info(lines.join('\n'));
});
