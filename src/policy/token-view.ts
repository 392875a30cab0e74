/** A token read once: checked against the catalog, then kept in the form the evaluator reads fastest. */
import { TollgateError } from '../core/errors.js';
import { didYouMean } from '../core/suggest.js';
import { tokenProblem } from './check-token.js';
import { grantMask } from './permission-masks.js';
import { heldScopes } from './scope-closure.js';
import type { PolicyTables } from './tables.js';
import { type Level, type PermissionToken, TOKEN_KINDS, type Token, type TokenKind } from './types.js';

/** Level codes: a grant covers a need when its code is at least the need's (`write` covers `read`). */
export const LEVEL_CODES: Readonly<Record<Level, number>> = Object.freeze({ read: 1, write: 2 });

/** What the evaluator reads of a token, computed on its first use. */
export interface TokenView {
  readonly kind: TokenKind;
  /** The kind's index in TOKEN_KINDS. */
  readonly kindIndex: number;
  /** Classic scopes held, closed under implication, as a bitmask (0 without masks). */
  readonly heldMask: number;
  /** The same as a set, for catalogs too large for a mask; empty for other kinds. */
  readonly held: ReadonlySet<string>;
  /** `X-OAuth-Scopes`: the scopes as granted, comma-separated. */
  readonly scopesHeader: string;
  /** Per catalog slug index, the level code granted (0: none). */
  readonly levels: Uint8Array;
  /** `levels` as a grant mask (see permission-masks.ts); 0 for other kinds. */
  readonly grantMask: number;
  /** The permissions as granted (own properties only). */
  readonly granted: Readonly<Record<string, Level>>;
  /** Selected repositories as `owner/repo`, ASCII-folded; null for `'all'`. */
  readonly selection: readonly string[] | null;
  /** The token object this view was read from (null for a primitive): how a view found on a token is verified. */
  readonly token: object | null;
}

// Repository names fold case in ASCII only (full Unicode folding would make the Kelvin sign `K` equal `k`).
export function foldAscii(text: string): string {
  return /[^\x00-\x7f]/.test(text) ? text : text.toLowerCase();
}

// What was read is remembered, so what was read must not change: a later write throws (strict mode)
// where it would otherwise be ignored in silence, and a narrowed selection can never go unseen.
function freezeToken(token: Token): void {
  const parts = token as { scopes?: unknown; permissions?: unknown; repositories?: unknown };
  for (const part of [parts.scopes, parts.permissions, parts.repositories])
    if (part !== null && typeof part === 'object') Object.freeze(part);
  Object.freeze(token);
}

function invalid(message: string): TollgateError {
  return new TollgateError('TOLLGATE_INVALID_TOKEN', `authorize: ${message}`);
}

/**
 * Reads tokens for one policy. A token object is checked and read on its first use and remembered
 * on the token itself (a non-enumerable property under the reader's own symbol; a WeakMap for a
 * token that cannot take one), so the hot path pays one property read. The token is then frozen, with its scopes,
 * permissions and repositories: to change what a token holds, pass a new object. Throws TollgateError `TOLLGATE_INVALID_TOKEN`, naming the
 * valid choices, for a value that is not a Token of the catalog (unknown kind, permission or level).
 * @example
 * import { shippedTables } from 'tollgate';
 * import { createTokenReader } from './token-view.js';
 * const read = createTokenReader(shippedTables(), null);
 * read({ kind: 'fine-grained', permissions: { issues: 'write' }, repositories: 'all' }).selection; // null
 */
