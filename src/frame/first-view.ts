/**
 * The frame's first view as HTML, for the gateway to write into the frame's page: the card form is then
 * focusable before any script of ours has run, and the frame's code takes the same elements over when it
 * comes (server-markup.ts). Rendered by Lit's server renderer from the same templates the browser renders;
 * built by `vite build` into `dist/browser/server/first-view.js`, a Node module that the gateway imports
 * (and never serves).
 */

import { render } from '@lit-labs/ssr';
import { collectResultSync } from '@lit-labs/ssr/lib/render-result.js';
import type { CardFormSettings } from '../core/index.js';
import type { FrameBootstrap } from '../core/widget-api.js';
import { FIRST_VIEW_STYLES_ID } from './first-view-styles.js';
import { FRAME_STYLES } from './frame-styles.js';
import { SvcPaymentFrame } from './payment-frame.js';
import { LIGHT_MARKER_PREFIX } from './server-markup.js';

/** `<template shadowrootmode>` as Lit's server renderer writes an element's own markup (our elements have none). */
const DECLARATIVE_ROOT = /<template shadowroot="open" shadowrootmode="open">([\s\S]*?)<\/template>/g;

/**
 * The frame's elements render into the light DOM (payment-frame.ts says why), which Lit's server renderer
 * writes as a declarative shadow root. The markup moves out of it, before the element's end tag, and its
 * part markers are renamed: they are the inner element's, which it takes over itself, and the outer
 * element's takeover must not read them as its own.
 */
function inLightDom(html: string): string {
  return html.replace(DECLARATIVE_ROOT, (_, markup: string) =>
    markup.replace(/<!--(\/?)lit-(part|node)/g, `<!--$1${LIGHT_MARKER_PREFIX}$2`),
  );
}

/** The `<svc-payment-frame>` element with its first view, waiting (`defer-hydration`) for the frame's code. */
export function renderFirstView(bootstrap: FrameBootstrap, cardSettings: CardFormSettings): string {
  const frame = new SvcPaymentFrame();
  frame.bootstrap = bootstrap;
  frame.cardSettings = cardSettings;
  const markup = collectResultSync(render(frame.firstView(), { deferHydration: true }));
  // The settings it was rendered for, which the frame's code compares with its own (from its URL).
  const settings = `card-layout="${cardSettings.layout}" cardholder-name="${cardSettings.holder}"`;
  return `<svc-payment-frame ${settings} defer-hydration>${inLightDom(markup)}</svc-payment-frame>`;
}

/**
 * The styles of the first view, which the gateway writes into the page's head (its policy allows that
 * `<style>` by its hash): the first view shows as the frame's code will show it, before that code comes, and
 * they style what the code renders later; a page without them has the code adopt them (first-view-styles.ts).
 */
export const FIRST_VIEW_STYLES: string = FRAME_STYLES.map((style) => style.cssText).join('');

/** The id of the `<style>` element that holds them, by which the frame's code knows that the page has them. */
export { FIRST_VIEW_STYLES_ID };
