/** tollgate/fetch: the gate around any `(Request) => Response` handler (Hono, Bun, Deno, workers). */
import {
  createGate,
  type Gate,
  type GateAnswer,
  type GateOptions,
  type RequestFacts,
  type Settle,
  TollgateError,
} from '../index.js';

/** A Web-standard handler; extra arguments (a worker's env and context) are passed through. */
export type FetchHandler<A extends unknown[]> = (
  request: Request,
  ...rest: A
) => Response | Promise<Response>;

export interface FetchOptions<A extends unknown[]> {
  /**
   * The client's address, which keys anonymous callers' limits (e.g. Hono's `getConnInfo`, the
   * `cf-connecting-ip` header of a worker). A Web `Request` does not carry it, so it is required:
   * `null` says every anonymous caller shares one limit, on purpose.
   */
  readonly clientAddress: ((request: Request, ...rest: A) => string | undefined) | null;
}

// The body is passed on as it streams: the slot is settled when it ends, or freed if it is cancelled.
function settledBody(
  body: ReadableStream<Uint8Array>,
  status: number,
  settle: Settle,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          await settle.finish(status);
        } else controller.enqueue(value);
      } catch (error) {
        await settle.abort();
        controller.error(error);
      }
    },
    async cancel(reason) {
      await settle.abort();
      await reader.cancel(reason);
    },
  });
}

/** A gate already made (reused by several adapters) rather than its options: anything with a `check` method. */
const isGate = (options: GateOptions | Gate): options is Gate =>
  typeof (options as Partial<Gate> | null)?.check === 'function';

/**
 * Wraps `handler`: refusals are answered here, the gate's headers are added where the handler set
 * none of that name, and the slot is settled when the body ends (freed when the client cancels or
 * the handler throws). Errors (the gate's, or the handler's) go to `onError` first, then to a 500
 * written to `console.error`; a framework that catches its handlers' errors itself (Hono's
 * `app.onError`) keeps them. A request `skip`, a CORS preflight or a pass-through lets through is
 * handed to the handler untouched. Runtimes normalize the URL (`..` segments resolved) before any handler
 * sees it, so tollgate checks the path as the runtime gives it.
 * @example
 * import { withTollgate } from 'tollgate/fetch';
 * const fetch = withTollgate(() => new Response('ok'), { lookupToken: () => null }, {
 *   clientAddress: (request) => request.headers.get('cf-connecting-ip') ?? undefined,
 * });
 * const response = await fetch(new Request('http://localhost/rate_limit'));
 * response.status; // 200
 */
export function withTollgate<A extends unknown[]>(
  handler: FetchHandler<A>,
  options: GateOptions | Gate,
  fetchOptions: FetchOptions<A>,
): (request: Request, ...rest: A) => Promise<Response> {
  const given = (fetchOptions as Partial<FetchOptions<A>> | null | undefined)?.clientAddress;
  if (given !== null && typeof given !== 'function')
    throw new TollgateError(
      'TOLLGATE_INVALID_OPTION',
      `withTollgate: give \`clientAddress: (request) => address\` (anonymous callers are limited per address), or \`clientAddress: null\` to give them all one limit; got ${given === undefined ? 'none' : `a ${typeof given}`}`,
    );
  const gate = isGate(options) ? options : createGate(options);
  // No framework error path here: `onError` first, then a 500 written to `console.error`, never silent.
  const failed = (error: unknown, facts: RequestFacts): Response => {
    gate.reportError(error, facts);
    console.error('tollgate: request failed with 500', error);
    return Response.json({ message: 'Internal Server Error' }, { status: 500 });
  };
  return async (request, ...rest) => {
    const url = new URL(request.url);
    const remoteAddress = fetchOptions.clientAddress?.(request, ...rest) ?? undefined;
    const facts: RequestFacts = {
      method: request.method,
      target: url.pathname + url.search,
      header: (name) => request.headers.get(name) ?? undefined,
      ...(remoteAddress === undefined ? {} : { remoteAddress }),
    };
    let answer: GateAnswer;
    try {
      answer = await gate.check(facts);
    } catch (error) {
      return failed(error, facts);
    }
    if (answer.action === 'respond')
      return new Response(answer.body === '' ? null : answer.body, {
        status: answer.status,
        headers: answer.headers,
      });
    const { settle } = answer;
    if (settle === null) return handler(request, ...rest);
    // The client went away while the gate was deciding: nothing to serve, the slot is freed.
    if (request.signal?.aborted) {
      await settle.abort();
      return new Response(null, { status: 499 });
    }
    request.signal?.addEventListener('abort', () => void settle.abort(), { once: true });
    let response: Response;
    try {
      response = await handler(request, ...rest);
    } catch (error) {
      await settle.finish(500);
      response = failed(error, facts);
    }
    const headers = new Headers(response.headers);
    for (const [name, value] of Object.entries(answer.headers))
      if (!headers.has(name)) headers.set(name, value);
    if (response.body === null) await settle.finish(response.status);
    const body = response.body === null ? null : settledBody(response.body, response.status, settle);
    return new Response(body, { status: response.status, statusText: response.statusText, headers });
  };
}
