// The raised accessibility checks that axe does not make, measured from computed styles in the page itself:
// focus rings (WCAG 1.4.11, 3:1 against what lies beside them), boundaries in forced colours, reflow at a
// narrow width (1.4.10), text spacing (1.4.12), reduced motion (2.3.3) and target size (2.5.8).
//
// One copy for every runner: a classic script that sets `globalThis.svcAccessibilityProbe`. Web-test-runner's
// tests import it as a module (test/support/accessibility-probe.d.ts types it); Playwright's tests read it as
// text and evaluate it in the page (accessibility-probe-source.ts), where tsx never rewrites it. Each check
// answers a list of problems, one readable sentence each: an empty list passes. The checks walk open shadow
// roots, so an element's own controls count as the page's.
globalThis.svcAccessibilityProbe = (() => {
  const CONTROLS = 'a[href], button, input:not([type="hidden"]), select, textarea, [tabindex]';
  /** What lies under the root element's background: the browser's white. */
  const CANVAS = 'rgb(255, 255, 255)';

  /** `rgb()`/`rgba()` as getComputedStyle writes it, as [r, g, b, a]. */
  const parse = (colour) => {
    const numbers = (colour.match(/[\d.]+/g) ?? []).map(Number);
    if (!/^rgba?\(/.test(colour) || numbers.length < 3) throw new Error(`not an rgb() colour: ${colour}`);
    return [numbers[0], numbers[1], numbers[2], numbers[3] ?? 1];
  };

  /** `top` painted over the opaque `bottom`. */
  const over = (top, bottom) => {
    const [r, g, b, a] = parse(top);
    const [br, bg, bb] = parse(bottom);
    const mix = (up, down) => Math.round(up * a + down * (1 - a));
    return `rgb(${mix(r, br)}, ${mix(g, bg)}, ${mix(b, bb)})`;
  };

  const luminance = (colour) =>
    parse(colour)
      .slice(0, 3)
      .map((channel) => channel / 255)
      .map((value) => (value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4))
      .reduce((sum, linear, index) => sum + [0.2126, 0.7152, 0.0722][index] * linear, 0);

  /** The WCAG contrast ratio of two opaque colours. */
  const contrast = (one, other) => {
    const [a, b] = [luminance(one), luminance(other)];
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  };

  /** The parent in the flat tree as far as styles go: a shadow root's host stands for the root. */
  const parentOf = (element) => {
    if (element.parentElement) return element.parentElement;
    const root = element.getRootNode();
    return root instanceof ShadowRoot ? root.host : null;
  };

  /** The opaque colour an element's own background makes over what lies behind it. */
  const backgroundOf = (element) => {
    const layers = [];
    for (let at = element; at; at = parentOf(at)) layers.push(getComputedStyle(at).backgroundColor);
    return layers.reduceRight((below, layer) => over(layer, below), CANVAS);
  };
  /** The colour behind an element: its parents' backgrounds, painted one over the other. */
  const behind = (element) => {
    const parent = parentOf(element);
    return parent ? backgroundOf(parent) : CANVAS;
  };

  /** A short name for a control in a problem's sentence: `button.pay "Pay €25.00"`, a field by its label. */
  const nameOf = (element) => {
    const id = element.id ? `#${element.id}` : '';
    const classes = [...element.classList].map((name) => `.${name}`).join('');
    const part = element.getAttribute('part') ? `[part="${element.getAttribute('part')}"]` : '';
    const type = element instanceof HTMLInputElement ? `[type="${element.type}"]` : '';
    // A field is named by its label, never by its value (which may be a card number).
    const label = element.labels?.[0]?.textContent;
    const text = (element.getAttribute('aria-label') ?? label ?? element.textContent ?? '')
      .trim()
      .replace(/\s+/g, ' ')
      .slice(0, 40);
    return `${element.localName}${id}${classes}${part}${type}${text ? ` "${text}"` : ''}`;
  };

  /** Every element under `root`, into open shadow roots. */
  const everyElement = (root) => {
    const found = [];
    const visit = (node) => {
      for (const element of node.querySelectorAll('*')) {
        found.push(element);
        if (element.shadowRoot) visit(element.shadowRoot);
      }
    };
    if (root instanceof Element) {
      found.push(root);
      if (root.shadowRoot) visit(root.shadowRoot);
    }
    visit(root);
    return found;
  };

  const shown = (element) => {
    const box = element.getBoundingClientRect();
    // checkVisibility: the content of a closed <details> keeps its boxes but is not rendered.
    return (
      box.width > 0 &&
      box.height > 0 &&
      getComputedStyle(element).visibility !== 'hidden' &&
      element.checkVisibility()
    );
  };

  /** The controls a keyboard reaches under `root`, in document order (not disabled, shown). */
  const controls = (root = document) =>
    everyElement(root).filter(
      (element) =>
        element.matches(CONTROLS) && !element.matches(':disabled') && element.tabIndex >= 0 && shown(element),
    );

  /** The focused element, through shadow roots. */
  const focused = () => {
    let at = document.activeElement;
    while (at?.shadowRoot?.activeElement) at = at.shadowRoot.activeElement;
    return at && at !== document.body ? at : null;
  };

  /**
   * What is wrong with the focused control's ring: none, thinner than 2px, or under `minimum`:1 against either
   * colour beside it. Outside lies what is behind the control; inside, the gap (behind again) when the ring
   * stands off the control, else the control's border or fill.
   */
  const focusRingProblems = (element = focused(), minimum = 3) => {
    if (!element) return ['nothing has focus'];
    const style = getComputedStyle(element);
    const name = nameOf(element);
    if (style.outlineStyle === 'none' || Number.parseFloat(style.outlineWidth) === 0) {
      return [`${name}: no focus outline`];
    }
    const problems = [];
    const width = Number.parseFloat(style.outlineWidth);
    if (width < 2) problems.push(`${name}: a focus outline of ${width}px (2px or more)`);
    const outside = behind(element);
    const ring = over(style.outlineColor, outside);
    const bordered = Number.parseFloat(style.borderTopWidth) > 0 && style.borderTopStyle !== 'none';
    const inside =
      Number.parseFloat(style.outlineOffset) > 0
        ? outside
        : bordered
          ? over(style.borderTopColor, backgroundOf(element))
          : backgroundOf(element);
    const beside =
      inside === outside
        ? [['around it', outside]]
        : [
            ['around it', outside],
            ['inside it', inside],
          ];
    for (const [where, colour] of beside) {
      const ratio = contrast(ring, colour);
      if (ratio < minimum) {
        problems.push(`${name}: focus ring ${ring} on ${colour} (${where}) is ${ratio.toFixed(2)}:1`);
      }
    }
    return problems;
  };

  /**
   * Focuses each control under `root` in turn and answers what is wrong with its ring. The caller presses Tab
   * once before: focus moved by script after a key shows as keyboard focus (`:focus-visible`), so every
   * control is seen, each radio of a group included, as a keyboard user would see it.
   */
  const focusRingsProblems = (root = document, minimum = 3) => {
    const problems = [];
    for (const element of controls(root)) {
      element.focus({ preventScroll: true });
      if (focused() !== element) problems.push(`${nameOf(element)} takes no focus`);
      else if (!element.matches(':focus-visible')) problems.push(`${nameOf(element)}: focus is not visible`);
      else problems.push(...focusRingProblems(element, minimum));
    }
    return problems;
  };

  /** In forced colours: each button, field and select shows a border (a native radio or checkbox draws its own). */
  const boundaryProblems = (root = document) => {
    if (!matchMedia('(forced-colors: active)').matches) return ['forced colours are not active'];
    const problems = [];
    for (const element of controls(root)) {
      if (!element.matches('button, input, select, textarea')) continue;
      const style = getComputedStyle(element);
      if (element.matches('input[type="radio"], input[type="checkbox"]') && style.appearance !== 'none')
        continue;
      const sides = ['Top', 'Right', 'Bottom', 'Left'].filter(
        (side) =>
          Number.parseFloat(style[`border${side}Width`]) === 0 ||
          ['none', 'hidden'].includes(style[`border${side}Style`]),
      );
      if (sides.length > 0) {
        problems.push(`${nameOf(element)}: no border on ${sides.join(', ').toLowerCase()} in forced colours`);
        continue;
      }
      const ratio = contrast(over(style.borderTopColor, behind(element)), behind(element));
      if (ratio < 3)
        problems.push(`${nameOf(element)}: its border is ${ratio.toFixed(2)}:1 in forced colours`);
    }
    return problems;
  };

  /**
   * Outside forced colours: a field (or a button without a fill of its own) is told by its border, which
   * needs 3:1 against what is behind it (WCAG 1.4.11).
   */
  const fieldBoundaryProblems = (root = document) => {
    const problems = [];
    for (const element of controls(root)) {
      if (!element.matches('button, input, select, textarea')) continue;
      if (element.matches('input[type="radio"], input[type="checkbox"]')) continue;
      const style = getComputedStyle(element);
      const around = behind(element);
      const fill = over(style.backgroundColor, around);
      if (element.matches('button') && contrast(fill, around) >= 3) continue;
      if (Number.parseFloat(style.borderTopWidth) === 0) {
        problems.push(`${nameOf(element)}: no border, and no fill that stands out`);
        continue;
      }
      const ratio = contrast(over(style.borderTopColor, around), around);
      if (ratio < 3) problems.push(`${nameOf(element)}: its border is ${ratio.toFixed(2)}:1 beside it`);
    }
    return problems;
  };

  /** Nothing wider than the viewport: no horizontal scroll, no box reaching past the right edge. */
  const reflowProblems = (root = document) => {
    const width = document.documentElement.clientWidth;
    const problems = [];
    if (document.documentElement.scrollWidth > width) {
      problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth}px in ${width}px`);
    }
    for (const element of everyElement(root)) {
      const box = element.getBoundingClientRect();
      if (box.width > 0 && box.right > width + 1 && shown(element)) {
        problems.push(`${nameOf(element)} reaches ${Math.round(box.right)}px of ${width}px`);
      }
    }
    return problems;
  };

  const TEXT_SPACING =
    '*{line-height:1.5!important;letter-spacing:.12em!important;word-spacing:.16em!important}p{margin-bottom:2em!important}';

  /**
   * Sets WCAG 1.4.12's text spacing on the document and each shadow root for the time of the check (a
   * constructed sheet, which a page's Content-Security-Policy does not refuse), and answers what it cuts off:
   * text that overflows a box that hides its overflow, or the page growing sideways.
   */
  const textSpacingProblems = (root = document) => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(TEXT_SPACING);
    const roots = [document, ...everyElement(root).flatMap((element) => element.shadowRoot ?? [])];
    for (const styled of roots) styled.adoptedStyleSheets = [...styled.adoptedStyleSheets, sheet];
    const problems = [];
    for (const element of everyElement(root)) {
      const style = getComputedStyle(element);
      const box = element.getBoundingClientRect();
      // Text kept for screen readers only sits in a 1px box by design.
      if (box.width <= 1 || box.height <= 1) continue;
      const clips = (overflow) => overflow === 'hidden' || overflow === 'clip';
      if (
        (clips(style.overflowX) && element.scrollWidth > element.clientWidth + 1) ||
        (clips(style.overflowY) && element.scrollHeight > element.clientHeight + 1)
      ) {
        problems.push(`${nameOf(element)} cuts off its text with WCAG text spacing`);
      }
    }
    if (document.documentElement.scrollWidth > document.documentElement.clientWidth) {
      problems.push('the page scrolls sideways with WCAG text spacing');
    }
    for (const styled of roots)
      styled.adoptedStyleSheets = styled.adoptedStyleSheets.filter((kept) => kept !== sheet);
    return problems;
  };

  /** With `prefers-reduced-motion: reduce`: nothing animates, and nothing moves in a transition. */
  const motionProblems = (root = document) => {
    if (!matchMedia('(prefers-reduced-motion: reduce)').matches) return ['reduced motion is not asked for'];
    const moving = /\b(all|transform|translate|rotate|scale|top|left|right|bottom|margin|width|height)\b/;
    const problems = [];
    for (const element of everyElement(root)) {
      const style = getComputedStyle(element);
      const lasts = (durations) => durations.split(',').some((duration) => Number.parseFloat(duration) > 0);
      if (style.animationName !== 'none' && lasts(style.animationDuration)) {
        problems.push(`${nameOf(element)} animates (${style.animationName}) with reduced motion`);
      }
      if (lasts(style.transitionDuration) && moving.test(style.transitionProperty)) {
        problems.push(
          `${nameOf(element)} moves in a transition (${style.transitionProperty}) with reduced motion`,
        );
      }
    }
    return problems;
  };

  /**
   * Each control's target is 24 by 24 CSS px or more (WCAG 2.5.8): a field's or radio's target includes its
   * labels; a link inside a sentence is exempt, and so is a smaller target with room around it (a 24 px
   * square on its centre that meets no other target: the criterion's circle, a little stricter).
   */
  const targetSizeProblems = (root = document) => {
    const targets = controls(root)
      .filter((element) => !(element.localName === 'a' && getComputedStyle(element).display === 'inline'))
      .map((element) => ({
        element,
        boxes: [element, ...(element.labels ?? [])].map((target) => target.getBoundingClientRect()),
      }));
    const meets = (box, other) =>
      box.left < other.right && other.left < box.right && box.top < other.bottom && other.top < box.bottom;
    const problems = [];
    for (const { element, boxes } of targets) {
      const width = Math.max(...boxes.map((box) => box.width));
      const height = Math.max(...boxes.map((box) => box.height));
      if (width >= 24 && height >= 24) continue;
      const largest = boxes.find((box) => box.width === width) ?? boxes[0];
      const x = largest.left + largest.width / 2;
      const y = largest.top + largest.height / 2;
      const room = { left: x - 12, right: x + 12, top: y - 12, bottom: y + 12 };
      const crowded = targets.some(
        (other) => other.element !== element && other.boxes.some((box) => meets(room, box)),
      );
      if (crowded) {
        problems.push(
          `${nameOf(element)}: a target of ${Math.round(width)}×${Math.round(height)}px, crowded`,
        );
      }
    }
    return problems;
  };

  return {
    contrast,
    focused,
    nameOf,
    controls,
    focusRingProblems,
    focusRingsProblems,
    boundaryProblems,
    fieldBoundaryProblems,
    reflowProblems,
    textSpacingProblems,
    motionProblems,
    targetSizeProblems,
  };
})();
