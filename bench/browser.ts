/**
 * The widget in a real Chromium on loopback, the page and the gateway on two origins:
 * - time from the page's navigation start to a focusable card number field (script tag, fixed-price widget),
 *   on a first visit (cold: a new browser context) and on a repeat visit (warm: the same context again, so
 *   the browser's cache holds what the gateway let it keep);
 * - the same for a baseline: a minimal Lit card form of our own on the page itself, measured in the same run,
 *   and the ratio of the widget's figures to it (issue 13's aims: within 2.5 times cold, 1.5 times warm);
 * - the same for the widget with its frame declared in the page's HTML (`checkoutElementHtml`'s
 *   `declaredFrame`), which the element adopts when its script comes;
 * - the same for the floor under any cross-site frame here: a frame page that is one static card input and no
 *   script, in an iframe the page's HTML declares (the declared floor), and in one that a small module script
 *   adds, as the element's script tag does (the scripted floor). Whatever code a frame runs, its field can't be
 *   focusable before these;
 * - time from navigation start until an order of 1,000 items is rendered in the frame's summary, and from the
 *   order's arrival in the frame (the element's `init`, and the gateway's answer to its intake) until then
 *   (issue 13's aim: 100 ms);
 * - v1 mode: time until a payment method can be chosen.
 * Medians over `runs` page loads (a new browser context each for the cold figures). The pages and the gateway
 * run in a process of their own (bench/browser-pages.ts); this one drives the browser.
 * Needs `npm run build:browser`: the sandbox serves the built files.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Frame, Page } from 'playwright-core';
import { launchBrowser } from '../test/e2e/support/browser.js';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function paymentFrame(page: Page): Promise<Frame> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const frame = page.frames().find((candidate) => candidate.url().includes('/widget/frame/'));
    if (frame) return frame;
    if (Date.now() > deadline) throw new Error('the payment frame never appeared');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

type Milestone = 'cardFieldFocusable' | 'lastItemRendered' | 'methodChoosable';

/**
 * Runs in the frame on every animation frame until the milestone is reached, then answers the time on the
 * frame's clock. A function, not a string: the frame's CSP forbids eval, and the bench honours the CSP.
 * It searches through shadow roots too, since the frame's layout is its own business.
 */
function reached(milestone: Milestone): number | false {
  // No named inner functions: tsx would wrap them in a helper that does not exist in the page.
  const elements: Element[] = [];
  const roots: Array<Document | ShadowRoot> = [document];
  while (roots.length > 0) {
    for (const node of roots.pop()!.querySelectorAll('*')) {
      elements.push(node);
      if (node.shadowRoot) roots.push(node.shadowRoot);
    }
  }
  if (milestone === 'methodChoosable') {
    const radio = elements.find((node) => node.getAttribute('type') === 'radio') as
      | HTMLInputElement
      | undefined;
    if (!radio || radio.disabled || radio.getClientRects().length === 0) return false;
    radio.focus();
    if ((radio.getRootNode() as Document | ShadowRoot).activeElement !== radio) return false;
  } else if (milestone === 'cardFieldFocusable') {
    const input = elements.find((node) => node.getAttribute('autocomplete') === 'cc-number') as
      | HTMLInputElement
      | undefined;
    if (!input || input.disabled || input.getClientRects().length === 0) return false;
    input.focus();
    if ((input.getRootNode() as Document | ShadowRoot).activeElement !== input) return false;
  } else if (
    !elements.some((node) => node.childElementCount === 0 && node.textContent?.trim() === 'Item 1000')
  ) {
    return false;
  }
  return performance.timeOrigin + performance.now();
}

/**
 * Milliseconds from the page's navigation start until `milestone`: in the payment frame (both clocks'
 * origins), or in the page itself for the v1 picker, which has no frame.
 */
async function msUntil(page: Page, milestone: Milestone, onPage = false): Promise<number> {
  const frame = onPage || milestone === 'methodChoosable' ? page.mainFrame() : await paymentFrame(page);
  const handle = await frame.waitForFunction(reached, milestone, { polling: 'raf', timeout: 15_000 });
  const at = (await handle.jsonValue()) as number;
  const pageOrigin = await page.evaluate(() => performance.timeOrigin);
  return at - pageOrigin;
}

