/** What a limiter checks where a caller's values enter: misuse throws TOLLGATE_INVALID_OPTION at once. */
import { TollgateError } from '../core/errors.js';
import type { LimitsConfig, LimitsResource } from '../limits/limits-config.js';
import { LIMITS_RESOURCES } from '../limits/limits-config.js';
import type { CompleteFacts } from './limiter.js';

/**
 * The limiter's misuse error, its message prefixed with `limiter:`.
 * @example
 * import { invalid } from './limiter-inputs.js';
 * invalid('`cost` must be an integer').code; // 'TOLLGATE_INVALID_OPTION'
 */
export function invalid(message: string): TollgateError {
  return new TollgateError('TOLLGATE_INVALID_OPTION', `limiter: ${message}`);
}

/**
 * The config with anonymous IPv6 callers grouped by `prefix` bits (1 to 128).
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { withIpv6Prefix } from './limiter-inputs.js';
 * withIpv6Prefix(defaultLimits(), 64).identity.ipv6Prefix; // 64
 */
export function withIpv6Prefix(config: LimitsConfig, prefix: number): LimitsConfig {
  if (!Number.isInteger(prefix) || prefix < 1 || prefix > 128)
    throw invalid(`\`ipv6Prefix\` must be an integer from 1 to 128, got \`${String(prefix)}\``);
  return { ...config, identity: { ...config.identity, ipv6Prefix: prefix } };
}

/**
 * The CPU time of a finished request, checked where it enters: non-finite or negative is misuse
 * (Infinity would deny the identity forever). A large finite value is clamped by the CPU rule.
 * @example
 * import { checkCpu } from './limiter-inputs.js';
 * checkCpu(undefined); // 0
 */
export function checkCpu(cpuMs: number | undefined): number {
  if (cpuMs === undefined) return 0;
  if (typeof cpuMs !== 'number' || !Number.isFinite(cpuMs) || cpuMs < 0) {
    throw invalid(`\`cpuMs\` must be a finite number of milliseconds >= 0, got \`${String(cpuMs)}\``);
  }
  return cpuMs;
}

/**
 * A response status as `complete` and `settle` take it: an HTTP status the service could answer
 * (100 to 599); `name` is how the caller gave it, for the message.
 * @example
 * import { checkedStatus } from './limiter-inputs.js';
 * checkedStatus(304, 'status'); // 304
 */
export function checkedStatus(status: unknown, name: string): number {
  if (!Number.isInteger(status) || (status as number) < 100 || (status as number) > 599)
    throw invalid(`\`${name}\` must be an HTTP status from 100 to 599, got \`${String(status)}\``);
  return status as number;
}

/**
 * The facts an admission is settled with: a status the service could answer, CPU as `complete` takes it.
 * @example
 * import { settleFacts } from './limiter-inputs.js';
 * settleFacts({ status: 403 }); // { status: 403, cpuMs: 0 }
 */
export function settleFacts(facts: CompleteFacts): { status: number; cpuMs: number } {
  return { status: checkedStatus(facts?.status, 'settle.status'), cpuMs: checkCpu(facts.cpuMs) };
}

/**
 * A given point cost: an integer the request's bucket could ever admit. A cost above the bucket
 * could never be admitted: that is a table mistake, not a limit.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { checkedCost } from './limiter-inputs.js';
 * checkedCost(5, false, defaultLimits()); // 5
 */
export function checkedCost(cost: number, graphql: boolean, config: LimitsConfig): number {
  const max = graphql ? config.secondary.points.graphql : config.secondary.points.rest;
  if (!Number.isInteger(cost) || cost < 0 || cost > max) {
    throw invalid(`\`cost\` must be an integer in [0, ${max}], got \`${cost}\``);
  }
  return cost;
}

/**
 * A resource named by the caller, checked against the four names rather than looked up:
 * `limits['__proto__']` or `limits['toString']` is not undefined, and would skip the primary limit.
 * @example
 * import { checkedResource } from './limiter-inputs.js';
 * checkedResource('search'); // 'search'
 */
export function checkedResource(resource: unknown): LimitsResource {
  if (resource !== 'core' && resource !== 'search' && resource !== 'graphql' && resource !== 'lfs') {
    throw invalid(`unknown resource \`${String(resource)}\` (valid: ${LIMITS_RESOURCES.join(', ')})`);
  }
  return resource;
}
