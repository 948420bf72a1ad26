/**
 * The payment frame's first view, which the frame's page carries as HTML: the card form, focusable before
 * any script of the frame has come, which the frame's code then takes over (src/frame/first-view.ts, built
 * into dist/browser/server/first-view.js). The sandbox imports the built module, as it serves the built
 * frame: the two are one build, so their templates match.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CARD_LAYOUTS,
  CARDHOLDER_NAME_SETTINGS,
  type CardFormSettings,
  DEFAULT_CARD_SETTINGS,
} from '../../core/index.js';
import type { FrameBootstrap } from '../../core/widget-api.js';

/** What dist/browser/server/first-view.js exports. */
interface FirstViewModule {
  renderFirstView(bootstrap: FrameBootstrap, cardSettings: CardFormSettings): string;
  FIRST_VIEW_STYLES: string;
  FIRST_VIEW_STYLES_ID: string;
}

/** The first view's parts of the page, and what its policy allows for them. */
export interface FirstView {
  /** `<style>` for the head. */
  style: string;
  /** `<svc-payment-frame>` with its first view, for the body. */
  body: string;
  /** The `style-src` source that allows the style (its hash). */
  styleSource: string;
}

/**
 * The card settings the element asks for (`card-layout`, `cardholder-name` in the frame's query); each
 * unknown or missing one keeps its default, which the frame's code compares with its own.
 */
export function cardSettingsOf(query: URLSearchParams): CardFormSettings {
  const pick = <T extends string>(name: string, values: readonly T[], fallback: T): T => {
    const value = query.get(name) as T | null;
    return value !== null && values.includes(value) ? value : fallback;
  };
  return {
    layout: pick('card-layout', CARD_LAYOUTS, DEFAULT_CARD_SETTINGS.layout),
    holder: pick('cardholder-name', CARDHOLDER_NAME_SETTINGS, DEFAULT_CARD_SETTINGS.holder),
  };
}

/**
 * Renders first views with the build's module, imported on the first frame page. Without the module (a build
 * of the browser files alone), or when it fails, pages go without a first view: the frame's code then renders
 * the form itself, as it did before the gateway wrote one.
 */
export function firstViewRenderer(browserRoot: string) {
  const path = join(browserRoot, 'server', 'first-view.js');
  let loading: Promise<{ module: FirstViewModule; style: string; styleSource: string } | undefined>;
  const load = () =>
    (loading ??= (
      existsSync(path)
        ? (import(pathToFileURL(path).href) as Promise<FirstViewModule>)
        : Promise.resolve(undefined)
    ).then(
      (module) => {
        if (typeof module?.renderFirstView !== 'function') return undefined;
        const styles = String(module.FIRST_VIEW_STYLES ?? '');
        const hash = createHash('sha256').update(styles).digest('base64');
        // The id tells the frame's code that the page has its styles.
        const id = String(module.FIRST_VIEW_STYLES_ID ?? '');
        return { module, style: `<style id="${id}">${styles}</style>`, styleSource: `'sha256-${hash}'` };
      },
      (error: unknown) => {
        console.warn(`svc-sandbox: the frame's first view is off, its module did not load: ${error}`);
        return undefined;
      },
    ));
  return async (bootstrap: FrameBootstrap, settings: CardFormSettings): Promise<FirstView | undefined> => {
    const loaded = await load();
    if (!loaded) return undefined;
    try {
      return {
        style: loaded.style,
        styleSource: loaded.styleSource,
        body: loaded.module.renderFirstView(bootstrap, settings),
      };
    } catch (error) {
      console.warn(`svc-sandbox: the frame's first view did not render: ${error}`);
      return undefined;
    }
  };
}
