#!/usr/bin/env node
// Builds what browsers load from the gateway into dist/browser, which the sandbox serves:
//   svc-checkout.js          the widget script as an ES module   (<script type="module" src=".../widget/svc-checkout.js">)
//   svc-checkout-v1.js       its v1 mode (the payment method picker), which the module imports on demand
//                            when an element has checkout-url, so legacy pages never download it
//   svc-checkout.classic.js  the same as a classic script, for pages without modules; a classic script
//                            cannot load a chunk of its own, so v1 mode is inlined there
//   frame/assets/frame.js    the payment frame's app (its page is written by the sandbox, with its CSP)
// The npm package itself is built by tsc, unbundled. One Vite build per output: a library build has one
// format, and the classic script must not empty the module's folder.
import { rmSync } from 'node:fs';
import { build } from 'vite';

const outDir = 'dist/browser';

// Vite wraps each dynamic import() in a preload helper; the frame's language chunks import nothing, and the
// widget's v1 chunk imports only the widget script itself, which has loaded, so the helper is replaced by a
// plain call.
const PRELOAD_HELPER = '\0vite/preload-helper.js';
const noPreloadHelper = {
  name: 'no-preload-helper',
  enforce: 'pre',
  resolveId: (id) => (id === 'vite/preload-helper.js' || id === PRELOAD_HELPER ? PRELOAD_HELPER : undefined),
  load: (id) => (id === PRELOAD_HELPER ? 'export const __vitePreload = (load) => load();' : undefined),
};

const common = (overrides) => ({
  configFile: false,
  logLevel: 'warn',
  ...overrides,
  build: { target: 'es2022', sourcemap: true, minify: true, emptyOutDir: false, ...overrides.build },
});

rmSync(outDir, { recursive: true, force: true });

// Not a library build: library builds keep whitespace in ES output (for the npm package's tree-shaking),
// but this file is what pages download, so it is minified fully.
// The v1 chunk keeps its module's name (src/element/svc-checkout-v1.ts): the sandbox serves widget files by
// name from an allow-list (WIDGET_SCRIPTS in src/sandbox/widget-pages.ts).
await build(
  common({
    plugins: [noPreloadHelper],
    build: {
      outDir,
      rolldownOptions: {
        input: 'src/element/script-tag.ts',
        output: { format: 'es', entryFileNames: 'svc-checkout.js', chunkFileNames: '[name].js' },
      },
    },
  }),
);

await build(
  common({
    build: {
      outDir,
      lib: {
        entry: 'src/element/script-tag.ts',
        formats: ['iife'],
        name: 'svcCheckout',
        fileName: () => 'svc-checkout.classic.js',
      },
    },
    // A classic script has no import.meta; script-tag.ts reads document.currentScript first.
    define: { 'import.meta.url': 'undefined' },
  }),
);

await build(
  common({
    plugins: [noPreloadHelper],
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
  }),
);
