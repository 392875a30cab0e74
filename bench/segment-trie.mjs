// A plain segment trie, the kind issue 21 measured at 3-3.7x find-my-way: the path split at `/`,
// a Map of static children per node, one parameter child, the values collected into a params
// object. No decoding, no `.git`, no letter case, no bad-path checks: a calibration of what "a
// simple router" costs on this mix, not a peer that answers what tollgate answers.

function node() {
  return { statics: new Map(), param: null, routes: new Map() };
}

/**
 * `(method, target) => { route, params } | null` over the table's templates (`{name}` a parameter).
 * @example
 * const find = buildSegmentTrie({ endpoints: [{ method: 'GET', template: '/users/{username}' }] });
 * find('GET', '/users/octo'); // { route: 0, params: { username: 'octo' } }
 */
export function buildSegmentTrie(tables) {
  const root = node();
  tables.endpoints.forEach((entry, route) => {
    let at = root;
    const names = [];
    for (const segment of entry.template.split('/').slice(1)) {
      const param = /^\{([^}]+)\}$/.exec(segment);
      if (param !== null) {
        names.push(param[1]);
        at.param ??= node();
        at = at.param;
      } else {
        if (!at.statics.has(segment)) at.statics.set(segment, node());
        at = at.statics.get(segment);
      }
    }
    at.routes.set(entry.method, { route, names });
  });
  return (method, target) => {
    const query = target.indexOf('?');
    const segments = (query < 0 ? target : target.slice(0, query)).split('/');
    let at = root;
    const values = [];
    for (let i = 1; i < segments.length; i++) {
      const next = at.statics.get(segments[i]);
      if (next !== undefined) at = next;
      else if (at.param !== null) {
        values.push(segments[i]);
        at = at.param;
      } else return null;
    }
    const found = at.routes.get(method);
    if (found === undefined) return null;
    const params = {};
    for (let i = 0; i < found.names.length; i++) params[found.names[i]] = values[i];
    return { route: found.route, params };
  };
}
