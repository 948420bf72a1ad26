/**
 * A merchant's brand on the hosted checkout page (`merchants[].brand` in the sandbox config): a stylesheet of
 * its own that sets the page's `--primary` and `--primary-contrast` (the page's Content-Security-Policy allows
 * no inline style, so the colours come as a file, loaded after the page's), and its logo, from its URL or
 * served from the file the config names. The colours were checked as hex with 4.5:1 contrast when the config
 * was read (config/brand.ts), so they reach the CSS as they are.
 */
import { readFile } from 'node:fs/promises';
import { contrastRatio } from '../config/brand.js';
import type { MerchantBrand } from '../config/types.js';
import type { SandboxConfig } from '../config.js';
import { escapeHtml, type Router } from '../http.js';

const BRAND_CSS_PREFIX = '/checkout/assets/brand/';
const BRAND_LOGO_PREFIX = '/checkout/assets/logo/';

/** Where a merchant's brand stylesheet is served. */
function brandStylesheetPath(merchantId: string): string {
  return `${BRAND_CSS_PREFIX}${encodeURIComponent(merchantId)}.css`;
}

/** The address of a brand's logo: its URL, or where the sandbox serves its file. */
export function brandLogoSource(merchantId: string, brand: MerchantBrand): string | undefined {
  if (brand.logo === undefined) return undefined;
  return 'url' in brand.logo ? brand.logo.url : `${BRAND_LOGO_PREFIX}${encodeURIComponent(merchantId)}`;
}

/** The origin the page's `img-src` must allow for a brand's logo, when it is not the sandbox's own. */
export function brandImageOrigin(brand: MerchantBrand | undefined): string | undefined {
  return brand?.logo && 'url' in brand.logo ? new URL(brand.logo.url).origin : undefined;
}

/**
 * The brand's stylesheet: the page's colour tokens, replaced. `--accent` marks the chosen method on white, so
 * it is the brand colour only where that stands out from white (3:1, WCAG 1.4.11), else the text on it: a
 * yellow brand with dark text marks the choice in its dark text colour.
 */
export function brandCss(brand: MerchantBrand): string {
  const accent = contrastRatio(brand.color, '#ffffff') >= 3 ? brand.color : brand.textColor;
  return `:root { --primary: ${brand.color}; --primary-contrast: ${brand.textColor}; --accent: ${accent}; }\n`;
}

/** The `<link>` of the brand's stylesheet, for the page's head. */
export function brandStylesheetLink(merchantId: string): string {
  return `<link rel="stylesheet" href="${escapeHtml(brandStylesheetPath(merchantId))}">`;
}

/** Serves each branded merchant's stylesheet and logo file. */
export function mountBrandAssets(router: Router, config: SandboxConfig): void {
  const brandOf = (name: string | undefined) =>
    config.merchants.find((merchant) => merchant.id === name && merchant.brand !== undefined)?.brand;
  router.on('GET', `${BRAND_CSS_PREFIX}:file`, ({ res, params }) => {
    const file = params['file'] ?? '';
    const brand = file.endsWith('.css') ? brandOf(file.slice(0, -'.css'.length)) : undefined;
    if (!brand) {
      res.writeHead(404, { 'content-length': 0 });
      res.end();
      return;
    }
    const css = brandCss(brand);
    res.writeHead(200, {
      'content-type': 'text/css; charset=utf-8',
      'content-length': Buffer.byteLength(css),
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
    });
    res.end(css);
  });
  router.on('GET', `${BRAND_LOGO_PREFIX}:merchant`, async ({ res, params }) => {
    const logo = brandOf(params['merchant'])?.logo;
    const bytes = logo && 'file' in logo ? await readFile(logo.file).catch(() => undefined) : undefined;
    if (!logo || !('file' in logo) || bytes === undefined) {
      res.writeHead(404, { 'content-length': 0 });
      res.end();
      return;
    }
    // An SVG logo is shown as an image, never as a page of its own with scripts.
    res.writeHead(200, {
      'content-type': logo.contentType,
      'content-length': bytes.length,
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    });
    res.end(bytes);
  });
}
