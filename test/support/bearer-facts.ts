// A request as an adapter hands it to the gate: one method, one target, a bearer token, one address.
import type { RequestFacts } from '../../src/index.js';

/** The facts of `method target` sent with `Authorization: Bearer s3cret` from 203.0.113.7. */
export const bearerFacts = (method: string, target: string): RequestFacts => ({
  method,
  target,
  header: (name) => (name === 'authorization' ? 'Bearer s3cret' : undefined),
  remoteAddress: '203.0.113.7',
});
