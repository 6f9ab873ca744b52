// The site's configuration (VitePress). Pages are plain Markdown beside this folder; the API
// reference under api/ is generated from the JSDoc by TypeDoc (scripts/build-docs.mjs).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type DefaultTheme, defineConfig } from 'vitepress';

const docsDir = fileURLToPath(new URL('..', import.meta.url));
const repository = 'https://github.com/toolloop/toolloop';

/**
 * A sidebar entry for a page other contributors write: listed once its file exists, so the site
 * never links to a page that is not there yet.
 */
function whenPresent(text: string, page: string): DefaultTheme.SidebarItem[] {
  const file = `${docsDir}${page.endsWith('/') ? `${page}index` : page}.md`;
  return existsSync(file) ? [{ text, link: `/${page}` }] : [];
}

/** The API reference's pages, one per entry point, as TypeDoc listed them. */
function apiSidebar(): DefaultTheme.SidebarItem[] {
  const file = `${docsDir}api/typedoc-sidebar.json`;
  if (!existsSync(file)) return [{ text: 'Overview', link: '/api/' }];
  const items = JSON.parse(readFileSync(file, 'utf8')) as DefaultTheme.SidebarItem[];
  return [{ text: 'Overview', link: '/api/' }, ...items];
}

const guide: DefaultTheme.SidebarItem[] = [
  {
    text: 'Start',
    items: [
      { text: 'Getting started', link: '/getting-started' },
      { text: 'Tools', link: '/tools' },
      { text: 'The tool loop', link: '/loop' },
      { text: 'Messages', link: '/messages' },
      { text: 'Errors', link: '/errors' },
      { text: 'The tool contract', link: '/tool-contract' },
    ],
  },
  {
    text: 'Features',
    items: [
      { text: 'Memory', link: '/memory' },
      { text: 'Approval', link: '/approval' },
      { text: 'Argument augmentation', link: '/augmentation' },
      ...whenPresent('Tool search', 'tool-search'),
      ...whenPresent('Semantic tool search', 'semantic-tool-search'),
      { text: 'MCP', link: '/mcp' },
      ...whenPresent('Durable turns', 'durable-turns'),
    ],
  },
  {
    text: 'Providers',
    items: [
      { text: 'Overview', link: '/providers/' },
      { text: 'OpenAI Chat Completions', link: '/providers/openai' },
      ...whenPresent('OpenAI Responses', 'providers/openai-responses'),
      { text: 'Anthropic', link: '/providers/anthropic' },
      ...whenPresent('Google Gemini', 'providers/google'),
    ],
  },
  {
    text: 'Operate',
    items: [
      { text: 'Observability', link: '/observability' },
      { text: 'Configuration', link: '/configuration' },
      { text: 'The toolloop command', link: '/cli' },
      ...whenPresent('Security', 'security'),
    ],
  },
  {
    text: 'More',
    items: [
      { text: 'Coming from other frameworks', link: '/other-frameworks' },
      { text: 'Coming from Spring AI', link: '/spring-ai' },
      { text: 'Benchmarks', link: '/benchmarks' },
      { text: 'API pages', link: '/api/' },
    ],
  },
];

export default defineConfig({
  title: 'toolloop',
  description: 'Tool calling for TypeScript agents on Node.js',
  cleanUrls: true,
  lastUpdated: false,
  srcExclude: ['node_modules/**'],
  // The API reference's pages are large; their chunks are expected to be.
  vite: { build: { chunkSizeWarningLimit: 4096 } },
  markdown: {
    // Snippet tags (`ts run`, `ts fragment`) are for the snippet test; highlight them as TypeScript.
    languageAlias: { 'ts run': 'ts', 'ts fragment': 'ts' },
  },
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/getting-started' },
      { text: 'API', link: '/api/' },
      { text: 'Changelog', link: `${repository}/blob/main/CHANGELOG.md` },
    ],
    sidebar: {
      '/api/': [{ text: 'API pages', items: apiSidebar() }, ...guide],
      '/': guide,
    },
    search: { provider: 'local' },
    outline: { level: [2, 3] },
    socialLinks: [{ icon: 'github', link: repository }],
    editLink: { pattern: `${repository}/edit/main/docs/:path` },
    footer: { message: 'Apache-2.0 licensed.' },
  },
});
