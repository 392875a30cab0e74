// The CPU share's accounting (src/gate/cpu-share.ts): whatever the order of starts, stops and CPU
// spent, the charges add up to the CPU used while anything was in flight, none is negative, a
// request is charged once, and a request alone is charged exactly what was spent while it ran.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CpuMark, createCpuShare } from '../../src/gate/cpu-share.js';

type Step = { op: 'start' } | { op: 'stop'; pick: number } | { op: 'spend'; ms: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.constant({ op: 'start' as const }),
  fc.record({ op: fc.constant('stop' as const), pick: fc.nat(50) }),
  fc.record({ op: fc.constant('spend' as const), ms: fc.integer({ min: 0, max: 1000 }) }),
);

describe('the CPU share', () => {
  it('charges add up to the CPU spent while anything was in flight, each request once', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        let cpu = 0;
        const share = createCpuShare(() => cpu);
        const open: CpuMark[] = [];
        let charged = 0;
        let busy = 0;
        for (const s of steps) {
          if (s.op === 'start') open.push(share.start());
          else if (s.op === 'spend') {
            cpu += s.ms;
            if (open.length > 0) busy += s.ms;
          } else if (open.length > 0) {
            const [mark] = open.splice(s.pick % open.length, 1);
            const charge = share.stop(mark!);
            expect(charge).toBeGreaterThanOrEqual(0);
            charged += charge;
            expect(share.stop(mark!)).toBe(0);
          }
        }
        // What is still in flight is charged at its stop: stop them all, in order.
        for (const mark of open) charged += share.stop(mark);
        expect(charged).toBeCloseTo(busy, 6);
      }),
    );
  });

  it('charges a request alone exactly the CPU spent while it ran, nothing from before or after', () => {
    fc.assert(
      fc.property(fc.nat(1000), fc.nat(1000), fc.nat(1000), (before, during, after) => {
        let cpu = 0;
        const share = createCpuShare(() => cpu);
        cpu += before;
        const mark = share.start();
        cpu += during;
        expect(share.stop(mark)).toBe(during);
        cpu += after;
        const next = share.start();
        expect(share.stop(next)).toBe(0);
      }),
    );
  });
});
