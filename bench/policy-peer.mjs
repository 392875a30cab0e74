// Diagnostic peer of the policy scenario (bench/policy.mjs): find-my-way plus the least answer to
// authorize's question, for issue 21's floor.
import FindMyWay from 'find-my-way';
import { colonTemplate } from './request-mix.mjs';

const PERMISSION_KINDS = new Set(['fine-grained', 'app-user', 'app-installation', 'workflow']);
const SCOPED_KINDS = new Set(['classic', 'oauth-app']);
const LEVEL = { read: 1, write: 2 };
const NOTHING = Object.freeze({ kind: 'none' });
const NO_MISSING = Object.freeze([]);
const NO_HEADERS = Object.freeze({});

/**
 * Diagnostic peer: find-my-way's find, then what it takes to answer authorize's question at the
 * least: the token's grant checked against the row (each fine-grained alternative's levels read off
 * the token's permissions object, or each classic alternative's scopes off its scopes array, public
 * rows open to anonymous callers), then an answer with a Decision's eleven fields, its texts built
 * at load. It does less than authorize (no visibility, repository selection, existence hiding,
 * owner rule, API version, HEAD fallback, bad-path rules, per-request messages or headers): a floor
 * for "a router plus an answer", not a replacement of the ratio.
 */
export function buildSameWorkPeer(tables, rules) {
  const router = FindMyWay({ ignoreTrailingSlash: false });
  const handler = () => {};
  for (const entry of tables.endpoints) {
    const fine = (entry.fineGrained ?? []).map((alt) =>
      Object.entries(alt).map(([slug, level]) => [slug, LEVEL[level]]),
    );
    const scopes = entry.classic.requirement ?? null;
    const requirement = { fineGrained: entry.fineGrained, classic: scopes };
    const quoted = `\`${entry.key}\``;
    router.on(entry.method, colonTemplate(entry.template, rules), handler, {
      key: entry.key,
      isPublic: entry.public,
      fine,
      scopes,
      requirement,
      allowedMessage: `${quoted} is allowed`,
      deniedMessage: `${quoted} needs a permission or scope the token lacks`,
      anonymousMessage: `${quoted} requires authentication`,
    });
  }
  const meetsFine = (fine, permissions) => {
    for (const alt of fine) {
      let ok = true;
      for (const [slug, level] of alt) if ((LEVEL[permissions[slug]] ?? 0) < level) ok = false;
      if (ok) return true;
    }
    return false;
  };
  const meetsScopes = (alternatives, held) => {
    for (const alt of alternatives) if (alt.every((scope) => held.includes(scope))) return true;
    return false;
  };
  return function answer(request, token) {
    const found = router.find(request.method, request.path);
    if (found === null) return null;
    const row = found.store;
    const kind = token.kind;
    const allowed = PERMISSION_KINDS.has(kind)
      ? meetsFine(row.fine, token.permissions)
      : SCOPED_KINDS.has(kind)
        ? row.scopes === null || meetsScopes(row.scopes, token.scopes)
        : row.isPublic;
    const anonymous = !allowed && !PERMISSION_KINDS.has(kind) && !SCOPED_KINDS.has(kind);
    return {
      allowed,
      status: allowed ? 200 : anonymous ? 401 : 403,
      reason: allowed ? 'allowed' : anonymous ? 'authentication_required' : 'insufficient_permission',
      message: allowed ? row.allowedMessage : anonymous ? row.anonymousMessage : row.deniedMessage,
      endpoint: row.key,
      params: found.params,
      requirement: row.requirement,
      missing: NO_MISSING,
      addition: NOTHING,
      certain: true,
      headers: NO_HEADERS,
    };
  };
}
