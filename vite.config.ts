/**
 * What browsers load from the gateway, built by `vite build` (`npm run build:browser`) into dist/browser,
 * which the sandbox serves under `/widget/`. Two files keep stable names, because merchants' pages name them;
 * everything they and the frame's page load is named by its content (`<name>-<hash>.js`), so that the gateway
 * can let browsers keep it for a year (src/sandbox/built-files.ts). Below, each file by its role, the name
 * without the hash; `served-files.json` maps each role to the file built for it:
 *   svc-checkout.js          the widget script as an ES module (`<script type="module" src=".../widget/svc-checkout.js">`)
 *   svc-checkout-v1.js       its v1 mode (the payment method picker), which the module imports on demand when an
 *                            element has `checkout-url`, so legacy pages never download it
 *   console-message.js       the sentences of the element's console lines (what the merchant must fix), which
 *                            it imports on its first failure, so pages that never fail never download them
 *   svc-checkout.classic.js  the same as a classic script, for pages without modules; a classic script cannot
 *                            load a chunk of its own, so v1 mode and the console's sentences are inlined there
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
 * The frame's page is written by the sandbox (src/sandbox/legacy/widget-pages.ts), with its CSP; it names the first
 * chunk for the widget's kind, found by its role in served-files.json.
 *   checkout/checkout-card.js  the v1 hosted checkout page's script (src/frame/hosted-card-form.ts): the frame's
 *                            card form code (formats, scheme marks, checks) over the page's own inputs, and the
 *                            deadline of a `due_strict` Purchase; one file, which the sandbox's page names by its
 *                            role (src/sandbox/v1/checkout-routes.ts)
 *
 * Each output is a Vite environment of its own (a build has one format, one entry naming scheme, and shares
 * every module two of its entries use), and `builder` makes `vite build` build all five, in the order of
 * `buildApp`. The npm package's ES modules are not built here: `tsc -p tsconfig.build.json` emits them
 * unbundled. The demo shop has its own config (demo/vite.config.ts), a dev server over the source.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

/**
 * Collapses the white space that only indents a template's text; one space keeps what HTML renders. A line
 * break before a tag's `>` goes entirely: it only wraps the tag's attributes.
 */
function minifyHtml(text: string): string {
  return text.replace(/\s*\n\s*(?=>)/g, '').replace(/\s*\n\s*/g, ' ');
}

/**
 * Drops comments, the white space around CSS punctuation, around the child combinator and around `*` before
 * a number (in `calc()`), and the zero before a decimal point (`0.75` is `.75`). A space before `:` stays:
 * in a selector it is a descendant combinator (`svc-payment-frame :focus-visible`), as is the space before a
 * `*` that selects any element.
 */
