/** GraphQL calls: whether a document is a query or a mutation, and the point cost the seed gives it. */

/** What a GraphQL document does, as far as its text shows. */
export type GraphqlOperation = 'query' | 'mutation' | 'unknown';

/**
 * The operation of a GraphQL document: `mutation` when any operation in it is a mutation, `query`
 * for queries (`query ...`, `subscription ...`, the shorthand `{ ... }`), `unknown` when the text is
 * not at hand (a document built elsewhere) or shows no operation. Comments and strings are skipped;
 * only words outside any braces count, so a field named `mutation` does not.
 * @example
 * import { graphqlOperation } from './scan-graphql.js';
 * graphqlOperation('# add one\nmutation($id: ID!) { addStar(input: { starrableId: $id }) { clientMutationId } }'); // 'mutation'
 */
export function graphqlOperation(text: string | null): GraphqlOperation {
  if (text === null) return 'unknown';
  let depth = 0;
  let query = false;
  let fragment = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '#') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '"') {
      const block = text.startsWith('"""', i);
      const end = block ? text.indexOf('"""', i + 3) : text.indexOf('"', i + 1);
      i = end < 0 ? text.length : end + (block ? 2 : 0);
    } else if (c === '{' || c === '(') {
      // `{` opening a top-level selection set is an anonymous query, unless it belongs to a fragment.
      if (c === '{' && depth === 0 && !fragment) query = true;
      if (c === '{' && depth === 0) fragment = false;
      depth++;
    } else if (c === '}' || c === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && /[A-Za-z_]/.test(c)) {
      let end = i;
      while (end < text.length && /\w/.test(text[end]!)) end++;
      const word = text.slice(i, end);
      if (word === 'mutation') return 'mutation';
      if (word === 'query' || word === 'subscription') query = true;
      if (word === 'fragment') fragment = true;
      i = end - 1;
    }
  }
  return query ? 'query' : 'unknown';
}

/**
 * The point cost of a GraphQL request (seed 000, "Point costs": without mutation 1, with mutation 5).
 * An operation not known is given the higher cost, so a budget computed from it is never short.
 * @example
 * import { graphqlCost } from './scan-graphql.js';
 * graphqlCost('query'); // 1
 */
export function graphqlCost(operation: GraphqlOperation): 1 | 5 {
  return operation === 'query' ? 1 : 5;
}
