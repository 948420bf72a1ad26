/**
 * A {@link CacheStore} on Redis, over the merchant's own client: node-redis (`redis`, `@redis/client`) or
 * ioredis. The adapter sends plain commands through the client, so svc-checkout depends on neither.
 */
import type { CacheStore } from './cache-store.js';
import { describeValue } from './options.js';

/** node-redis 4 and later (`redis`, `@redis/client`): commands go through `sendCommand(['SET', ...])`. */
export interface NodeRedisClientLike {
  sendCommand(args: string[]): Promise<unknown>;
}

/** ioredis: commands go through `call('SET', ...)`. */
export interface IoRedisClientLike {
  call(command: string, ...args: string[]): Promise<unknown>;
}

/** Sends one Redis command, such as `['SET', key, value, 'PX', '60000']`, and resolves its reply. */
export type RedisCommand = (args: string[]) => Promise<unknown>;

/** A connected Redis client, or a function that sends a command through any other client. */
export type RedisClientLike = NodeRedisClientLike | IoRedisClientLike | RedisCommand;

// Deletes the claim only while it still holds this caller's token, in one step on the server: a claim that
// expired and was taken by another server must survive the late release of its former holder.
const RELEASE_SCRIPT =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end";

function commandOf(client: RedisClientLike): RedisCommand {
  if (typeof client === 'function') return client;
  // Checked as JavaScript may pass anything: null, an options object, a client's unawaited connect().
  if (typeof client === 'object' && client !== null) {
    if ('call' in client && typeof client.call === 'function') {
      const ioredis = client;
      return ([command, ...args]) => ioredis.call(command!, ...args);
    }
    if ('sendCommand' in client && typeof client.sendCommand === 'function') {
      const nodeRedis = client;
      return (args) => nodeRedis.sendCommand(args);
    }
  }
  const what = describeValue(client);
  throw new TypeError(
    'createRedisCacheStore: the client must be a connected node-redis client (sendCommand), an ioredis ' +
      `client (call) or a function (args) => the reply, not ${what === 'an object' ? 'an object without sendCommand or call' : what}`,
  );
}

function milliseconds(ttlMs: number): string {
  // Redis refuses PX 0 and fractions; a positive whole number of at least 1 is what was meant.
  return String(Math.max(1, Math.ceil(ttlMs)));
}

function replyText(reply: unknown): string | undefined {
  if (reply === null || reply === undefined) return undefined;
  if (typeof reply === 'string') return reply;
  if (reply instanceof Uint8Array) return Buffer.from(reply).toString('utf8');
  throw new TypeError(`Redis answered with ${typeof reply} where a string or nil was expected`);
}

/**
 * A cache store on a Redis server shared by the fleet: values with `SET PX`, claims with `SET NX PX`,
 * releases by a compare-and-delete script. Every command names one key, so it works on Redis Cluster too.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect();
 * const store = createRedisCacheStore(redis);
 * ```
 * @throws TypeError at once when `client` is none of the accepted kinds.
 */
export function createRedisCacheStore(client: RedisClientLike): CacheStore {
  const command = commandOf(client);
  return {
    async get(key) {
      return replyText(await command(['GET', key]));
    },
    async set(key, value, ttlMs) {
      await command(['SET', key, value, 'PX', milliseconds(ttlMs)]);
    },
    async claim(key, token, ttlMs) {
      // SET NX answers OK when it wrote, and nil when the key existed.
      return replyText(await command(['SET', key, token, 'NX', 'PX', milliseconds(ttlMs)])) !== undefined;
    },
    async release(key, token) {
      await command(['EVAL', RELEASE_SCRIPT, '1', key, token]);
    },
  };
}
