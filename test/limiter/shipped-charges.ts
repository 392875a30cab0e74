// The shipped table's distinct limit charges: its 500-odd rows hold a handful of them (content,
// search, `GET /rate_limit`'s uncounted primary), which the limiter property tests draw from.
import { shippedTables } from '../../src/index.js';
import type { LimitCharge } from '../../src/limits.js';

export const shippedCharges: LimitCharge[] = [
  ...new Map(shippedTables().endpoints.map((entry) => [JSON.stringify(entry.charge), entry.charge])).values(),
];