/** Medians of a page's milestone, in ms from navigation start. */
export interface Visits {
  /** First visit: a new browser context. */
  cold: number;
  /** Repeat visit: the same context loads the page again. */
  warm: number;
}

/** The pages whose card number field is timed (bench/browser-pages.ts), each beside the others in one run. */
export const CARD_FIELD_PAGES = {
  /** The fixed-price widget by script tag. */
  widget: { path: '/' },
  /** The same widget with its frame declared in the page's HTML (`checkoutElementHtml`'s `declaredFrame`). */
  declared: { path: '/declared' },
  /** The minimal Lit card form on the page itself. */
  baseline: { path: '/baseline', onPage: true },
  /** A cross-site frame with one static card input and no script, declared in the page's HTML. */
  declaredFloor: { path: '/floor' },
  /** The same frame, added by a small module script from the frame's origin, as the script tag adds the widget's. */
  scriptedFloor: { path: '/floor-scripted' },
} as const;
export type CardFieldPage = keyof typeof CARD_FIELD_PAGES;

/**
 * A slow network as Chromium's DevTools emulate it, for every request of the page and its frames: issue 26's,
 * a 150 ms round trip and 1.6 Mbps each way, where each round trip a page load saves shows.
 */
export const SLOW_NETWORK = { latencyMs: 150, kbps: 1600 } as const;

export interface BrowserFigures {
  runs: number;
  /** The card number field focusable, by page. */
  cardField: Record<CardFieldPage, Visits>;
  /** The same on the slow network (`SLOW_NETWORK`), over `slowRuns` loads. */
  cardFieldSlow: Record<CardFieldPage, Visits>;
  slowRuns: number;
  thousandItemsRenderedMs: number;
  /** From the element's `init` reaching the frame until the 1,000 items are rendered. */
  thousandItemsFromInitMs: number;
  /** From the gateway's answer to the frame's intake of the order until the 1,000 items are rendered. */
  thousandItemsFromIntakeMs: number;
  /** v1 mode: a payment method can be chosen (the picker's first radio takes focus). */
  methodChoosableMs: number;
}

/** Applies `SLOW_NETWORK` to a page (its frames' requests too) before it navigates. */
async function throttle(page: Page): Promise<void> {
  const session = await page.context().newCDPSession(page);
  await session.send('Network.enable');
  const bytesPerSecond = (SLOW_NETWORK.kbps * 1000) / 8;
  await session.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: SLOW_NETWORK.latencyMs,
    downloadThroughput: bytesPerSecond,
    uploadThroughput: bytesPerSecond,
  });
}

