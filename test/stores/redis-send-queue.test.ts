// The store's calls of one event-loop turn go out together (one socket write), in order, each
// built when it goes out; a client without a socket of its own sends each call at once.
import { describe, expect, it } from 'vitest';
import { createSendQueue } from '../../src/stores/redis-send-queue.js';
import type { RedisClientLike } from '../../src/stores/redis-store-options.js';

/** A client whose socket records what was sent while it was held (corked). */
function recordingClient() {
  const log: string[] = [];
  let corked = 0;
  const client = {
    stream: {
      cork: () => {
        corked++;
        log.push('cork');
      },
      uncork: () => {
        corked--;
        log.push('uncork');
      },
    },
  } as unknown as RedisClientLike;
  const send = (name: string) => () => {
    log.push(`${name}${corked > 0 ? ' (held)' : ''}`);
    return Promise.resolve(name);
  };
  return { client, log, send };
}

describe('createSendQueue', () => {
  it('sends the calls of one turn when it ends (each built then), in order, in one held write', async () => {
    const { client, log, send } = recordingClient();
    const queue = createSendQueue(client);
    const answers = [queue.later(send('a')), queue.later(send('b')), queue.later(send('c'))];
    log.push('turn goes on');
    expect(await Promise.all(answers)).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['turn goes on', 'cork', 'a (held)', 'b (held)', 'c (held)', 'uncork']);
  });

  it('writes a full batch at once, without waiting for the turn to end', () => {
    const { client, log, send } = recordingClient();
    const queue = createSendQueue(client);
    for (let i = 0; i < 16; i++) void queue.later(send(`${i}`));
    expect(log[0]).toBe('cork');
    expect(log.filter((entry) => entry.endsWith('(held)'))).toHaveLength(16);
    expect(log.at(-1)).toBe('uncork');
  });

  it('sends at once through a client without a socket of its own (a Cluster)', () => {
    const sent: string[] = [];
    const queue = createSendQueue({} as RedisClientLike);
    void queue.later(() => {
      sent.push('now');
      return Promise.resolve(1);
    });
    expect(sent).toEqual(['now']);
  });

  it('hands a call that throws while being built its error, and sends the others', async () => {
    const { client, send } = recordingClient();
    const queue = createSendQueue(client);
    const broken = queue.later(() => {
      throw new Error('no such config');
    });
    const fine = queue.later(send('fine'));
    await expect(broken).rejects.toThrow('no such config');
    expect(await fine).toBe('fine');
  });
});
