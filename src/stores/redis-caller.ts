/** How the store's calls reach Redis: its function library by `FCALL` (Redis 7), else its script by `EVALSHA`. */
import { createHash } from 'node:crypto';
import { TollgateError } from '../core/errors.js';
import type { LimitsConfig } from '../limits/limits-config.js';
import { eventErrors } from './redis-call-watch.js';
import { decodeAnswer, type ScriptAnswer } from './redis-protocol.js';
import { batchFunction, limitsLibrary, limitsScript } from './redis-script.js';
import type { RedisClientLike } from './redis-store-options.js';

/** Replies that say this server has no functions (Redis 6) or this user may not use them (ACL). */
const UNSUPPORTED = /unknown command|unknown subcommand|NOPERM/i;
const NOT_FOUND = 'Function not found';

/** The code of one config, both ways. */
interface LimitsCode {
  readonly config: LimitsConfig;
  readonly name: string;
  /** The library's batch function (\`run_batch\`). */
  readonly batchName: string;
  readonly library: string;
  readonly script: string;
  readonly sha: string;
  /** Rethrow a call's error, marked as its event's own when this code's run raised it (by function; by script). */
  readonly functionError: (error: unknown) => never;
  readonly scriptError: (error: unknown) => never;
  loading?: Promise<unknown> | undefined;
}

/** Calls the limits code of a config with an identity's keys and the event's arguments. */
export interface LimitsCaller {
  call(
    config: LimitsConfig,
    keys: readonly string[],
    args: readonly (string | number | Buffer)[],
  ): Promise<ScriptAnswer>;
  /**
   * Runs \`make\`, which makes calls: those made meanwhile go to Redis together, as one \`FCALL\`
   * of the library's batch function per config (one event each, in order), before \`collect\`
   * returns. Each call's promise settles with its own answer or error.
   */
  collect(make: () => void): void;
  /** `function` while calls go by `FCALL`; `script` once functions are missing or refused (for good). */
  readonly mode: 'function' | 'script';
}

/**
 * Rethrows a call's error, marked as its event's own when the code's run raised it (a key holding
 * another type, a value it cannot read): Redis names the running code in such an error
 * (\`script: <name>, on @user_function:<line>.\`), never in a refusal before the run (OOM, BUSY,
 * NOPERM, \`Function not found\`) or a connection's failure. So one such key fails its event
 * alone, sent alone as in a batch (redis-call-watch.ts).
 */
const ownError =
  (code: string) =>
  (error: unknown): never => {
    if (messageOf(error).includes(`script: ${code},`)) eventErrors.add(error as Error);
    throw error;
  };

/** Whether a call fits the batch function: one key, one argument. */
const batchable = (call: Collected) => call.keys.length === 1 && call.args.length === 1;

/** A call made inside \`collect\`, waiting to be sent with the others. */
interface Collected {
  readonly code: LimitsCode;
  readonly keys: readonly string[];
  readonly args: readonly (string | number | Buffer)[];
  readonly resolve: (answer: ScriptAnswer) => void;
  readonly reject: (error: unknown) => void;
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
    // Named after the library's own code: a server holding an older library under another name
    // (one without the batch function) gets this one loaded beside it on the first call.
    const unnamed = limitsLibrary(config, 'tollgate');
    const name = `tollgate_${createHash('sha1').update(unnamed).digest('hex').slice(0, 20)}`;
    const library = limitsLibrary(config, name);
    code = {
      config,
      name,
      batchName: batchFunction(name),
      library,
      script,
      sha,
      functionError: ownError(name),
      scriptError: ownError(sha),
    };
    codes.set(config, code);
  }
  return code;
}

