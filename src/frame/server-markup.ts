/**
 * The frame's elements take over the markup the gateway wrote into the frame's page (first-view.ts) rather
 * than render it again: the same inputs stay, with what the shopper typed into them before our code came,
 * their focus and their caret. Lit's hydration (`@lit-labs/ssr-client`) does the taking over, per element,
 * since each renders into its own light DOM.
 */
import { hydrate } from '@lit-labs/ssr-client';
import { isServer, LitElement, type PropertyValues, ReactiveElement } from 'lit';

/**
 * What the markers of an inner element's markup start with, in place of `lit-`: Lit's hydration of the
 * outer element walks every comment under it, and must not take the inner element's markers for its own.
 */
export const LIGHT_MARKER_PREFIX = 'svc-';

const DEFER = 'defer-hydration';
const INNER_MARKER = new RegExp(`^(/?)${LIGHT_MARKER_PREFIX}(part|node)`);

/** A root part's opening marker, as Lit or first-view.ts (for an inner element) wrote it. */
const ROOT_MARKER = new RegExp(`^(lit-|${LIGHT_MARKER_PREFIX})part `);

/** Whether the element's first child opens server markup. */
function holdsServerMarkup(element: HTMLElement): boolean {
  const first = element.firstChild;
  return first?.nodeType === Node.COMMENT_NODE && ROOT_MARKER.test((first as Comment).data);
}

/** The element whose markup holds `node`: its nearest custom element (a tag name with a hyphen). */
function ownerOf(node: Element): Element | null {
  let parent = node.parentElement;
  while (parent && !parent.localName.includes('-')) parent = parent.parentElement;
  return parent;
}

/**
 * An element that renders into its light DOM and takes over the markup that the gateway wrote for it:
 * - with `defer-hydration` (as the gateway writes it), it waits: its outer element's takeover gives it its
 *   properties first, and removes the attribute (the frame's entry does so for the frame itself);
 * - its first update takes the markup over when there is some, and renders as usual when there is none or
 *   when the markup is not what its first render would be (`serverMarkupFits`).
 */
export class ServerRenderedElement extends LitElement {
  static override get observedAttributes(): string[] {
    // biome-ignore lint/complexity/noThisInStatic: the subclass's attributes, which `super` reads for it.
    return [...super.observedAttributes, DEFER];
  }

  override connectedCallback(): void {
    if (!this.hasAttribute(DEFER)) super.connectedCallback();
  }

  override attributeChangedCallback(name: string, old: string | null, value: string | null): void {
    if (name === DEFER) {
      if (value === null && this.isConnected) this.connectedCallback();
      return;
    }
    super.attributeChangedCallback(name, old, value);
  }

  /**
   * Whether this render is of the markup the gateway writes, which shows before the element's code runs: on
   * the server, and in the takeover's render, which must be the same. What needs the code to work can then
   * show so (the frame's pay button is disabled, so that Enter in a field submits nothing before).
   */
  protected beforeCode = isServer;

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  /** Whether the markup the gateway wrote is the first render's (same settings); by default it is. */
  protected serverMarkupFits(): boolean {
    return true;
  }

  /**
   * After the takeover, each input of this element's own markup that the shopper filled in before the code
   * came (text typed, a box ticked): the takeover rendered it as the gateway did, empty, and gave back what it
   * held, with its caret. The element takes it into its state as if the shopper had just put it there.
   */
  protected takeInput(_input: HTMLInputElement): void {}

  protected override update(changed: PropertyValues): void {
    if (this.hasUpdated || !holdsServerMarkup(this)) {
      super.update(changed);
    } else if (!this.serverMarkupFits() || !this.#takeOver(changed)) {
      // Markup of other settings, or not this render's (a gateway of another build): rendered anew, and what
      // was typed into it is lost.
      this.replaceChildren();
      super.update(changed);
    }
  }

  /** Takes the markup over; false when it is not what the first render would be. */
  #takeOver(changed: PropertyValues): boolean {
    const filled = [...this.querySelectorAll('input')]
      .filter((input) => ownerOf(input) === this && (input.type === 'checkbox' ? input.checked : input.value))
      .map((input) => ({
        input,
        value: input.value,
        checked: input.checked,
        start: input.selectionStart,
        end: input.selectionEnd,
      }));
    this.beforeCode = true;
    const value = this.render();
    this.beforeCode = false;
    this.renderOptions.isConnected = this.isConnected;
    // ReactiveElement's update (reflects attributes, marks the update done), without LitElement's render.
    ReactiveElement.prototype['update'].call(this, changed);
    // An inner element's markers were renamed for its outer element's takeover (first-view.ts): they are
    // named back, now that this element takes its markup over.
    if ((this.firstChild as Comment).data.startsWith(LIGHT_MARKER_PREFIX)) {
      const walker = this.ownerDocument.createTreeWalker(this, NodeFilter.SHOW_COMMENT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const comment = node as Comment;
        comment.data = comment.data.replace(INNER_MARKER, '$1lit-$2');
      }
    }
    try {
      hydrate(value, this, this.renderOptions);
    } catch {
      return false;
    }
    for (const { input, value, checked, start, end } of filled) {
      input.value = value;
      input.checked = checked;
      if (start !== null && end !== null) input.setSelectionRange(start, end);
      this.takeInput(input);
    }
    // What the markup showed for want of the code: rendered again, now that it has come.
    this.requestUpdate();
    return true;
  }
}