export async function benchBrowser(runs = 21, slowRuns = 7): Promise<BrowserFigures> {
  const { pageOrigin, stop } = await startPagesProcess();
  const browser = await launchBrowser();
  /**
   * One run of a page: cold in a new context, then (unless `coldOnly`) warm, the same context loading the page
   * a second time.
   */
  const load = async (
    path: string,
    milestone: Milestone,
    onPage: boolean,
    coldOnly: boolean,
    slow: boolean,
  ) => {
    const context = await browser.newContext();
    try {
      const first = await context.newPage();
      if (slow) await throttle(first);
      await first.goto(`${pageOrigin}${path}`);
      const cold = await msUntil(first, milestone, onPage);
      if (coldOnly) return { cold };
      await first.close();
      const again = await context.newPage();
      if (slow) await throttle(again);
      await again.goto(`${pageOrigin}${path}`);
      return { cold, warm: await msUntil(again, milestone, onPage) };
    } finally {
      await context.close();
    }
  };
  /**
   * The pages' runs in turn (one of each, then the next round), so that a machine that slows down or speeds up
   * during the bench weighs on each alike and their ratio holds. One warm-up round is not counted.
   */
  const measureInTurn = async (
    pagesToLoad: Array<{ path: string; milestone: Milestone; onPage?: boolean }>,
    { coldOnly = false, slow = false } = {},
  ) => {
    const figures = pagesToLoad.map(() => ({ cold: [] as number[], warm: [] as number[] }));
    for (let run = 0; run <= (slow ? slowRuns : runs); run++) {
      for (const [index, { path, milestone, onPage = false }] of pagesToLoad.entries()) {
        const { cold, warm } = await load(path, milestone, onPage, coldOnly, slow);
        if (run > 0) {
          figures[index]!.cold.push(cold);
          if (warm !== undefined) figures[index]!.warm.push(warm);
        }
      }
    }
    return figures.map(({ cold, warm }): Visits => ({ cold: median(cold), warm: median(warm) }));
  };
  /** The card field's pages in turn, on loopback or on the slow network. */
  const measureCardField = async (slow = false): Promise<Record<CardFieldPage, Visits>> => {
    const names = Object.keys(CARD_FIELD_PAGES) as CardFieldPage[];
    const figures = await measureInTurn(
      names.map((name) => ({ milestone: 'cardFieldFocusable' as const, ...CARD_FIELD_PAGES[name] })),
      { slow },
    );
    return Object.fromEntries(names.map((name, index) => [name, figures[index]!])) as Record<
      CardFieldPage,
      Visits
    >;
  };
  /** The 1,000-item order: from navigation start, from `init` in the frame, and from the intake's answer. */
  const measureBigOrder = async () => {
    const figures = { navigation: [] as number[], init: [] as number[], intake: [] as number[] };
    for (let run = 0; run <= runs; run++) {
      const context = await browser.newContext();
      // In every frame before its own scripts: when the element's `init` arrives (the frame's clock).
      await context.addInitScript(() => {
        addEventListener('message', (event) => {
          const data = event.data as { type?: unknown } | null;
          const marks = globalThis as { svcBenchInitAt?: number };
          if (data?.type === 'init') marks.svcBenchInitAt ??= performance.now();
        });
      });
      const page = await context.newPage();
      await page.goto(`${pageOrigin}/big`);
      const navigation = await msUntil(page, 'lastItemRendered');
      const frame = await paymentFrame(page);
      const inFrame = await frame.evaluate(() => {
        const intake = performance
          .getEntriesByType('resource')
          .find((entry) => new URL(entry.name).pathname === '/widget-api/v1/orders') as
          | PerformanceResourceTiming
          | undefined;
        return {
          timeOrigin: performance.timeOrigin,
          initAt: (globalThis as { svcBenchInitAt?: number }).svcBenchInitAt,
          intakeAt: intake?.responseEnd,
        };
      });
      if (inFrame.initAt === undefined || inFrame.intakeAt === undefined) {
        throw new Error('the frame saw no init or made no intake request');
      }
      const pageTimeOrigin = await page.evaluate(() => performance.timeOrigin);
      // `navigation` is on the page's clock; the frame's marks move to it through both clocks' origins.
      const onPageClock = (frameMs: number) => inFrame.timeOrigin + frameMs - pageTimeOrigin;
      if (run > 0) {
        figures.navigation.push(navigation);
        figures.init.push(navigation - onPageClock(inFrame.initAt));
        figures.intake.push(navigation - onPageClock(inFrame.intakeAt));
      }
      await context.close();
    }
    return {
      navigation: median(figures.navigation),
      init: median(figures.init),
      intake: median(figures.intake),
    };
  };
  try {
    const cardField = await measureCardField();
    const cardFieldSlow = await measureCardField(true);
    const bigOrder = await measureBigOrder();
    return {
      runs,
      cardField,
      cardFieldSlow,
      slowRuns,
      thousandItemsRenderedMs: bigOrder.navigation,
      thousandItemsFromInitMs: bigOrder.init,
      thousandItemsFromIntakeMs: bigOrder.intake,
      methodChoosableMs: (
        await measureInTurn([{ path: '/v1', milestone: 'methodChoosable' }], { coldOnly: true })
      )[0]!.cold,
    };
  } finally {
    await browser.close();
    await stop();
  }
}

/** bench/browser-pages.ts in a child process, with the same loader (tsx) as this one. */
async function startPagesProcess(): Promise<{ pageOrigin: string; stop(): Promise<void> }> {
  const child = spawn(
    process.execPath,
    [...process.execArgv, fileURLToPath(new URL('./browser-pages.ts', import.meta.url))],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = await new Promise<string | undefined>((resolve) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    void exited.then(() => resolve(undefined));
  });
  if (line === undefined) throw new Error('bench/browser-pages.ts exited before it listened');
  const { pageOrigin } = JSON.parse(line) as { pageOrigin: string };
  return {
    pageOrigin,
    async stop() {
      child.stdin.end();
      await exited;
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await benchBrowser());
}
