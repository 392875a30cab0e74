// The gate without a server: its answers to lookups of every shape, and its options' checks.
import { describe, expect, it } from 'vitest';
import { withTollgate } from '../../src/adapters/fetch.js';
import { createGate, type RequestFacts, type Token } from '../../src/index.js';

const token: Token = {
  kind: 'fine-grained',
  permissions: { issues: 'read' },
  repositories: 'all',
  user: 'mona',
};
const facts = (authorization?: string): RequestFacts => ({
  method: 'GET',
  target: '/repos/octo/app/issues/events',
  header: (name) => (name === 'authorization' ? authorization : undefined),
  remoteAddress: '203.0.113.7',
});

describe('the gate', () => {
  it('awaits a lookup that answers with any thenable, not only a native promise', async () => {
    // biome-ignore lint/suspicious/noThenProperty: a thenable is what this test is about.
    const thenable = { then: (resolve: (value: Token) => void) => resolve(token) };
    const gate = createGate({ lookupToken: () => thenable as unknown as Promise<Token> });
    const answer = await gate.check(facts('Bearer s3cret'));
    expect(answer.action).toBe('pass');
  });

  it('answers synchronously when the lookup and the store do', () => {
    const gate = createGate({ lookupToken: () => token });
    const answer = gate.check(facts('Bearer s3cret'));
    expect(answer).not.toBeInstanceOf(Promise);
    expect((answer as { action: string }).action).toBe('pass');
  });

  it('decodes Basic credentials as UTF-8', async () => {
    const seen: string[] = [];
    const gate = createGate({
      lookupToken: (secret) => {
        seen.push(secret);
        return { kind: 'client-credentials', app: 'a' };
      },
    });
    await gate.check(facts(`Basic ${Buffer.from('id:pässwörd').toString('base64')}`));
    expect(seen).toEqual(['id:pässwörd']);
  });

  it('refuses to build a fetch gate that would key every anonymous caller alike, unless told to', () => {
    expect(() => withTollgate(() => new Response(), { lookupToken: () => null }, {} as never)).toThrow(
      /give `clientAddress/,
    );
    expect(() =>
      withTollgate(() => new Response(), { lookupToken: () => null }, { clientAddress: null }),
    ).not.toThrow();
  });

  it('needs a way to know tokens', () => {
    expect(() => createGate({})).toThrow(/give `lookupToken`/);
  });
});
