// Shared fast-check configuration: the run's seed (chosen in vitest.config.ts) and the number of
// runs (1,000 in CI, where the issues ask for it; fewer locally to keep the loop quick).
import fc from 'fast-check';

export const fcSeed = Number(process.env.FC_SEED);
export const fcRuns = process.env.CI ? 1000 : 200;

fc.configureGlobal({ seed: fcSeed, numRuns: fcRuns, endOnFailure: false });