/**
 * A caller over `client`. With Redis 7 functions, the library (named after its code's SHA-1) is
 * loaded on the first `Function not found` (a new, restarted or `FUNCTION FLUSH`ed server; on
 * every master of a Cluster), once however many calls wait, and each call is one `FCALL`: the
 * library's ~35 functions are defined at load, not on every call as a script's are. Calls made
 * inside `collect` go as one `FCALL` of the batch function instead, one event per key (a server
 * that refuses keys of several hash slots in one call, CROSSSLOT, gets one event per call from
 * then on). A server without functions, or a user the ACL refuses them, gets `EVALSHA` (the
 * script sent whole on `NOSCRIPT`), one event per call, from then on. Either way one round trip
 * per event once loaded.
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
    answer('evalsha', c.sha, keys.length, ...keys, ...args)
      .catch((error: unknown) => {
        if (!messageOf(error).startsWith('NOSCRIPT')) throw error;
        // A restarted or new server: send the script whole; it is cached by SHA from then on.
        return answer('eval', c.script, keys.length, ...keys, ...args);
      })
      .catch(c.scriptError);

  const load = (c: LimitsCode): Promise<unknown> => {
    const targets = typeof client.nodes === 'function' ? client.nodes('master') : [client];
    c.loading ??= Promise.all(targets.map((node) => node.function?.('LOAD', 'REPLACE', c.library))).finally(
      () => {
        c.loading = undefined;
      },
    );
    return c.loading;
  };

  /**
   * \`attempt\` by \`FCALL\`: on \`Function not found\` the library is loaded and it is tried once
   * more; where functions are missing or refused, \`scripts\` from then on.
   */
  const withLibrary = <T>(c: LimitsCode, attempt: () => Promise<T>, scripts: () => Promise<T>): Promise<T> =>
    attempt().catch((error: unknown): Promise<T> => {
      const message = messageOf(error);
      const toScripts = () => {
        functions = false;
        return scripts();
      };
      if (UNSUPPORTED.test(message)) return toScripts();
      if (!message.includes(NOT_FOUND)) throw error;
      return load(c).then(
        () =>
          attempt().catch((again: unknown) => {
            // Loaded, yet not where the keys live (a Cluster client that lists no masters).
            if (messageOf(again).includes(NOT_FOUND)) return toScripts();
            throw again;
          }),
        (loadError: unknown) => {
          if (UNSUPPORTED.test(messageOf(loadError))) return toScripts();
          throw loadError;
        },
      );
    });

  const viaFunction = (c: LimitsCode, keys: readonly string[], args: readonly (string | number | Buffer)[]) =>
    withLibrary(
      c,
      () =>
        client.callBuffer('fcall', c.name, keys.length, ...keys, ...args).then(decodeAnswer, c.functionError),
      () => viaScript(c, keys, args),
    );

  /** Each call's own answer or error, as the batch function answered it (a nested error reply is an Error). */
  const settleEach = (calls: readonly Collected[], replies: unknown) => {
    if (!Array.isArray(replies) || replies.length !== calls.length)
      throw new TollgateError(
        'TOLLGATE_INVALID_OPTION',
        `redis store: the client's \`callBuffer\` answered a batch of ${calls.length} with ${Array.isArray(replies) ? `${replies.length} replies` : typeof replies}; give a client whose callBuffer resolves to Redis's reply (ioredis's does)`,
      );
    for (let i = 0; i < calls.length; i++) {
      const reply: unknown = replies[i];
      if (reply instanceof Error) {
        eventErrors.add(reply);
        calls[i]!.reject(reply);
      } else {
        let decoded: ScriptAnswer;
        try {
          decoded = decodeAnswer(reply);
        } catch (error) {
          calls[i]!.reject(error);
          continue;
        }
        calls[i]!.resolve(decoded);
      }
    }
  };

  /** Each call sent alone, as calls went before batches: by function, or by script once functions are gone. */
  const alone = (c: LimitsCode, calls: readonly Collected[]) => {
    for (const call of calls) {
      const keys = call.keys;
      (functions ? viaFunction(c, keys, call.args) : viaScript(c, keys, call.args)).then(
        call.resolve,
        call.reject,
      );
    }
  };

  /**
   * False once the server refused a batch for naming keys of several hash slots (cluster mode
   * behind a plain client, or a proxy of a sharded database): one event to a call from then on.
   */
  let batches = true;

  /** Calls of one config made in one \`collect\`: one \`FCALL\` of the batch function (one alone: as ever). */
  const sendBatch = (c: LimitsCode, calls: readonly Collected[]) => {
    if (calls.length === 1 || !functions || !batches) {
      alone(c, calls);
      return;
    }
    const keys = calls.map((call) => call.keys[0]!);
    // Each call's argument is one binary string (redis-protocol.ts): ARGV[i] goes with KEYS[i].
    const args = calls.map((call) => call.args[0]!);
    withLibrary(
      c,
      () =>
        client
          .callBuffer('fcall', c.batchName, keys.length, ...keys, ...args)
          .then((replies) => settleEach(calls, replies)),
      // No functions here: each call by its script, each answering for itself.
      async () => alone(c, calls),
    ).catch((error: unknown) => {
      // Refused whole, before any event ran: sent again one by one, and never batched again.
      if (messageOf(error).includes('CROSSSLOT')) {
        batches = false;
        alone(c, calls);
        return;
      }
      for (const call of calls) call.reject(error);
    });
  };

  /** Calls made inside \`collect\`, null outside one. */
  let collected: Collected[] | null = null;

  return {
    call(config, keys, args) {
      const c = codeFor(config);
      if (collected !== null)
        return new Promise<ScriptAnswer>((resolve, reject) => {
          collected!.push({ code: c, keys, args, resolve, reject });
        });
      return functions ? viaFunction(c, keys, args) : viaScript(c, keys, args);
    },
    collect(make) {
      if (collected !== null) return make();
      const calls: Collected[] = [];
      collected = calls;
      try {
        make();
      } finally {
        collected = null;
        // In order, one batch per run of calls of one config that each name one key with one
        // argument (the store's calls do: one batch); any other call is a run of its own, sent alone.
        let from = 0;
        for (let i = 1; i <= calls.length; i++)
          if (
            i === calls.length ||
            calls[i]!.code !== calls[from]!.code ||
            !batchable(calls[i]!) ||
            !batchable(calls[from]!)
          ) {
            sendBatch(calls[from]!.code, calls.slice(from, i));
            from = i;
          }
      }
    },
    get mode() {
      return functions ? 'function' : 'script';
    },
  };
}
