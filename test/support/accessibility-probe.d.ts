// Types of accessibility-probe.js, which every runner shares as one script (see there).

/** A check's answer: one sentence per problem; empty passes. */
export type Problems = string[];

export interface AccessibilityProbe {
  /** The WCAG contrast ratio of two opaque `rgb()` colours. */
  contrast(one: string, other: string): number;
  /** The focused element, through shadow roots; null when nothing is. */
  focused(): Element | null;
  /** A control's short name for a sentence: tag, id, classes, part, type and text. */
  nameOf(element: Element): string;
  /** The controls a keyboard reaches under `root` (into open shadow roots), shown and enabled. */
  controls(root?: ParentNode): HTMLElement[];
  /** The focused control's ring: 2px or more, `minimum`:1 against the colours beside it. */
  focusRingProblems(element?: Element | null, minimum?: number): Problems;
  /** Each control under `root` focused in turn (press Tab once before) and its ring checked. */
  focusRingsProblems(root?: ParentNode, minimum?: number): Problems;
  /** In forced colours, each button, field and select under `root` shows a border. */
  boundaryProblems(root?: ParentNode): Problems;
  /** Outside forced colours: each field's border (or a button's fill or border) at 3:1 beside it. */
  fieldBoundaryProblems(root?: ParentNode): Problems;
  /** No horizontal scroll and no box past the viewport's right edge. */
  reflowProblems(root?: ParentNode): Problems;
  /** With WCAG text spacing set for the time of the check: what it cuts off. */
  textSpacingProblems(root?: ParentNode): Problems;
  /** With reduced motion asked for, nothing animates or moves. */
  motionProblems(root?: ParentNode): Problems;
  /** Each control's target (with its labels) is 24 by 24 px, or has room around it; links in sentences aside. */
  targetSizeProblems(root?: ParentNode): Problems;
}

declare global {
  var svcAccessibilityProbe: AccessibilityProbe;
}
