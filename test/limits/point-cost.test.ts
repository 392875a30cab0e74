// seed 000, "Point costs": the default cost of a request when the endpoint table gives none.
import { describe, expect, it } from 'vitest';
import { pointCost } from '../../src/limits/point-cost.js';
import { config } from './support.js';

describe('pointCost', () => {
  it('charges 1 to GET, HEAD and OPTIONS in any case, 5 to other methods', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS', 'get', undefined])
      expect(pointCost({ method }, config)).toBe(1);
    for (const method of ['POST', 'PATCH', 'PUT', 'DELETE']) expect(pointCost({ method }, config)).toBe(5);
  });

  it('charges GraphQL 1 per query and 5 with a mutation, whatever the method', () => {
    expect(pointCost({ graphql: true, method: 'POST' }, config)).toBe(1);
    expect(pointCost({ graphql: true, mutation: true }, config)).toBe(5);
  });

  it('throws TOLLGATE_INVALID_OPTION for a method that is not a string', () => {
    for (const method of [5, null, {}, ['GET']]) {
      expect(() => pointCost({ method: method as never }, config)).toThrow(
        expect.objectContaining({
          code: 'TOLLGATE_INVALID_OPTION',
          message: expect.stringContaining('`method`'),
        }),
      );
    }
  });
});
