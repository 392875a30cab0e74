/** tollgate/fastify: the gate as a Fastify plugin. */
export { tollgatePlugin } from './adapters/fastify.js';
