/** tollgate/node: the gate as `(req, res, next)` middleware for node:http, Connect and Express. */
export { type Next, tollgate } from './adapters/node.js';
