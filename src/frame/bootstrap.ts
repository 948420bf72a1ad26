/**
 * The frame page's `FrameBootstrap` (core/widget-api.ts): the widget's configuration and the texts of the
 * page's language, which the gateway writes into the page so that the card form shows in the frame's first
 * render. The page and this code come from the same gateway, under the frame's own policy, and the page names
 * this code by its content hash, so the two always match. Without the block (or with one that does not
 * parse) the frame does not start, and the element reports a frame that never answered.
 */
import { FRAME_BOOTSTRAP_ID, type FrameBootstrap } from '../core/widget-api.js';

export function readBootstrap(document: Document): FrameBootstrap | undefined {
  const json = document.getElementById(FRAME_BOOTSTRAP_ID)?.textContent;
  if (!json) return undefined;
  try {
    return JSON.parse(json) as FrameBootstrap;
  } catch {
    return undefined;
  }
}
