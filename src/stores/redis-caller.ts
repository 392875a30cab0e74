/** How the store's calls reach Redis: its function library by `FCALL` (Redis 7), else its script by `EVALSHA`. */
import { createHash } from 'node:crypto';
import type { LimitsConfig } from '../limits/limits-config.js';
import { decodeAnswer, type ScriptAnswer } from './redis-protocol.js';
import { limitsLibrary, limitsScript } from './redis-script.js';
import type { RedisClientLike } from './redis-store-options.js';

/** Replies that say this server has no functions (Redis 6) or this user may not use them (ACL). */
const UNSUPPORTED = /unknown command|unknown subcommand|NOPERM/i;
const NOT_FOUND = 'Function not found';

/** The code of one config, both ways. */
interface LimitsCode {
  readonly config: LimitsConfig;
  readonly name: string;
  readonly library: string;
  readonly script: string;
  readonly sha: string;
  loading?: Promise<unknown> | undefined;
}

/** Calls the limits code of a config with an identity's keys and the event's arguments. */
export interface LimitsCaller {
  call(
    config: LimitsConfig,
    keys: readonly string[],
    args: readonly (string | number | Buffer)[],
  ): Promise<ScriptAnswer>;
  /** `function` while calls go by `FCALL`; `script` once functions are missing or refused (for good). */
  readonly mode: 'function' | 'script';
}

const messageOf = (error: unknown) => String((error as Error | undefined)?.message);

/**
 * Each config's code, generated once: the script is written per config (only its logs and
 * buckets), so a caller that alternates configs must not regenerate and hash it on every call.
 */
const codes = new WeakMap<LimitsConfig, LimitsCode>();

function codeOf(config: LimitsConfig): LimitsCode {
  let code = codes.get(config);
  if (code === undefined) {
    const script = limitsScript(config);
    const sha = createHash('sha1').update(script).digest('hex');
    const name = `tollgate_${sha.slice(0, 20)}`;
    code = { config, name, library: limitsLibrary(config, name), script, sha };
    codes.set(config, code);
  }
  return code;
}

/**
 * A caller over `client`. With Redis 7 functions, the library (named after its code's SHA-1) is
 * loaded on the first `Function not found` (a new, restarted or `FUNCTION FLUSH`ed server; on
 * every master of a Cluster), once however many calls wait, and each call is one `FCALL`: the
 * library's ~35 functions are defined at load, not on every call as a script's are. A server
 * without functions, or a user the ACL refuses them, gets `EVALSHA` (the script sent whole on
 * `NOSCRIPT`) from then on. Either way one round trip per call once loaded.
 * @example
 * import { Redis } from 'ioredis';
 * import { createLimitsCaller } from './redis-caller.js';
 * const caller = createLimitsCaller(new Redis({ lazyConnect: true }));
 * caller.mode; // 'function'
 */
export function createLimitsCaller(client: RedisClientLike): LimitsCaller {
  let functions = typeof client.function === 'function';
  const answer = (command: string, ...args: (string | number | Buffer)[]) =>
    client.callBuffer(command, ...args).then(decodeAnswer);
  let code: LimitsCode | undefined;

  const codeFor = (config: LimitsConfig): LimitsCode => {
    if (code?.config !== config) code = codeOf(config);
    return code;
  };

  const viaScript = (c: LimitsCode, keys: readonly string[], args: readonly (string | number | Buffer)[]) =>
    answer('evalsha', c.sha, keys.length, ...keys, ...args).catch((error: unknown) => {
      if (!messageOf(error).startsWith('NOSCRIPT')) throw error;
      // A restarted or new server: send the script whole; it is cached by SHA from then on.
      return answer('eval', c.script, keys.length, ...keys, ...args);
    });

  /** Functions are missing or refused here: scripts from now on. */
  const toScripts = (c: LimitsCode, keys: readonly string[], args: readonly (string | number | Buffer)[]) => {
    functions = false;
    return viaScript(c, keys, args);
  };

  const load = (c: LimitsCode): Promise<unknown> => {
    const targets = typeof client.nodes === 'function' ? client.nodes('master') : [client];
    c.loading ??= Promise.all(targets.map((node) => node.function?.('LOAD', 'REPLACE', c.library))).finally(
      () => {
        c.loading = undefined;
      },
    );
    return c.loading;
  };

  const viaFunction = (c: LimitsCode, keys: readonly string[], args: readonly (string | number | Buffer)[]) =>
    client
      .callBuffer('fcall', c.name, keys.length, ...keys, ...args)
      .then(decodeAnswer, (error: unknown): Promise<ScriptAnswer> => {
        const message = messageOf(error);
        if (UNSUPPORTED.test(message)) return toScripts(c, keys, args);
        if (!message.includes(NOT_FOUND)) throw error;
        return load(c).then(
          () =>
            answer('fcall', c.name, keys.length, ...keys, ...args).catch((again: unknown) => {
              // Loaded, yet not where the keys live (a Cluster client that lists no masters).
              if (messageOf(again).includes(NOT_FOUND)) return toScripts(c, keys, args);
              throw again;
            }),
          (loadError: unknown) => {
            if (UNSUPPORTED.test(messageOf(loadError))) return toScripts(c, keys, args);
            throw loadError;
          },
        );
      });

  return {
    call(config, keys, args) {
      const c = codeFor(config);
      return functions ? viaFunction(c, keys, args) : viaScript(c, keys, args);
    },
    get mode() {
      return functions ? 'function' : 'script';
    },
  };
}
