/**
 * Sizes of what browsers download from the gateway, minified as built (dist/browser, by vite.config.ts),
 * with gzip and brotli at their highest levels (what a CDN serves), per file and per page load. Shared by
 * `npm run bench` and the size budget test (test/bundle/size-budget.test.ts). Files are named here by their
 * role, the built name without its content hash (`frame/assets/frame.js` for `frame-<hash>.js`), and found
 * through dist/browser/served-files.json.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import {
  type CardFormSettings,
  DEFAULT_CARD_SETTINGS,
  FRAME_MESSAGES,
  LANGUAGES,
} from '../src/core/index.js';
import type { FrameBootstrap } from '../src/core/widget-api.js';
import { dataBlockJson } from '../src/sandbox/http.js';

export interface Sizes {
  minified: number;
  gzip: number;
  brotli: number;
}

/** What one page load, or one step after it, downloads: files of dist/browser by their role. */
export interface Download {
  name: string;
  files: string[];
  sizes: Sizes;
}

export interface BundleSizes {
  /** Every script and stylesheet the gateway serves to browsers (source maps aside), by its role. */
  files: ReadonlyMap<string, Sizes>;
  /** The widget script as an ES module: what a merchant's page loads. */
  scriptTag: Sizes;
  /** Its v1 mode, which it imports on demand (only pages with `checkout-url` download it). */
  picker: Sizes;
  /** The widget script as a classic script, with the v1 mode inline. */
  classicScript: Sizes;
  /**
   * The v1 hosted checkout page's one script, its card form (the frame's formats, scheme marks and checks
   * over the page's own inputs): a page of its own, apart from the widget's page loads.
   */
  hostedCheckout: Sizes;
  /**
   * What a page with each kind of widget downloads before the customer does anything: the widget script,
   * the frame's first chunk, the texts that the frame's page carries (the largest language's), and the parts
   * of the form that the order shows; and, apart, what the frame page's first view adds to the page.
   */
  pageLoads: Array<Download & { firstView: Sizes }>;
  /**
   * What is downloaded only after the customer acted, in this load of the page or in an earlier one (a reload
   * finds the order as it was left): the 3-D Secure step, after a payment met a challenge, and the status
   * screens, once a payment is sent or has ended. Each is listed with its first chunk's name.
   */
  afterAction: Download[];
  /** What a page load adds only in some cases (named with the case). */
  onDemand: Download[];
  /** Chunks that no page load of a complete build, on a page set up right, downloads, with why they are built. */
  unreached: Download[];
}

const SCRIPT_TAG = 'svc-checkout.js';
const HOSTED_CHECKOUT = 'checkout/checkout-card.js';
const PICKER = 'svc-checkout-v1.js';
const FRAME_ASSETS = 'frame/assets';
/** The frame's texts in one language, loaded when the page changes its language after the frame started. */
const LANGUAGE_CHUNK = /^messages-[a-z]+\.js$/;
/** The frame page's texts: a page load downloads those of one language, in the page's data block. */
const PAGE_TEXTS = 'texts in the frame page';

/**
 * The frame's chunks by when they load (vite.config.ts builds them; src/sandbox/legacy/widget-pages.ts names the
 * first chunk for the widget's kind). Every built chunk must be here: the budget test fails on one that is not.
 */
const PAGE_LOADS = [
  { name: 'fixed-price or payment-option widget (the card form)', frame: ['frame.js'], fullCheckout: false },
  {
    name: 'full checkout, or an order (fixed, or from the page) with shipping options',
    frame: ['frame-checkout.js'],
    fullCheckout: true,
  },
];
const AFTER_ACTION = [
  { name: '3-D Secure step (card form)', frame: ['challenge-step.js'] },
  { name: 'status screens (card form)', frame: ['status-screen.js'] },
  { name: '3-D Secure step (full checkout)', frame: ['checkout-challenge-step.js'] },
  { name: 'status screens (full checkout)', frame: ['checkout-status-screen.js'] },
];
/** What a page load adds only in some cases, with the case. */
const ON_DEMAND = [
  // The checks of design tokens' values (core's colour names and grammars) load with a page's first token.
  {
    name: 'appearance checks, for a page that sets design tokens (card form)',
    frame: ['appearance.js', 'design-tokens.js'],
  },
  {
    name: 'appearance checks, for a page that sets design tokens (full checkout)',
    frame: ['checkout-appearance.js'],
  },
];
const UNREACHED = [
  // The gateway writes the form's styles into the frame's page with its first view.
  {
    name: "the form's styles, for a frame page without its first view's (card form)",
    frame: ['frame-styles.js', 'tokens.js', 'design-tokens.js'],
  },
  {
    name: "the form's styles, for a frame page without its first view's (full checkout)",
    frame: ['checkout-frame-styles.js'],
  },
  {
    name: 'customer fields for frame.js: only a gateway without frame-checkout.js serves it a full checkout',
    frame: ['customer-fields.js'],
  },
  {
    name: 'delivery fields for frame.js: only for an element that did not say its order has shipping options',
    frame: ['delivery-fields.js'],
  },
  // Only a page that sets a design token to a value the frame cannot use loads one, for the console.
  { name: 'messages of appearance values left out (card form)', frame: ['appearance-messages.js'] },
  {
    name: 'messages of appearance values left out (full checkout)',
    frame: ['checkout-appearance-messages.js'],
  },
];

function sizesOf(bytes: Buffer): Sizes {
  return {
    minified: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    }).length,
  };
}

