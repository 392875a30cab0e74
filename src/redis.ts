/** tollgate/redis: the limits in Redis or Valkey, shared by every server instance. */
export {
  createRedisStore,
  type RedisClientLike,
  type RedisStore,
  type RedisStoreOptions,
} from './stores/redis-store.js';
