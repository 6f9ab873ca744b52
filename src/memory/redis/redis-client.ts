/**
 * The part of an `ioredis` client toolloop uses. Declared here so this package never loads the
 * driver itself: pass your own `new Redis(url)`.
 */
export interface RedisClient {
  eval(script: string, numberOfKeys: number, ...args: (string | number)[]): Promise<unknown>;
  /**
   * Runs a loaded script by its SHA-1. Optional: without it every script is sent whole with
   * `eval`, which works and costs a little more per call.
   */
  evalsha?(sha1: string, numberOfKeys: number, ...args: (string | number)[]): Promise<unknown>;
  lrange(key: string, start: number, stop: number): Promise<string[]>;
  smembers(key: string): Promise<string[]>;
}
