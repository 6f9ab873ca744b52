import { describe, expect, it } from 'vitest';
import { importNeedingPeer, isMissingPackage } from './import-needing-peer.js';

async function failure(load: () => Promise<unknown>): Promise<unknown> {
  return load().then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('isMissingPackage', () => {
  it("tells Node's missing-package errors, for a package or a path inside it, from other failures", async () => {
    const missing = await failure(() => import('toolloop-no-such-package' as string));
    expect(isMissingPackage(missing, 'toolloop-no-such-package')).toBe(true);
    expect(isMissingPackage(missing, 'toolloop-no-such-package/sub/path.js')).toBe(true);
    expect(isMissingPackage(missing, 'toolloop-no-such')).toBe(false);
    expect(isMissingPackage(missing, 'pg')).toBe(false);
    const scoped = Object.assign(
      new Error("Cannot find package '@scope/peer' imported from /app/dist/x.js"),
      { code: 'ERR_MODULE_NOT_FOUND' },
    );
    expect(isMissingPackage(scoped, '@scope/peer/client/index.js')).toBe(true);
    expect(isMissingPackage(new Error("Cannot find package '@scope/peer'"), '@scope/peer')).toBe(
      false,
    );
    expect(isMissingPackage(undefined, 'pg')).toBe(false);
  });
});

describe('importNeedingPeer', () => {
  it('names the missing peer, who needs it and the install command, keeping code and cause', async () => {
    const error = (await failure(() =>
      importNeedingPeer(
        () => import('toolloop-no-such-package' as string),
        'toolloop-no-such-package',
        'toolloop/something',
      ),
    )) as Error & { code?: string };
    expect(error.message).toBe(
      'toolloop/something needs the optional peer dependency toolloop-no-such-package, which is not installed where toolloop is. Install it: npm install toolloop-no-such-package',
    );
    expect(error.code).toBe('ERR_MODULE_NOT_FOUND');
    expect((error.cause as { code?: string }).code).toBe('ERR_MODULE_NOT_FOUND');
  });

  it('passes other failures through unchanged, and the module when it loads', async () => {
    const broken = new SyntaxError('Unexpected token');
    await expect(importNeedingPeer(() => Promise.reject(broken), 'pg', 'toolloop/x')).rejects.toBe(
      broken,
    );
    await expect(importNeedingPeer(async () => ({ a: 1 }), 'pg', 'toolloop/x')).resolves.toEqual({
      a: 1,
    });
  });
});