function sum(all: Sizes[]): Sizes {
  return all.reduce(
    (total, sizes) => ({
      minified: total.minified + sizes.minified,
      gzip: total.gzip + sizes.gzip,
      brotli: total.brotli + sizes.brotli,
    }),
    { minified: 0, gzip: 0, brotli: 0 },
  );
}

/**
 * Role -> path under `root` of every built script and stylesheet, from served-files.json (vite.config.ts).
 * @throws Error naming the command to run when the build is missing.
 */
export function builtFiles(root = 'dist/browser'): ReadonlyMap<string, string> {
  let text: string;
  try {
    text = readFileSync(join(root, 'served-files.json'), 'utf8');
  } catch {
    throw new Error(`${join(root, 'served-files.json')} is missing; run \`npm run build:browser\` first`);
  }
  return new Map(Object.entries(JSON.parse(text) as Record<string, string>));
}

/** The frame's built chunks (its language chunks aside) of which this file does not say when they load. */
export function unclassifiedChunks(root = 'dist/browser'): string[] {
  const classified = new Set(
    [...PAGE_LOADS, ...AFTER_ACTION, ...ON_DEMAND, ...UNREACHED].flatMap((download) => download.frame),
  );
  return [...builtFiles(root).keys()]
    .filter((role) => role.startsWith(`${FRAME_ASSETS}/`))
    .map((role) => role.slice(FRAME_ASSETS.length + 1))
    .filter((file) => !LANGUAGE_CHUNK.test(file) && !classified.has(file));
}

/** What dist/browser/server/first-view.js exports (src/frame/first-view.ts). */
interface FirstViewModule {
  renderFirstView(bootstrap: FrameBootstrap, cardSettings: CardFormSettings): string;
  FIRST_VIEW_STYLES: string;
}

/**
 * What the frame page's first view adds to it (issue 26): the form's HTML and its styles, as
 * dist/browser/server/first-view.js renders them for the gateway, for a widget of the demo's kind (Visa and
 * Mastercard, a terms link). The page compresses them together with its texts, whose words the view repeats:
 * counted as the page with all three less the page with its texts alone, in the language where that is most.
 */
async function firstViewBytes(root: string, fullCheckout: boolean): Promise<Sizes> {
  const firstView = (await import(
    pathToFileURL(resolve(root, 'server', 'first-view.js')).href
  )) as FirstViewModule;
  return LANGUAGES.map((language) => {
    const bootstrap: FrameBootstrap = {
      config: {
        id: '00000000-0000-4000-8000-000000000001',
        type: 'CHECKOUT',
        validation: 'SIGNATURE',
        collectCustomerData: fullCheckout,
        merchant: { name: 'Demo shop', termsUrl: 'https://shop.example/terms' },
        defaults: { currency: 'EUR', taxRate: '21', language },
        allowedOrigins: ['https://shop.example'],
        pickupPoints: [],
        cardSchemes: ['VISA', 'MASTERCARD'],
        fixedOrder: null,
      },
      language,
      texts: FRAME_MESSAGES[language],
    };
    const texts = dataBlockJson(bootstrap.texts);
    const view = firstView.renderFirstView(bootstrap, DEFAULT_CARD_SETTINGS);
    const whole = sizesOf(Buffer.from(`<style>${firstView.FIRST_VIEW_STYLES}</style>${texts}${view}`));
    const textsAlone = sizesOf(Buffer.from(texts));
    return {
      minified: whole.minified - textsAlone.minified,
      gzip: whole.gzip - textsAlone.gzip,
      brotli: whole.brotli - textsAlone.brotli,
    };
  }).sort((a, b) => b.gzip - a.gzip)[0]!;
}

/** Sizes in bytes of each file, and of what each page load and each later step downloads. */
export async function bundleSizes(root = 'dist/browser'): Promise<BundleSizes> {
  const files = new Map<string, Sizes>();
  for (const [role, path] of builtFiles(root)) files.set(role, sizesOf(readFileSync(join(root, path))));
  const sizeOf = (file: string): Sizes => {
    const sizes = files.get(file);
    if (!sizes) throw new Error(`${join(root, file)} is missing; run \`npm run build:browser\` first`);
    return sizes;
  };
  const pageTexts = Object.values(FRAME_MESSAGES)
    .map((texts) => sizesOf(Buffer.from(dataBlockJson(texts))))
    .sort((a, b) => b.gzip - a.gzip)[0]!;
  const download = (name: string, paths: string[]): Download => ({
    name,
    files: paths,
    sizes: sum(paths.map((path) => (path === PAGE_TEXTS ? pageTexts : sizeOf(path)))),
  });
  const inFrame = (frame: string[]) => frame.map((file) => `${FRAME_ASSETS}/${file}`);
  return {
    files,
    scriptTag: sizeOf(SCRIPT_TAG),
    picker: sizeOf(PICKER),
    classicScript: sizeOf('svc-checkout.classic.js'),
    hostedCheckout: sizeOf(HOSTED_CHECKOUT),
    pageLoads: await Promise.all(
      PAGE_LOADS.map(async ({ name, frame, fullCheckout }) => ({
        ...download(name, [SCRIPT_TAG, ...inFrame(frame), PAGE_TEXTS]),
        firstView: await firstViewBytes(root, fullCheckout),
      })),
    ),
    afterAction: AFTER_ACTION.map(({ name, frame }) => download(name, inFrame(frame))),
    onDemand: ON_DEMAND.map(({ name, frame }) => download(name, inFrame(frame))),
    unreached: UNREACHED.map(({ name, frame }) => download(name, inFrame(frame))),
  };
}