export function createTokenReader(
  tables: PolicyTables,
  masks: ReadonlyMap<string, number> | null,
): (token: Token) => TokenView {
  const slugIndex = new Map([...tables.permissions.keys()].map((slug, i) => [slug, i]));
  const slugs = [...slugIndex.keys()];
  const seen = new WeakMap<object, TokenView>();
  const NO_LEVELS = new Uint8Array(slugIndex.size);
  const NOTHING_HELD: ReadonlySet<string> = new Set();
  const NO_GRANT: Readonly<Record<string, Level>> = Object.freeze({});

  function permissionLevels(granted: Record<string, unknown>): Uint8Array {
    const levels = new Uint8Array(slugIndex.size);
    for (const slug of Object.keys(granted)) {
      const index = slugIndex.get(slug);
      if (index === undefined)
        throw invalid(`unknown permission \`${slug}\`${didYouMean(slug, slugs)}; see \`tollgate endpoints\``);
      const level = granted[slug];
      const valid = tables.permissions.get(slug)!.levels;
      if (typeof level !== 'string' || !(valid as readonly string[]).includes(level))
        throw invalid(
          `permission \`${slug}\` has no level \`${String(level)}\`; valid levels: ${valid.join(', ')}`,
        );
      levels[index] = LEVEL_CODES[level as Level];
    }
    return levels;
  }

  function view(token: Token): TokenView {
    const problem = tokenProblem(token);
    if (problem !== null) throw invalid(`${problem}; valid kinds: ${TOKEN_KINDS.join(', ')}`);
    if (token.kind === 'classic' || token.kind === 'oauth-app') {
      let heldMask = 0;
      if (masks !== null) for (const scope of token.scopes) heldMask |= masks.get(scope) ?? 0;
      return {
        kind: token.kind,
        kindIndex: TOKEN_KINDS.indexOf(token.kind),
        heldMask,
        held: heldScopes(token.scopes, tables.scopeClosure),
        scopesHeader: token.scopes.join(', '),
        levels: NO_LEVELS,
        grantMask: 0,
        granted: NO_GRANT,
        selection: null,
        token,
      };
    }
    if (token.kind === 'anonymous' || token.kind === 'client-credentials')
      return {
        kind: token.kind,
        kindIndex: TOKEN_KINDS.indexOf(token.kind),
        heldMask: 0,
        held: NOTHING_HELD,
        scopesHeader: '',
        levels: NO_LEVELS,
        grantMask: 0,
        granted: NO_GRANT,
        selection: null,
        token,
      };
    const { permissions, repositories } = token as PermissionToken;
    const granted: Record<string, Level> = {};
    for (const slug of Object.keys(permissions)) granted[slug] = permissions[slug]!;
    const levels = permissionLevels(granted);
    return {
      kind: token.kind,
      kindIndex: TOKEN_KINDS.indexOf(token.kind),
      heldMask: 0,
      held: NOTHING_HELD,
      scopesHeader: '',
      levels,
      grantMask: grantMask(levels),
      granted: Object.freeze(granted),
      selection: repositories === 'all' ? null : repositories.map(foldAscii),
      token,
    };
  }

  // A view is kept on the token object itself under this reader's own symbol (non-enumerable, so
  // spreads, JSON and Object.keys never see it), as the limiter keeps its row hint on an identity:
  // profiled over the bench mix, the WeakMap probe this replaces was 3.4% of authorize. Tokens that
  // cannot take the property (frozen before their first use, proxies whose traps refuse) are kept
  // in the WeakMap as before. A view found is used only when it was read from this very object: an
  // object inheriting from a read token, or a proxy forwarding to one, is read itself.
  const VIEW = Symbol('tollgate.tokenView');
  type Hinted = { [VIEW]?: TokenView };

  // Kept, then frozen with the token (freezing makes the property permanent); a token that cannot
  // be frozen is not remembered at all, as before.
  function remember(token: Token & object, fresh: TokenView): void {
    let kept = false;
    if (Object.isExtensible(token)) {
      try {
        Object.defineProperty(token, VIEW, { value: fresh, configurable: true });
        kept = true;
      } catch {
        // a proxy's trap refused: the WeakMap keeps it
      }
    }
    try {
      freezeToken(token);
    } catch (error) {
      if (kept)
        try {
          delete (token as Hinted)[VIEW];
        } catch {
          // made permanent before the freeze failed: the view's own check still holds it to this object
        }
      throw error;
    }
    if (!kept) seen.set(token, fresh);
  }

  return (token) => {
    if (token !== null && typeof token === 'object') {
      let hinted: TokenView | undefined;
      try {
        hinted = (token as Hinted)[VIEW];
      } catch {
        hinted = undefined; // a proxy's trap threw: read the token the ordinary way
      }
      if (hinted !== undefined && hinted.token === token) return hinted;
      const known = seen.get(token);
      if (known !== undefined) return known;
      const fresh = view(token);
      remember(token, fresh);
      return fresh;
    }
    return view(token);
  };
}

const A = 65;
const Z = 90;

// Folds one UTF-16 unit in ASCII only.
function fold(code: number): number {
  return code >= A && code <= Z ? code + 32 : code;
}

/**
 * True when `selection` (names folded by foldAscii) holds `owner/repo` compared as foldAscii
 * compares them: case folded in ASCII, and not at all for a name with any non-ASCII character. No
 * string is built: this runs for every request on a private repository.
 * @example
 * import { selects } from './token-view.js';
 * selects(['acme/app'], 'ACME', 'App'); // true
 * selects(['acme/app'], 'acme', 'apps'); // false
 */
export function selects(selection: readonly string[], owner: string, repo: string): boolean {
  const length = owner.length + 1 + repo.length;
  outer: for (let k = 0; k < selection.length; k++) {
    const name = selection[k]!;
    if (name.length !== length || name.charCodeAt(owner.length) !== 47 /* '/' */) continue;
    let ascii = true;
    for (let i = 0; i < owner.length; i++) {
      const c = owner.charCodeAt(i);
      if (c > 127) ascii = false;
      if (fold(c) !== name.charCodeAt(i)) {
        if (c === name.charCodeAt(i)) continue;
        continue outer;
      }
    }
    for (let i = 0, at = owner.length + 1; i < repo.length; i++, at++) {
      const c = repo.charCodeAt(i);
      if (c > 127) ascii = false;
      if (fold(c) !== name.charCodeAt(at)) {
        if (c === name.charCodeAt(at)) continue;
        continue outer;
      }
    }
    // A name with any non-ASCII character is not folded at all: compare it exactly.
    if (ascii || name === `${owner}/${repo}`) return true;
  }
  return false;
}

/** The catalog index of each slug, as createTokenReader numbers them (the order of `tables.permissions`). */
export function slugIndexes(tables: PolicyTables): ReadonlyMap<string, number> {
  return new Map([...tables.permissions.keys()].map((slug, i) => [slug, i]));
}
