/**
 * The part of an `ioredis` client toolloop uses. Declared here so this package never loads the
 * driver itself: pass your own `new Redis(url)`.
 */
export interface RedisClient {
  eval(script: string, numberOfKeys: number, ...args: (string | number)[]): Promise<unknown>;
  lrange(key: string, start: number, stop: number): Promise<string[]>;
  smembers(key: string): Promise<string[]>;
}
