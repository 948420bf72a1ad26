/**
 * The parts of Playwright's `Page`, `Frame`, `Locator` and `Response` the helper uses, written as shapes:
 * Playwright's own objects (of `@playwright/test`, `playwright` or `playwright-core`, of any recent version)
 * fit them, and the package neither depends on Playwright nor needs its types to compile. Each member is
 * one Playwright has had since 1.27 (getByLabel, getByRole), with the same meaning.
 */

/** The options of a Playwright action that this helper passes. */
export interface ActionOptions {
  timeout?: number;
}

/** A Playwright `Locator`. */
export interface LocatorShape {
  locator(selector: string): LocatorShape;
  first(): LocatorShape;
  count(): Promise<number>;
  isVisible(): Promise<boolean>;
  isChecked(options?: ActionOptions): Promise<boolean>;
  inputValue(options?: ActionOptions): Promise<string>;
  getAttribute(name: string, options?: ActionOptions): Promise<string | null>;
  allTextContents(): Promise<string[]>;
  fill(value: string, options?: ActionOptions): Promise<void>;
  click(options?: ActionOptions): Promise<void>;
  check(options?: ActionOptions): Promise<void>;
  selectOption(values: string, options?: ActionOptions): Promise<string[]>;
  waitFor(options?: {
    state?: 'attached' | 'detached' | 'visible' | 'hidden';
    timeout?: number;
  }): Promise<void>;
  elementHandle(options?: ActionOptions): Promise<ElementHandleShape>;
  page(): PageShape;
}

/** A Playwright `ElementHandle`, of an iframe. */
export interface ElementHandleShape {
  contentFrame(): Promise<FrameShape | null>;
}

/** What a page and a frame both have: where the helper looks for `<svc-checkout>`. */
export interface RootShape {
  locator(selector: string): LocatorShape;
}

/** A Playwright `Frame`. */
export interface FrameShape extends RootShape {
  page(): PageShape;
  getByLabel(text: string | RegExp, options?: { exact?: boolean }): LocatorShape;
  getByRole(
    role: 'button' | 'heading' | 'radio' | 'checkbox' | 'alert',
    options?: { name?: string | RegExp; exact?: boolean },
  ): LocatorShape;
}

/** A Playwright `Page`. */
export interface PageShape extends RootShape {
  waitForResponse(
    predicate: (response: ResponseShape) => boolean,
    options?: ActionOptions,
  ): Promise<ResponseShape>;
}

/** A Playwright `Response`. */
export interface ResponseShape {
  url(): string;
  status(): number;
  frame(): FrameShape;
  request(): { method(): string };
  json(): Promise<unknown>;
}