function minifyCss(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/ ?([{};,>]) ?/g, '$1')
    .replace(/ \* (?=[\d.])/g, '*')
    .replace(/(?<![\w.-])0\.(?=\d)/g, '.')
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
 * import Lit (`lit`, `lit/html.js` as the element's picker does, or `@lit/reactive-element`). A template part with a backslash is left alone, since its escapes would need decoding first.
 */
const minifyTemplates: Plugin = {
  name: 'minify-lit-templates',
  enforce: 'post',
  transform(code, id) {
    if (
      !/\/src\/.+\.ts$/.test(id) ||
      !/from\s*['"](?:lit|@lit\/reactive-element)(?:\/[\w.]+)?['"]/.test(code)
    ) {
      return undefined;
    }
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

/** The file that maps each built file's role (its name without the hash) to its name; see the top of this file. */
const SERVED_FILES = 'served-files.json';

/**
 * Output names per environment: where it writes (under dist/browser) and its naming patterns. A role is the
 * pattern without `-[hash]`, with the chunk's name or the asset's extension filled in.
 */
const NAMING = {
  widget: {
    folder: '',
    entry: 'svc-checkout.js',
    chunk: '[name]-[hash].js',
    asset: '[name]-[hash][extname]',
  },
  classic: {
    folder: '',
    entry: 'svc-checkout.classic.js',
    chunk: '[name]-[hash].js',
    asset: '[name]-[hash][extname]',
  },
  frame: {
    folder: 'frame/assets/',
    entry: 'frame-[hash].js',
    chunk: '[name]-[hash].js',
    asset: 'frame-[hash][extname]',
  },
  frameCheckout: {
    folder: 'frame/assets/',
    entry: 'frame-checkout-[hash].js',
    chunk: 'checkout-[name]-[hash].js',
    asset: 'frame-checkout-[hash][extname]',
  },
  hostedCard: {
    folder: 'checkout/',
    entry: 'checkout-card-[hash].js',
    chunk: 'checkout-card-[name]-[hash].js',
    asset: 'checkout-card-[hash][extname]',
  },
} as const;
type OutputName = keyof typeof NAMING;

/**
 * served-files.json as built so far. Each environment is built with its own instance of this config (Vite
 * resolves the config per environment), so what one build tells a later one goes through the file on disk;
 * the first build (widget) empties dist/browser, and so starts it afresh.
 */
function readServedFiles(): Record<string, string> {
  const path = join(outDir, SERVED_FILES);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>) : {};
}

/**
 * Records each built script and stylesheet under its role in served-files.json. Source maps follow their file
 * (`<file>.map`) and are not listed.
 */
const recordServedFiles: Plugin = {
  name: 'served-files',
  // The gateway's own module is imported by the gateway, not served.
  applyToEnvironment: (environment) => environment.name !== 'firstView',
  writeBundle(_options, bundle) {
    const naming = NAMING[this.environment.name as OutputName];
    const served = readServedFiles();
    for (const output of Object.values(bundle)) {
      let role: string;
      if (output.type === 'chunk') {
        role = output.isEntry ? naming.entry : naming.chunk.replace('[name]', output.name);
      } else {
        const extension = /\.[a-z]+$/.exec(output.fileName)?.[0] ?? '';
        if (extension === '.map') continue;
        role = naming.asset.replace('[name]', output.names[0] ?? '').replace('[extname]', extension);
      }
      role = `${naming.folder}${role.replace('-[hash]', '')}`;
      if (role in served) this.error(`two built files for the role ${role}`);
      served[role] = `${naming.folder}${output.fileName}`;
    }
    const sorted = Object.fromEntries(Object.entries(served).sort(([a], [b]) => (a < b ? -1 : 1)));
    writeFileSync(join(outDir, SERVED_FILES), `${JSON.stringify(sorted, null, 2)}\n`);
  },
};

/**
 * The full checkout's build (and the first view's): form-parts.eager.ts in place of form-parts.ts, and the language chunks of the
 * card form's build (the same modules, which import nothing) rather than copies of them.
 */
const fullCheckout: Plugin = {
  name: 'full-checkout-frame',
  enforce: 'pre',
  // The first view's module has the parts built in too: the full checkout's first view shows them.
  applyToEnvironment: (environment) => ['frameCheckout', 'firstView'].includes(environment.name),
  resolveId(source, importer) {
    if (!importer?.includes('/src/frame/')) return undefined;
    if (source === './form-parts.js' && !importer.endsWith('/form-parts.eager.ts')) {
      return fileURLToPath(new URL('src/frame/form-parts.eager.ts', import.meta.url));
    }
    if (this.environment.name === 'firstView') return undefined;
    // A relative external stays as written: beside frame-checkout-<hash>.js, where the card form's build put it
    // under its content-hashed name (built first, see OUTPUTS).
    if (/^\.\/messages-[a-z]+\.js$/.test(source)) {
      const built = readServedFiles()[`frame/assets/${source.slice(2)}`];
      if (!built) this.error(`the card form's build made no chunk for ${source}`);
      return { id: `./${built.slice('frame/assets/'.length)}`, external: true };
    }
    return undefined;
  },
};

/**
 * The classic script's build: the element's on-demand imports (the v1 picker, the console's fix sentences)
 * become static ones. A classic script holds every module anyway, and an inlined dynamic import would wrap its
 * module in a lazy initialiser besides.
 */
const staticImportsInClassic: Plugin = {
  name: 'static-imports-in-classic-script',
  enforce: 'pre',
  applyToEnvironment: (environment) => environment.name === 'classic',
  transform(code, id) {
    if (!id.includes('/src/element/')) return undefined;
    // A type query (`typeof import(...)`) is no import.
    const imports: string[] = [];
    const replaced = code.replace(
      /(?<!typeof )\bimport\((['"])(\.\/[\w.-]+\.js)\1\)/g,
      (_call, _quote, path: string) => {
        imports.push(`import * as onDemand${imports.length} from '${path}';`);
        return `Promise.resolve(onDemand${imports.length - 1})`;
      },
    );
    return imports.length > 0 ? `${imports.join('\n')}\n${replaced}` : undefined;
  },
};

/** The order the outputs are built in: the first empties dist/browser, the others add to it. */
const OUTPUTS = [
  'widget',
  'classic',
  'frame',
  'frameCheckout',
  'hostedCard',
] as const satisfies readonly OutputName[];

export default defineConfig({
  logLevel: 'warn',
  // No index.html and no public/ folder: every output names its entry.
  publicDir: false,
  plugins: [noPreloadHelper, minifyTemplates, fullCheckout, staticImportsInClassic, recordServedFiles],
  // Hidden: no `sourceMappingURL` comment in what browsers download (two per page load); the gateway names
  // each script's map in a `SourceMap` response header instead (src/sandbox/built-files.ts).
  build: { target: 'es2022', sourcemap: 'hidden', minify: true, emptyOutDir: false },
  environments: {
    // Not a library build: library builds keep whitespace in ES output (for a package's tree-shaking), but
    // this file is what pages download, so it is minified fully. The v1 chunk is named by its module
    // (src/element/svc-checkout-v1.ts) and its content: `svc-checkout-v1-<hash>.js`.
    widget: {
      consumer: 'client',
      build: {
        outDir,
        emptyOutDir: true,
        rolldownOptions: {
          input: 'src/element/script-tag.ts',
          output: { format: 'es', entryFileNames: NAMING.widget.entry, chunkFileNames: NAMING.widget.chunk },
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
          fileName: () => NAMING.classic.entry,
        },
      },
    },
    // Chunks are named by their module and content: the sandbox's frame page names its first chunk, and
    // bench/bundle-sizes.ts counts each chunk, each found by its role.
    frame: {
      consumer: 'client',
      build: {
        outDir: frameOutDir,
        cssCodeSplit: false,
        rolldownOptions: {
          input: 'src/frame/main.ts',
          output: {
            format: 'es',
            entryFileNames: NAMING.frame.entry,
            chunkFileNames: NAMING.frame.chunk,
            assetFileNames: NAMING.frame.asset,
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
            entryFileNames: NAMING.frameCheckout.entry,
            chunkFileNames: NAMING.frameCheckout.chunk,
            assetFileNames: NAMING.frameCheckout.asset,
          },
        },
      },
    },
    // The frame's first view, rendered by the gateway into the frame's page (src/frame/first-view.ts): a Node
    // module with Lit's server renderer and the frame's templates, minified as the frame's own so that their
    // digests match. In dist/browser/server, which the gateway never serves.
    firstView: {
      consumer: 'server',
      resolve: { noExternal: true },
      build: {
        outDir: `${outDir}/server`,
        ssr: 'src/frame/first-view.ts',
        sourcemap: false,
        // One file: the frame's later steps (status screens, texts) are never rendered here.
        rolldownOptions: { output: { format: 'es', entryFileNames: 'first-view.js', codeSplitting: false } },
      },
    },
    hostedCard: {
      consumer: 'client',
      build: {
        outDir: `${outDir}/checkout`,
        rolldownOptions: {
          input: 'src/frame/hosted-card-form.ts',
          output: {
            format: 'es',
            entryFileNames: NAMING.hostedCard.entry,
            chunkFileNames: NAMING.hostedCard.chunk,
            assetFileNames: NAMING.hostedCard.asset,
          },
        },
      },
    },
  },
  builder: {
    async buildApp(builder) {
      for (const name of [...OUTPUTS, 'firstView']) {
        const environment = builder.environments[name];
        if (!environment) throw new Error(`vite.config.ts: no environment ${name}`);
        await builder.build(environment);
      }
    },
  },
});
