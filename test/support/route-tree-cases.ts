// The route set's compiled tree and the assertions the route-tree tests share.
import { expect } from 'vitest';
import { isTollgateError } from '../../src/core/errors.js';
import { compileRoutes, matchRoute } from '../../src/routes/route-tree.js';
import type { RouteInput, RouteMatch } from '../../src/routes/route-types.js';
import { ROUTE_SET } from './route-set.js';

export const ROUTES = ROUTE_SET;

export const tree = compileRoutes(ROUTES);

export function routeOf(template: string, method: string): number {
  const index = ROUTES.findIndex((route) => route.template === template && route.method === method);
  if (index < 0) throw new Error(`no ${method} ${template} in ROUTES`);
  return index;
}

/** The match with its params as a plain object, for toEqual. */
export function match(method: string, target: string): RouteMatch {
  const result = matchRoute(tree, method, target);
  return result.kind === 'matched' ? { ...result, params: { ...result.params } } : result;
}

export function matched(method: string, template: string, params: Record<string, string>): RouteMatch {
  return { kind: 'matched', route: routeOf(template, method), params };
}

export function expectBadPath(method: string, target: string, segment: string): void {
  const result = matchRoute(tree, method, target);
  expect(result.kind, target).toBe('bad_path');
  if (result.kind !== 'bad_path') return;
  expect(result.message).toContain(`\`${segment}\``);
  expect(result.message).toMatch(/^[a-z]/);
  expect(result.message).not.toMatch(/[\r\n]/);
}

export function expectInvalidTable(routes: readonly RouteInput[], fragment: string): void {
  try {
    compileRoutes(routes);
  } catch (error) {
    expect(isTollgateError(error) && error.code).toBe('TOLLGATE_INVALID_TABLE');
    expect((error as Error).message).toContain(fragment);
    return;
  }
  throw new Error(`compileRoutes accepted ${JSON.stringify(routes)}`);
}
