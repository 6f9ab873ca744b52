#!/usr/bin/env node
// The public API, written down: one API Extractor report per entry point of package.json
// ("exports"), checked into api/. `npm run api:check` (run by `npm run lint`) fails when the
// declarations in dist/ no longer match a report, naming the entry points that changed;
// `npm run api:update` rewrites the reports after a deliberate change of the public surface.
// Both build dist/ first when it is missing or older than src/. See docs/tool-contract.md
// ("Semver policy") for what a change of a report means for the version number.
// Usage: node scripts/api-report.mjs [--update]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const root = join(import.meta.dirname, '..');
const update = process.argv.includes('--update');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const reportFolder = join(root, 'api');
const scratch = join(root, 'node_modules', '.cache', 'api-report');

/** The newest modification time of any file below `dir`. */
function newest(dir) {
  let latest = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    latest = Math.max(latest, stat.isDirectory() ? newest(path) : stat.mtimeMs);
  }
  return latest;
}

const built = join(root, 'dist', 'index.d.ts');
if (!existsSync(built) || statSync(built).mtimeMs < newest(join(root, 'src'))) {
  console.log('[api] building dist/ (npm run build)');
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
}

mkdirSync(reportFolder, { recursive: true });
rmSync(scratch, { recursive: true, force: true });
mkdirSync(scratch, { recursive: true });

const changed = [];
for (const [subpath, target] of Object.entries(manifest.exports)) {
  if (typeof target !== 'object' || target.types === undefined) continue;
  const name = subpath === '.' ? 'toolloop' : `toolloop${subpath.slice(1).replaceAll('/', '-')}`;
  const config = ExtractorConfig.prepare({
    configObjectFullPath: join(root, 'api', `${name}.json`),
    packageJsonFullPath: join(root, 'package.json'),
    configObject: {
      projectFolder: root,
      mainEntryPointFilePath: join(root, target.types),
      bundledPackages: [],
      compiler: {
        overrideTsconfig: {
          compilerOptions: {
            target: 'ES2022',
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            strict: true,
            skipLibCheck: true,
            types: ['node'],
          },
          include: [join(root, 'dist')],
        },
      },
      apiReport: {
        enabled: true,
        reportFileName: name,
        reportFolder,
        reportTempFolder: scratch,
        includeForgottenExports: false,
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        // The reports record the surface; these style rules of API Extractor's are not ours
        // (the project's JSDoc rules are checked by test/package/public-api.test.ts).
        compilerMessageReporting: { default: { logLevel: 'warning' } },
        extractorMessageReporting: {
          default: { logLevel: 'none' },
          'ae-missing-release-tag': { logLevel: 'none' },
        },
        tsdocMessageReporting: { default: { logLevel: 'none' } },
      },
    },
  });
  const result = Extractor.invoke(config, {
    localBuild: update,
    showVerboseMessages: false,
    messageCallback: (message) => {
      // Compiler warnings about the bundled TypeScript version are expected noise.
      if (message.messageId === 'console-compiler-version-notice') message.handled = true;
    },
  });
  if (result.apiReportChanged) changed.push(relative(root, join(reportFolder, `${name}.api.md`)));
  if (!result.succeeded && !result.apiReportChanged) {
    console.error(`[api] API Extractor failed on ${subpath}`);
    process.exitCode = 1;
  }
}

if (changed.length === 0) {
  console.log('[api] the public API matches the reports in api/');
} else if (update) {
  console.log(`[api] updated: ${changed.join(', ')}`);
} else {
  console.error(
    `[api] the public API changed: ${changed.join(', ')}\n` +
      '[api] review the difference (the new report is in node_modules/.cache/api-report/), then run npm run api:update and commit api/.',
  );
  process.exitCode = 1;
}
