// The documentation site in a real browser: builds it when the build is missing or older than
// its sources, serves docs/.vitepress/dist on loopback, opens every page in Debian's chromium, and
// follows every internal link. A broken link, a missing anchor, a failed request, a request that
// leaves the machine or a console error fails the test.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CHROMIUM = process.env.TOOLLOOP_CHROMIUM ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && process.env.CI)
  throw new Error(`chromium is missing at ${CHROMIUM}: apt-get install --no-upgrade chromium`);

const root = fileURLToPath(new URL('../..', import.meta.url));
const docs = join(root, 'docs');
const dist = join(docs, '.vitepress', 'dist');

/** Newest modification time of the files under `dir` that `keep` accepts. */
function newest(dir: string, keep: (path: string) => boolean): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!['node_modules', 'dist', 'cache', 'api'].includes(entry.name)) {
        latest = Math.max(latest, newest(path, keep));
      }
    } else if (keep(path)) latest = Math.max(latest, statSync(path).mtimeMs);
  }
  return latest;
}

/** Whether the build is older than a page, the site's configuration or the source of the API. */
function buildIsStale(): boolean {
  const built = join(dist, 'index.html');
  if (!existsSync(built)) return true;
  const sources = Math.max(
    newest(docs, (path) => /\.(md|mts|mjs|json)$/.test(path)),
    newest(join(root, 'src'), (path) => path.endsWith('.ts') && !path.endsWith('.test.ts')),
  );
  return statSync(built).mtimeMs < sources;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain',
};

/** The built file a URL path names, as a host with clean URLs serves it. */
function fileFor(pathname: string): string | undefined {
  const decoded = normalize(decodeURIComponent(pathname)).replace(/^[/\\]+/, '');
  if (decoded.split(sep).includes('..')) return undefined;
  const candidates =
    decoded === '' || decoded.endsWith(sep)
      ? [join(dist, decoded, 'index.html')]
      : [join(dist, decoded), join(dist, `${decoded}.html`), join(dist, decoded, 'index.html')];
  return candidates.find((file) => existsSync(file) && statSync(file).isFile());
}

/** Every page of the build, as the URL path a link would use. */
function builtPages(dir = dist): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'assets' ? [] : builtPages(path);
    if (!entry.name.endsWith('.html') || entry.name === '404.html') return [];
    const page = `/${relative(dist, path).split(sep).join('/')}`.replace(/\.html$/, '');
    return [page.endsWith('/index') ? page.slice(0, -'index'.length) : page];
  });
}

describe.skipIf(!haveChromium)('the documentation site in headless chromium', () => {
  let server: Server;
  let origin = '';
  let browser: Browser;

  beforeAll(async () => {
    if (buildIsStale()) {
      execFileSync(process.execPath, [join(root, 'scripts', 'build-docs.mjs')], {
        cwd: root,
        stdio: 'pipe',
        timeout: 540_000,
      });
    }
    server = createServer((req, res) => {
      const file = fileFor(new URL(req.url ?? '/', 'http://localhost').pathname);
      if (!file) {
        res.writeHead(404).end('not found');
        return;
      }
      res.writeHead(200, {
        'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      });
      res.end(readFileSync(file));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('opens every page without an error, and every internal link reaches a page and its anchor', async () => {
    const problems: string[] = [];
    /** Element ids of every page visited, by path. */
    const anchors = new Map<string, Set<string>>();
    /** Every internal link: the page it is on, the path and the anchor it names. */
    const links: { from: string; path: string; hash: string }[] = [];
    const queue = ['/', ...builtPages()];
    const page = await browser.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error')
        problems.push(`${page.url()}: console error: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`${page.url()}: ${error.message}`));
    page.on('response', (response) => {
      if (response.status() >= 400)
        problems.push(`${page.url()}: ${response.status()} for ${response.url()}`);
    });
    await page.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.origin === origin) return route.continue();
      problems.push(`${page.url()}: a request left the machine: ${url.href}`);
      return route.abort();
    });

    while (queue.length > 0) {
      const path = queue.shift() as string;
      if (anchors.has(path)) continue;
      const response = await page.goto(`${origin}${path}`, { waitUntil: 'load' });
      if (response?.status() !== 200) {
        anchors.set(path, new Set());
        continue; // the response listener recorded it
      }
      await page.waitForSelector('#app .VPContent', { timeout: 15_000 });
      const found = await page.evaluate(() => ({
        ids: Array.from(document.querySelectorAll('[id]'), (element) => element.id),
        hrefs: Array.from(
          document.querySelectorAll('a[href]'),
          (a) => (a as HTMLAnchorElement).href,
        ),
      }));
      anchors.set(path, new Set(found.ids));
      for (const href of found.hrefs) {
        const url = new URL(href);
        if (url.origin !== origin) continue;
        const target = url.pathname.replace(/\.html$/, '').replace(/\/index$/, '/');
        links.push({ from: path, path: target, hash: decodeURIComponent(url.hash.slice(1)) });
        if (!anchors.has(target)) queue.push(target);
      }
    }
    await page.close();

    for (const link of links) {
      const ids = anchors.get(link.path);
      if (ids === undefined || (ids.size === 0 && link.path !== '/')) {
        problems.push(`${link.from}: broken link to ${link.path}`);
      } else if (link.hash !== '' && !ids.has(link.hash)) {
        problems.push(`${link.from}: link to ${link.path}#${link.hash}, which has no such anchor`);
      }
    }
    expect([...new Set(problems)]).toEqual([]);
    // Every page of the guide and every entry point of the API reference was opened.
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
    };
    for (const subpath of Object.keys(manifest.exports)) {
      if (subpath === './package.json') continue;
      const name = subpath === '.' ? '' : subpath.slice(1);
      expect(anchors.has(`/api/toolloop${name}`), `API page of ${subpath}`).toBe(true);
    }
    expect(anchors.size).toBeGreaterThan(25);
  }, 300_000);
});
