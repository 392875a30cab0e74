/** The objects behind a Verdict: a light one for an admitted or completed request, a full one for a refusal. */
// Hot path: two verdicts per request (admission and completion); bench/limits.mjs guards its speed.
import {
  countText,
  type HeaderNames,
  namedWindowHeaders,
  resetText,
  SHIPPED_HEADER_NAMES,
  shipsHeaderNames,
  windowHeaders,
} from './header-text.js';
import type { Ticket } from './limit-event.js';
import type { LimitRule, LimitsConfig, LimitsResource } from './limits-config.js';
import type { LimitBody, Verdict } from './verdict.js';

/** The JSON of a verdict: its fields in one order (the order of the first verdicts), then any own extra (`degraded`), then the headers. */
function verdictJson(verdict: Verdict): object {
  const json: Record<string, unknown> = {
    allowed: verdict.allowed,
    reason: verdict.reason,
    rule: verdict.rule,
    resource: verdict.resource,
    limit: verdict.limit,
    used: verdict.used,
    retryAt: verdict.retryAt,
    retryAfter: verdict.retryAfter,
    status: verdict.status,
    body: verdict.body,
    ticket: verdict.ticket,
    remaining: verdict.remaining,
    reset: verdict.reset,
  };
  for (const key of Object.keys(verdict)) if (!(key in json)) json[key] = (verdict as never)[key];
  json.headers = verdict.headers;
  return json;
}

/** The headers of a verdict, built on first read (the strings cost as much as the rest of the admission). */
function buildHeaders(verdict: Verdict, config: LimitsConfig): Record<string, string> {
  const answers = config.answers;
  // remaining is 0 on a primary denial (seed 000, "Errors"), as the field says.
  const headers = windowHeaders(
    verdict.resource,
    countText(verdict.limit),
    countText(verdict.remaining),
    countText(verdict.used),
    resetText(verdict.reset),
    config,
  );
  // seed 000, "Client behaviour when limited", rule 2: retry-after accompanies secondary limits.
  if (verdict.retryAfter !== null) headers[answers.headers.retryAfter] = countText(verdict.retryAfter);
  if (verdict.body !== null) headers['content-type'] = answers.contentType;
  return headers;
}

/** Where an allowed verdict's class keeps its header names: on its prototype, never in the verdict. */
const HEADER_NAMES = Symbol('tollgate.headerNames');

/**
 * The verdict of an admitted request (or of a completed one). Only what varies is its own: the
 * resource, the window's numbers and the ticket (5 fields, against 13 and 2 private ones for a
 * refusal). The constant fields are read-only data of the prototype and `remaining` a getter,
 * which the readonly `Verdict` allows; `toJSON` gives every field, as a refusal's JSON does.
 * Its headers need only the config's header names, which its class holds on the prototype (this
 * class: the shipped names; a subclass per other set, see allowedVerdictClass), so the verdict
 * holds no config: 8 bytes less than a private field, two verdicts per request. The headers are
 * built at each read (the gate's answer to an admitted request does not read them: it calls
 * `headersAfter`, which writes them into the answer's object). Not exported from the package: `allowedVerdict`
 * builds it. (A completion's verdict holds no ticket, yet keeps the field: a subclass without it
 * measured worse, 226 deoptimizations of the code that builds verdicts over the bench's 101 full
 * collections, "weak objects", +80 B per request.)
 * @example
 * import { AllowedVerdict } from './verdict-objects.js';
 * const verdict = new AllowedVerdict('core', 5000, 1, 1_700_003_600, null);
 * verdict.remaining; // 4999
 */
export class AllowedVerdict implements Verdict {
  declare readonly [HEADER_NAMES]: HeaderNames;
  declare readonly allowed: true;
  declare readonly reason: 'allowed';
  declare readonly rule: null;
  declare readonly retryAt: null;
  declare readonly retryAfter: null;
  declare readonly status: null;
  declare readonly body: null;
  readonly resource: LimitsResource;
  readonly limit: number;
  readonly used: number;
  /** Epoch seconds (see Verdict). */
  readonly reset: number;
  readonly ticket: Ticket | null;

  constructor(resource: LimitsResource, limit: number, used: number, reset: number, ticket: Ticket | null) {
    this.resource = resource;
    this.limit = limit;
    this.used = used;
    this.reset = reset;
    this.ticket = ticket;
  }

  // INVARIANT: remaining is never negative, and used + remaining = limit while used <= limit.
  get remaining(): number {
    return this.used >= this.limit ? 0 : this.limit - this.used;
  }

