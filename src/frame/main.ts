/**
 * The payment frame's entry, served by the gateway at `/widget/frame/<widgetId>` and built to
 * `frame/assets/frame.js`. It runs only inside another page's iframe: opened on its own there is no element
 * to talk to, and a form that takes card data without one would serve only someone imitating a shop.
 */
import { readBootstrap } from './bootstrap.js';
import { readCardSettings, readFrameLocation } from './frame-location.js';
import { createWindowChannel } from './parent-channel.js';
import { SvcPaymentFrame } from './payment-frame.js';

function start(): void {
  if (window.parent === window) return;
  const found = readFrameLocation(location.pathname, location.hash);
  if (!found) return;
  // The gateway's page holds the frame with its first view (first-view.ts), which it takes over.
  const written = document.querySelector('svc-payment-frame');
  const frame = written ?? new SvcPaymentFrame();
  frame.widgetId = found.widgetId;
  frame.pageOrigin = found.origin;
  frame.apiBase = '';
  frame.cardSettings = readCardSettings(location.search, location.hash);
  frame.bootstrap = readBootstrap(document);
  frame.channel = createWindowChannel({
    self: window,
    parent: window.parent,
    origin: found.origin,
    channel: found.channel,
  });
  if (written) written.removeAttribute('defer-hydration');
  else document.body.append(frame);
}

start();
