/**
 * What browsers load from the gateway, built by `vite build` (`npm run build:browser`) into dist/browser,
 * which the sandbox serves under `/widget/`:
 *   svc-checkout.js          the widget script as an ES module (`<script type="module" src=".../widget/svc-checkout.js">`)
 *   svc-checkout-v1.js       its v1 mode (the payment method picker), which the module imports on demand when an
 *                            element has `checkout-url`, so legacy pages never download it
 *   svc-checkout.classic.js  the same as a classic script, for pages without modules; a classic script cannot
 *                            load a chunk of its own, so v1 mode is inlined there
 *   frame/assets/frame.js    the payment frame's app, with its language chunks (`messages-<lang>.js`); its page
 *                            is written by the sandbox, with its CSP
 *
 * Each output is a Vite environment of its own (a build has one format, and one entry naming scheme), and
 * `builder` makes `vite build` build all three, in the order of `buildApp`. The npm package's ES modules are
 * not built here: `tsc -p tsconfig.build.json` emits them unbundled. The demo shop has its own config
 * (demo/vite.config.ts), a dev server over the source.
 */
import { defineConfig, type Plugin } from 'vite';

const outDir = 'dist/browser';

// Vite wraps each dynamic import() in a preload helper; the frame's language chunks import nothing, and the
// widget's v1 chunk imports only the widget script itself, which has loaded, so the helper is replaced by a
// plain call. (The classic script inlines its one dynamic import, so the helper never reaches it.)
const PRELOAD_HELPER = '\0vite/preload-helper.js';
const noPreloadHelper: Plugin = {
  name: 'no-preload-helper',
  enforce: 'pre',
  resolveId: (id) => (id === 'vite/preload-helper.js' || id === PRELOAD_HELPER ? PRELOAD_HELPER : undefined),
  load: (id) => (id === PRELOAD_HELPER ? 'export const __vitePreload = (load) => load();' : undefined),
};

/** The order the outputs are built in: the first empties dist/browser, the others add to it. */
const OUTPUTS = ['widget', 'classic', 'frame'] as const;

export default defineConfig({
  logLevel: 'warn',
  // No index.html and no public/ folder: every output names its entry.
  publicDir: false,
  plugins: [noPreloadHelper],
  build: { target: 'es2022', sourcemap: true, minify: true, emptyOutDir: false },
  environments: {
    // Not a library build: library builds keep whitespace in ES output (for a package's tree-shaking), but
    // this file is what pages download, so it is minified fully. The v1 chunk keeps its module's name
    // (src/element/svc-checkout-v1.ts): the sandbox serves widget files by name from an allow-list
    // (WIDGET_SCRIPTS in src/sandbox/widget-pages.ts).
    widget: {
      consumer: 'client',
      build: {
        outDir,
        emptyOutDir: true,
        rolldownOptions: {
          input: 'src/element/script-tag.ts',
          output: { format: 'es', entryFileNames: 'svc-checkout.js', chunkFileNames: '[name].js' },
        },
      },
    },
    classic: {
      consumer: 'client',
      // A classic script has no import.meta; script-tag.ts reads document.currentScript first.
      define: { 'import.meta.url': 'undefined' },
      build: {
        outDir,
        lib: {
          entry: 'src/element/script-tag.ts',
          formats: ['iife'],
          name: 'svcCheckout',
          fileName: () => 'svc-checkout.classic.js',
        },
      },
    },
    frame: {
      consumer: 'client',
      build: {
        outDir: `${outDir}/frame/assets`,
        cssCodeSplit: false,
        rolldownOptions: {
          input: 'src/frame/main.ts',
          // Chunks keep their module's name: the frame loads its language's texts (messages-<lang>.js) on demand.
          output: {
            format: 'es',
            entryFileNames: 'frame.js',
            chunkFileNames: '[name].js',
            assetFileNames: 'frame[extname]',
          },
        },
      },
    },
  },
  builder: {
    async buildApp(builder) {
      for (const name of OUTPUTS) {
        const environment = builder.environments[name];
        if (!environment) throw new Error(`vite.config.ts: no environment ${name}`);
        await builder.build(environment);
      }
    },
  },
});