  // An admitted request's headers: the window's five (no retry-after, no body, so no content-type).
  get headers(): Readonly<Record<string, string>> {
    return allowedHeaders(this, null);
  }

  /**
   * A new object with the headers of `first`, then this verdict's (which win): what
   * `joinHeaders(first, verdict.headers)` gives, without making the verdict's own object.
   */
  headersAfter(first: Readonly<Record<string, string>>): Record<string, string> {
    return allowedHeaders(this, first);
  }

  toJSON(): object {
    return verdictJson(this);
  }
}

/** An allowed verdict's five window headers, after `first`'s when given (see namedWindowHeaders). */
function allowedHeaders(
  verdict: AllowedVerdict,
  first: Readonly<Record<string, string>> | null,
): Record<string, string> {
  return namedWindowHeaders(
    verdict.resource,
    countText(verdict.limit),
    countText(verdict.remaining),
    countText(verdict.used),
    resetText(verdict.reset),
    verdict[HEADER_NAMES],
    first,
  );
}

// Read-only data of the prototype, not enumerable (as a class's getters): own fields stay the ones
// that vary, so toEqual on two verdicts still compares everything that can differ.
for (const [name, value] of [
  ['allowed', true],
  ['reason', 'allowed'],
  ['rule', null],
  ['retryAt', null],
  ['retryAfter', null],
  ['status', null],
  ['body', null],
  [HEADER_NAMES, SHIPPED_HEADER_NAMES],
] as const) {
  Object.defineProperty(AllowedVerdict.prototype, name, { value, writable: false, enumerable: false });
}

/** The class of allowed verdicts by header names: the shipped names use AllowedVerdict itself. */
const classesByNames = new WeakMap<HeaderNames, typeof AllowedVerdict>();
let lastNames: HeaderNames | undefined;
let lastClass: typeof AllowedVerdict = AllowedVerdict;

/**
 * The class whose verdicts answer with `config`'s header names: AllowedVerdict for the shipped
 * names (whichever config object holds them, so every limiter with them shares one object shape),
 * else one subclass per names object, made once.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { AllowedVerdict, allowedVerdictClass } from './verdict-objects.js';
 * allowedVerdictClass(defaultLimits()) === AllowedVerdict; // true
 */
export function allowedVerdictClass(config: LimitsConfig): typeof AllowedVerdict {
  const names = config.answers.headers;
  if (names === lastNames) return lastClass;
  let made = shipsHeaderNames(names) ? AllowedVerdict : classesByNames.get(names);
  if (made === undefined) {
    made = class NamedAllowedVerdict extends AllowedVerdict {};
    Object.defineProperty(made.prototype, HEADER_NAMES, { value: names, writable: false, enumerable: false });
    classesByNames.set(names, made);
  }
  lastNames = names;
  lastClass = made;
  return made;
}

/**
 * The verdict of a refused request: every field its own (refusals are rare, and a test comparing
 * two of them compares every field). Not exported from the package: `deniedVerdict` builds it.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { DeniedVerdict } from './verdict-objects.js';
 * const verdict = new DeniedVerdict('primary_rate_limit', 'primary', 'core', 60, 60, 1_700_003_600, 1_700_003_600_000, null, 403, null, defaultLimits());
 * verdict.remaining; // 0
 */
export class DeniedVerdict implements Verdict {
  #headers: Record<string, string> | undefined = undefined;
  readonly #config: LimitsConfig;
  readonly allowed = false;
  readonly remaining: number;
  readonly ticket = null;

  constructor(
    readonly reason: Verdict['reason'],
    readonly rule: LimitRule,
    readonly resource: LimitsResource,
    readonly limit: number,
    readonly used: number,
    /** Epoch seconds (see Verdict). */
    readonly reset: number,
    readonly retryAt: number,
    readonly retryAfter: number | null,
    readonly status: number,
    readonly body: LimitBody | null,
    config: LimitsConfig,
  ) {
    // INVARIANT: remaining is never negative; 0 on a primary denial (seed 000, "Errors").
    this.remaining = rule === 'primary' || used >= limit ? 0 : limit - used;
    this.#config = config;
  }

  get headers(): Readonly<Record<string, string>> {
    if (this.#headers === undefined) this.#headers = buildHeaders(this, this.#config);
    return this.#headers;
  }

  toJSON(): object {
    return verdictJson(this);
  }
}
