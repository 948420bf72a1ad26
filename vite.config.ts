/**
 * What browsers load from the gateway, built by `vite build` (`npm run build:browser`) into dist/browser,
 * which the sandbox serves under `/widget/`:
 *   svc-checkout.js          the widget script as an ES module (`<script type="module" src=".../widget/svc-checkout.js">`)
 *   svc-checkout-v1.js       its v1 mode (the payment method picker), which the module imports on demand when an
 *                            element has `checkout-url`, so legacy pages never download it
 *   svc-checkout.classic.js  the same as a classic script, for pages without modules; a classic script cannot
 *                            load a chunk of its own, so v1 mode is inlined there
 *   frame/assets/frame.js    the payment frame's first chunk: the card form, for fixed-price and payment-option
 *                            widgets. Beside it the chunks it imports on demand: its texts in one language
 *                            (`messages-<lang>.js`), the delivery fields for an order with shipping options
 *                            (`delivery-fields.js`), the customer's fields (`customer-fields.js`), the status
 *                            screens once a payment is sent or found ended (`status-screen.js`), and the 3-D
 *                            Secure step once a payment meets a challenge (`challenge-step.js`)
 *   frame/assets/frame-checkout.js  the first chunk of the full checkout (and of a fixed order with shipping
 *                            options): the same app with the customer's and the delivery fields built in
 *                            (form-parts.eager.ts), so that its page load is one file; its later steps are
 *                            `checkout-status-screen.js` and `checkout-challenge-step.js`, and it shares the
 *                            language chunks of frame.js
 * The frame's page is written by the sandbox (src/sandbox/widget-pages.ts), with its CSP; it names the first
 * chunk for the widget's kind.
 *
 * Each output is a Vite environment of its own (a build has one format, one entry naming scheme, and shares
 * every module two of its entries use), and `builder` makes `vite build` build all four, in the order of
 * `buildApp`. The npm package's ES modules are not built here: `tsc -p tsconfig.build.json` emits them
 * unbundled. The demo shop has its own config (demo/vite.config.ts), a dev server over the source.
 */
import { fileURLToPath } from 'node:url';
// Vite 8's bundler, installed with it: its native MagicString keeps the source maps of what a plugin edits.
import { RolldownMagicString } from 'rolldown';
import { defineConfig, type Plugin } from 'vite';

const outDir = 'dist/browser';
const frameOutDir = `${outDir}/frame/assets`;

// Vite wraps each dynamic import() in a preload helper; the frame's chunks import only its first chunk, and
// the widget's v1 chunk only the widget script itself, each of which has loaded, so the helper is replaced by
// a plain call. (The classic script inlines its one dynamic import, so the helper never reaches it.)
const PRELOAD_HELPER = '\0vite/preload-helper.js';
const noPreloadHelper: Plugin = {
  name: 'no-preload-helper',
  enforce: 'pre',
  resolveId: (id) => (id === 'vite/preload-helper.js' || id === PRELOAD_HELPER ? PRELOAD_HELPER : undefined),
  load: (id) => (id === PRELOAD_HELPER ? 'export const __vitePreload = (load) => load();' : undefined),
};

/** Collapses the white space that only indents a template's text; one space keeps what HTML renders. */
function minifyHtml(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}

/**
 * Drops comments and the white space around CSS punctuation. A space before `:` stays: in a selector it is a
 * descendant combinator (`svc-payment-frame :focus-visible`).
 */
function minifyCss(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/ ?([{};,]) ?/g, '$1')
    .replace(/: /g, ':')
    .replace(/;}/g, '}');
}

const MINIFIERS: Readonly<Record<string, (text: string) => string>> = {
  css: minifyCss,
  html: minifyHtml,
  svg: minifyHtml,
};

interface AstNode {
  type?: string;
  [key: string]: unknown;
}

/**
 * Lit's `css`, `html` and `svg` templates keep their indentation and newlines through the minifier (they are
 * strings to it): about 2 KB of the frame's first chunk, 0.3 KB gzip. This trims them in our modules that
 * import Lit. A template part with a backslash is left alone, since its escapes would need decoding first.
 */
const minifyTemplates: Plugin = {
  name: 'minify-lit-templates',
  enforce: 'post',
  transform(code, id) {
    if (!/\/src\/.+\.ts$/.test(id) || !/from\s*['"]lit['"]/.test(code)) return undefined;
    const output = new RolldownMagicString(code);
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) {
        for (const child of node) visit(child);
        return;
      }
      if (typeof node !== 'object' || node === null) return;
      const ast = node as AstNode;
      const tag = ast['tag'] as AstNode | undefined;
      const minify =
        ast.type === 'TaggedTemplateExpression' &&
        tag?.type === 'Identifier' &&
        MINIFIERS[tag['name'] as string];
      if (minify) {
        const quasis = (
          ast['quasi'] as { quasis: Array<{ start: number; end: number; value: { raw: string } }> }
        ).quasis;
        for (const { start, end, value } of quasis) {
          // The parser's offsets are checked against the text, so that a mismatch never rewrites the wrong span.
          if (value.raw.includes('\\') || code.slice(start, end) !== value.raw) continue;
          const minified = minify(value.raw);
          if (minified !== value.raw) output.overwrite(start, end, minified);
        }
      }
      for (const [key, child] of Object.entries(ast)) if (key !== 'type') visit(child);
    };
    visit(this.parse(code));
    return output.hasChanged() ? { code: output } : undefined;
  },
};

/**
 * The full checkout's build: form-parts.eager.ts in place of form-parts.ts, and the language chunks of the
 * card form's build (the same modules, which import nothing) rather than copies of them.
 */
const fullCheckout: Plugin = {
  name: 'full-checkout-frame',
  enforce: 'pre',
  applyToEnvironment: (environment) => environment.name === 'frameCheckout',
  resolveId(source, importer) {
    if (!importer?.includes('/src/frame/')) return undefined;
    if (source === './form-parts.js' && !importer.endsWith('/form-parts.eager.ts')) {
      return fileURLToPath(new URL('src/frame/form-parts.eager.ts', import.meta.url));
    }
    // A relative external stays as written: beside frame-checkout.js, where the card form's build puts it.
    if (/^\.\/messages-[a-z]+\.js$/.test(source)) return { id: source, external: true };
    return undefined;
  },
};

/** The order the outputs are built in: the first empties dist/browser, the others add to it. */
const OUTPUTS = ['widget', 'classic', 'frame', 'frameCheckout'] as const;

export default defineConfig({
  logLevel: 'warn',
  // No index.html and no public/ folder: every output names its entry.
  publicDir: false,
  plugins: [noPreloadHelper, minifyTemplates, fullCheckout],
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
    // Chunks keep their module's name: the sandbox's frame page preloads its language's texts
    // (messages-<lang>.js), and bench/bundle-sizes.ts counts each chunk by name.
    frame: {
      consumer: 'client',
      build: {
        outDir: frameOutDir,
        cssCodeSplit: false,
        rolldownOptions: {
          input: 'src/frame/main.ts',
          output: {
            format: 'es',
            entryFileNames: 'frame.js',
            chunkFileNames: '[name].js',
            assetFileNames: 'frame[extname]',
          },
        },
      },
    },
    frameCheckout: {
      consumer: 'client',
      build: {
        outDir: frameOutDir,
        cssCodeSplit: false,
        rolldownOptions: {
          input: 'src/frame/main.ts',
          output: {
            format: 'es',
            entryFileNames: 'frame-checkout.js',
            chunkFileNames: 'checkout-[name].js',
            assetFileNames: 'frame-checkout[extname]',
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
