// The declarative option checker every factory uses: all problems at once, the first in the message.
import { describe, expect, it } from 'vitest';
import { checkOptions, defineOptions } from '../../src/core/check-options.js';
import { anyOf, func, number, object, oneOf, record, required, text } from '../../src/core/option-rules.js';
import { isTollgateError } from '../../src/index.js';

const SPEC = defineOptions('createThing', {
  fields: {
    mode: oneOf(['fast', 'safe']),
    size: number({ min: 1, max: 10, integer: true }),
    hook: func(),
    name: text(),
    nested: object({ fields: { status: oneOf([403, 429]) } }),
    labels: record(text()),
    either: anyOf(func(), oneOf([null])),
    client: required(func()),
  },
});

function thrown(options: unknown): { code: string; message: string; details: readonly string[] } {
  try {
    checkOptions(SPEC, options);
  } catch (error) {
    if (!isTollgateError(error)) throw error;
    return error;
  }
  throw new Error('no error thrown');
}

describe('checkOptions', () => {
  it('passes good options and ignores options set to undefined', () => {
    expect(() =>
      checkOptions(SPEC, {
        client: () => 1,
        mode: 'fast',
        size: 3,
        nested: { status: 429 },
        either: null,
        hook: undefined,
      }),
    ).not.toThrow();
  });

  it('reports every problem in details and the first in a one-line message', () => {
    const error = thrown({ mode: 'quick', size: 11, nested: { status: 418 }, labels: { a: '' } });
    expect(error.code).toBe('TOLLGATE_INVALID_OPTION');
    expect(error.details).toEqual([
      'createThing: `mode` must be one of `fast`, `safe`, got `"quick"`',
      'createThing: `size` must be an integer >= 1 and <= 10, got `11`',
      'createThing: `nested.status` must be one of 403, 429, got `418`',
      'createThing: `labels.a` must be a non-empty string, got `""`',
      'createThing: `client` is required: give a function',
    ]);
    expect(error.message).toBe(
      'createThing: `mode` must be one of `fast`, `safe`, got `"quick"` (and 4 more: see details)',
    );
    expect(error.message).not.toContain('\n');
  });

  it('names an unknown option with the closest valid name and lists the valid ones', () => {
    const error = thrown({ client: () => 1, hok: () => 1, nested: { statu: 429 } });
    expect(error.details).toEqual([
      'createThing: unknown option `hok` (did you mean `hook`?); valid: mode, size, hook, name, nested, labels, either, client',
      'createThing: unknown option `nested.statu` (did you mean `status`?); valid: status',
    ]);
  });

  it.each([
    [null, '`null`'],
    [42, '`42`'],
    ['x', '`"x"`'],
    [[], 'an array'],
    [Symbol('s'), 'a symbol'],
  ])('refuses options that are not an object: %s', (options, shown) => {
    expect(thrown(options).message).toBe(`createThing: options must be an object, got ${shown}`);
  });

  it('says so in one line when reading the options throws (a getter, a Proxy)', () => {
    const getter = Object.defineProperty({}, 'client', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    const proxy = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('trap');
        },
      },
    );
    for (const options of [getter, proxy])
      expect(thrown(options).message).toBe(
        'createThing: options could not be read: a getter or a Proxy trap threw',
      );
  });

  it('names the group of which one option is required', () => {
    const spec = defineOptions('createGate', { fields: { a: func(), b: func() }, oneRequired: [['a', 'b']] });
    expect(() => checkOptions(spec, {})).toThrow('createGate: give `a` or `b`');
  });
});
