/**
 * A merchant's brand on the v1 hosted payment page (`merchants[].brand`): its colours are checked as the
 * page's stylesheet will use them (hex only, so nothing but a colour reaches the CSS), text on the brand
 * colour must reach WCAG AA's 4.5:1, and a logo is a URL or an image file beside the config.
 */
import { statSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { isHttpUrl } from '../formats.js';
import { type ConfigIssue, errorText } from './config-error.js';
import type { MerchantBrand, MerchantBrandFile } from './types.js';

/** The page's own button colour and its text, which a brand replaces. */
const DEFAULT_BRAND_COLORS = { color: '#0b5cad', textColor: '#ffffff' } as const;

/** WCAG AA for normal text: the buttons' labels are 16px. */
const MIN_TEXT_CONTRAST = 4.5;

/** The most read from a logo file. */
const MAX_LOGO_BYTES = 512 * 1024;

const LOGO_TYPES: Readonly<Record<string, string>> = {
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
};

/** `#rgb` or `#rrggbb` as lower-case `#rrggbb`, or undefined for anything else. */
export function hexColor(text: string): string | undefined {
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(text);
  if (!match) return undefined;
  const digits = match[1]!.toLowerCase();
  return `#${digits.length === 3 ? [...digits].map((digit) => digit + digit).join('') : digits}`;
}

/** The WCAG contrast ratio of two `#rrggbb` colours. */
export function contrastRatio(first: string, second: string): number {
  const luminance = (color: string) => {
    const [red, green, blue] = [1, 3, 5].map((at) => {
      const value = Number.parseInt(color.slice(at, at + 2), 16) / 255;
      return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * red! + 0.7152 * green! + 0.0722 * blue!;
  };
  const [one, other] = [luminance(first), luminance(second)];
  return (Math.max(one, other) + 0.05) / (Math.min(one, other) + 0.05);
}

/**
 * The checked brand, reporting each problem at its field path (`merchants[0].brand.color`); `baseDir` is where
 * a logo file's path starts.
 */
export function checkBrand(
  brand: MerchantBrandFile,
  path: string,
  baseDir: string,
  add: (issue: ConfigIssue) => void,
): MerchantBrand {
  const colorAt = (member: 'color' | 'textColor'): string | undefined => {
    const written = brand[member];
    if (written === undefined) return DEFAULT_BRAND_COLORS[member];
    const color = hexColor(written);
    if (color === undefined) {
      add({
        path: `${path}.${member}`,
        message: `${JSON.stringify(written)} is not a colour the page takes: write #rgb or #rrggbb, such as #0b5cad`,
      });
    }
    return color;
  };
  const color = colorAt('color');
  const textColor = colorAt('textColor');
  if (color === undefined || textColor === undefined) return { ...DEFAULT_BRAND_COLORS };
  const ratio = contrastRatio(color, textColor);
  if (ratio < MIN_TEXT_CONTRAST) {
    const lightText = contrastRatio(textColor, '#000000') > contrastRatio(textColor, '#ffffff');
    const fits = ['#ffffff', '#000000'].filter((text) => contrastRatio(color, text) >= MIN_TEXT_CONTRAST);
    add({
      path: `${path}.${brand.textColor === undefined ? 'color' : 'textColor'}`,
      message:
        `the text ${textColor} on the brand colour ${color} has a contrast of ${ratio.toFixed(2)}:1, and the pay button's label needs ${MIN_TEXT_CONTRAST}:1 (WCAG AA): ` +
        (fits.length > 0
          ? `set textColor to ${fits.join(' or ')}, or choose a ${lightText ? 'darker' : 'lighter'} color`
          : 'choose a darker or lighter color'),
    });
  }
  const checked: MerchantBrand = { color, textColor };
  if (brand.name !== undefined) checked.name = brand.name;
  if (brand.logo !== undefined) {
    const logo = checkLogo(brand.logo, baseDir);
    if ('problem' in logo) add({ path: `${path}.logo`, message: logo.problem });
    else checked.logo = logo;
  }
  return checked;
}

function checkLogo(
  logo: string,
  baseDir: string,
): { url: string } | { file: string; contentType: string } | { problem: string } {
  if (/^[a-z][a-z0-9+.-]*:/i.test(logo)) {
    return isHttpUrl(logo) ? { url: logo } : { problem: 'must be an absolute http(s) URL or an image file' };
  }
  const file = resolve(baseDir, logo);
  const contentType = LOGO_TYPES[extname(file).toLowerCase()];
  if (contentType === undefined) {
    return { problem: `${file} is not an image the page shows: use an SVG, PNG, JPEG, WebP or GIF file` };
  }
  try {
    const stat = statSync(file);
    if (!stat.isFile()) return { problem: `${file} is not a file` };
    if (stat.size > MAX_LOGO_BYTES)
      return { problem: `${file} is larger than 512 KB, the most a logo may be` };
  } catch (error) {
    return { problem: `cannot read ${file}: ${errorText(error)}` };
  }
  return { file, contentType };
}
