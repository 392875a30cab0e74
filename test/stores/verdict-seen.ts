// What a caller or a client sees of a verdict: the differential tests compare stores by it.
import type { Verdict } from '../../src/limits/verdict.js';

/** Everything a caller or a client sees of a verdict (a ticket: whether one was handed out; ids differ by store). */
export const seen = (v: Verdict) => ({
  allowed: v.allowed,
  reason: v.reason,
  rule: v.rule,
  resource: v.resource,
  limit: v.limit,
  remaining: v.remaining,
  used: v.used,
  reset: v.reset,
  retryAfter: v.retryAfter,
  status: v.status,
  headers: v.headers,
  body: v.body,
  ticket: v.ticket !== null,
});
