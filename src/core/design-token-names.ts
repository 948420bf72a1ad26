/**
 * The names of svc-checkout's design tokens, in their documented order, as plain data. The element needs
 * only these to read its `--svc-*` values and send them on; their kinds, defaults and checks live in
 * `appearance.ts`, which the frame applies (appearance.ts is typed against this list, so they cannot differ).
 */
export const DESIGN_TOKEN_NAMES = [
  '--svc-color-primary',
  '--svc-color-primary-contrast',
  '--svc-color-text',
  '--svc-color-muted',
  '--svc-color-background',
  '--svc-color-surface',
  '--svc-color-border',
  '--svc-color-error',
  '--svc-color-success',
  '--svc-color-focus',
  '--svc-font-family',
  '--svc-font-size',
  '--svc-border-radius',
  '--svc-spacing',
  '--svc-input-height',
] as const;

/** The name of a design token, such as `--svc-color-primary`. */
export type DesignTokenName = (typeof DESIGN_TOKEN_NAMES)[number];
