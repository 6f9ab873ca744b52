/**
 * True when `error` is Node's report, from `import` (ERR_MODULE_NOT_FOUND) or `require`
 * (MODULE_NOT_FOUND), that the package of `specifier` (`pg`, `@scope/name/sub/path.js` …) cannot
 * be found. A package that is there but misses something of its own is not reported as missing.
 */
export function isMissingPackage(error: unknown, specifier: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  const segments = specifier.split('/');
  const name = segments.slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
  return (
    typeof message === 'string' && (message.includes(`'${name}'`) || message.includes(`'${name}/`))
  );
}

/**
 * Runs `load` (a dynamic import of a module that imports the optional peer dependency `peer`)
 * and, when `peer` is not installed, throws an error naming it and the command that installs it,
 * instead of Node's bare "Cannot find package". The error keeps Node's code, ERR_MODULE_NOT_FOUND
 * (code that tells a missing optional module by its code still works), and has Node's error as
 * its cause. `needer` says who needs the peer, e.g. `toolloop/mcp`.
 */
export async function importNeedingPeer<T>(
  load: () => Promise<T>,
  peer: string,
  needer: string,
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isMissingPackage(error, peer)) throw error;
    throw Object.assign(
      new Error(
        `${needer} needs the optional peer dependency ${peer}, which is not installed where toolloop is. Install it: npm install ${peer}`,
        { cause: error },
      ),
      { code: 'ERR_MODULE_NOT_FOUND' },
    );
  }
}
