/**
 * Sizes of what browsers download from the gateway, minified as built (dist/browser), with gzip and brotli
 * at their highest levels (what a CDN serves). Shared by `npm run bench` and the size budget test.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * The files measured, by what they are. `picker` is the module script's v1 mode, which it imports on demand
 * (only pages with `checkout-url` download it); the classic script carries it inline.
 */
export const BUNDLES = {
  scriptTag: ['svc-checkout.js'],
  picker: ['svc-checkout-v1.js'],
  classicScript: ['svc-checkout.classic.js'],
} as const;

export type BundleName = keyof typeof BUNDLES | 'frame';

const FRAME_ASSETS = 'frame/assets';
/** The frame's texts in one language, loaded on demand: a page load downloads one of them. */
const LANGUAGE_CHUNK = /^messages-[a-z]+\.js$/;

export interface Sizes {
  minified: number;
  gzip: number;
  brotli: number;
}

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

function read(root: string, file: string): Buffer {
  try {
    return readFileSync(join(root, file));
  } catch {
    throw new Error(`${join(root, file)} is missing; run \`npm run build:browser\` first`);
  }
}

/**
 * Each bundle's sizes in bytes. The frame counts what one page load downloads: its entry, every other
 * script and stylesheet it has, and the largest of its language chunks.
 */
export function bundleSizes(root = 'dist/browser'): Record<BundleName, Sizes> {
  const result = {} as Record<BundleName, Sizes>;
  for (const [name, files] of Object.entries(BUNDLES)) {
    result[name as keyof typeof BUNDLES] = sum(files.map((file) => sizesOf(read(root, file))));
  }
  read(root, `${FRAME_ASSETS}/frame.js`);
  const assets = readdirSync(join(root, FRAME_ASSETS)).filter((file) => /\.(js|css)$/.test(file));
  const sizesOfAsset = (file: string) => sizesOf(read(root, `${FRAME_ASSETS}/${file}`));
  const languages = assets
    .filter((file) => LANGUAGE_CHUNK.test(file))
    .map(sizesOfAsset)
    .sort((a, b) => b.gzip - a.gzip);
  const always = assets.filter((file) => !LANGUAGE_CHUNK.test(file)).map(sizesOfAsset);
  result.frame = sum([...always, ...languages.slice(0, 1)]);
  return result;
}
