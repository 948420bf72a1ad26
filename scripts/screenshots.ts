/**
 * Screenshots of every screen a shopper sees, to look at them all after a change: the v1 hosted payment page
 * (form, form with errors, card and bank preferred, bank step, 3-D Secure step, paid, expired), the v1 picker
 * and the legacy payment frame (card form with and without errors, stacked and compact, the holder's name
 * optional and hidden, full checkout, 3-D Secure, paid, failed), at 390 and 1280 px wide
 * in en, lv and ru, and in forced colours (en, 390 px). Full-page PNGs named `<screen>-<lang>-<width>[-forced].png`.
 *
 *   npm run build:browser && node --import tsx scripts/screenshots.ts [outDir] [--only=<part of a name>]
 *
 * outDir defaults to /tmp/svc-screens; `--only=hosted-3ds` takes only the files whose names contain it.
 *
 * It starts the browser tests' gateway (the sandbox with the demo merchant, test/support/gateway-fixture.ts)
 * and a page server on localhost for the element's pages. Each screenshot has its own time limit; a screen
 * that fails is named with its error and the rest go on; the exit code is 1 when any failed.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { type Browser, chromium, type Frame, type Page } from 'playwright-core';
import type { OrderInput } from '../src/core/index.js';
import { toNodeHandler } from '../src/server/index.js';
import { FrameLabels } from '../src/testing/frame-labels.js';
import { payInCheckout } from '../src/testing/index.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/support/chromium.mjs';
import { type GatewayFixture, startGatewayFixture } from '../test/support/gateway-fixture.js';

type Language = 'en' | 'lv' | 'ru';

const LANGUAGES: readonly Language[] = ['en', 'lv', 'ru'];
const WIDTHS = [390, 1280] as const;
/** How long one screenshot may take, from a new page to the saved file. */
const SCREEN_TIMEOUT_MS = 45_000;
/** How long one wait inside a screen may take (a selector, a navigation). */
const STEP_TIMEOUT_MS = 20_000;

/** Test cards of the sandbox (src/sandbox/test-cards.ts). */
const CARDS = {
  approved: '4111111111111111',
  declined: '4000000000009995',
  challenge: '4000000000003220',
} as const;
const EXPIRY = `12/${String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0')}`;

/**
 * The hosted page's controls, by what they are rather than how they look, so that a new layout still finds
 * them: the card fields by their autofill names, the buttons by their classes.
 */
const HOSTED = {
  number: 'input[autocomplete="cc-number"]',
  expiry: 'input[autocomplete="cc-exp"]',
  cvc: 'input[autocomplete="cc-csc"]',
  holder: 'input[autocomplete="cc-name"]',
  pay: 'button.pay',
  approve: 'button.approve',
} as const;

/** What a screen is drawn with: its page server and gateway. */
interface Stage {
  gateway: GatewayFixture;
  /** The page server's origin, `http://localhost:<port>`. */
  pages: string;
}

/** A screen: how to bring a new page to it, in a language. */
interface Screen {
  name: string;
  show(page: Page, language: Language, stage: Stage): Promise<void>;
}

// ---- the v1 hosted payment page ----

/** A new Purchase in `language`, of two teas and a cup; it shows its own outcome (no redirects). */
async function purchaseUrl(stage: Stage, language: Language, extra: object = {}): Promise<string> {
  const purchase = await stage.gateway.createPurchase({
    client: { email: 'anna@example.com' },
    purchase: {
      currency: 'EUR',
      language,
      products: [
        { name: 'Green tea', price: 1250, quantity: 2 },
        { name: 'Cup', price: 800 },
      ],
    },
    ...extra,
  });
  return purchase.checkout_url;
}

async function fillHostedCard(page: Page, number: string): Promise<void> {
  await page.fill(HOSTED.number, number);
  await page.fill(HOSTED.expiry, EXPIRY);
  await page.fill(HOSTED.cvc, '123');
  await page.fill(HOSTED.holder, 'Anna Bērziņa');
}

/** Clicks a button that submits the page's form and waits for the page it leads to. */
async function submit(page: Page, button: string): Promise<void> {
  await Promise.all([page.waitForEvent('load'), page.click(button)]);
}

const HOSTED_SCREENS: Screen[] = [
  {
    name: 'hosted-form',
    show: async (page, language, stage) => void (await page.goto(await purchaseUrl(stage, language))),
  },
  {
    name: 'hosted-form-errors',
    async show(page, language, stage) {
      await page.goto(await purchaseUrl(stage, language));
      await page.fill(HOSTED.number, '4111 1111 1111 1112');
      // Refused in the page or by the server: either way the errors show, with or without a new page.
      await page.click(HOSTED.pay);
      await page.waitForSelector('[role="alert"]');
    },
  },
  {
    name: 'hosted-preferred-visa',
    show: async (page, language, stage) =>
      void (await page.goto(`${await purchaseUrl(stage, language)}?preferred=visa`)),
  },
  {
    name: 'hosted-preferred-bank',
    show: async (page, language, stage) =>
      void (await page.goto(`${await purchaseUrl(stage, language)}?preferred=swedbank_lv_pis`)),
  },
  {
    name: 'hosted-bank-step',
    async show(page, language, stage) {
      await page.goto(`${await purchaseUrl(stage, language)}?preferred=swedbank_lv_pis`);
      await submit(page, '#go-swedbank_lv_pis');
      await page.waitForURL(/\/steps\//);
    },
  },
  {
    name: 'hosted-3ds',
    async show(page, language, stage) {
      await page.goto(await purchaseUrl(stage, language));
      await fillHostedCard(page, CARDS.challenge);
      await submit(page, HOSTED.pay);
      await page.waitForSelector(HOSTED.approve);
    },
  },
  {
    name: 'hosted-paid',
    async show(page, language, stage) {
      await page.goto(await purchaseUrl(stage, language));
      await fillHostedCard(page, CARDS.approved);
      await submit(page, HOSTED.pay);
      await page.waitForSelector(HOSTED.number, { state: 'detached' });
    },
  },
  {
    name: 'hosted-expired',
    async show(page, language, stage) {
      const due = Math.floor(Date.now() / 1000) - 60;
      await page.goto(
        await purchaseUrl(stage, language, {
          due,
          purchase: {
            currency: 'EUR',
            language,
            due_strict: true,
            products: [{ name: 'Green tea', price: 1250 }],
          },
        }),
      );
    },
  },
];

// ---- the element: the v1 picker and the legacy frame ----

/** Resolves once `<svc-checkout>` shows its form (`state="form"`), or throws with the state it shows. */
async function elementShowsForm(page: Page): Promise<void> {
  try {
    await page.waitForSelector('svc-checkout[state="form"]', { timeout: STEP_TIMEOUT_MS });
  } catch (cause) {
    const state = await page.getAttribute('svc-checkout', 'state').catch(() => null);
    throw new Error(`<svc-checkout> shows no form (state="${state}"); see the page's console`, { cause });
  }
}

/** The payment frame of the page's element. */
async function paymentFrame(page: Page): Promise<Frame> {
  const handle = await page.waitForSelector('svc-checkout iframe:not(.pending)', {
    timeout: STEP_TIMEOUT_MS,
  });
  const frame = await handle.contentFrame();
  if (!frame) throw new Error('the element has an iframe without a document');
  return frame;
}

/** Opens the card form, types the card `number` and presses Pay; answers the frame. */
async function payInFrame(page: Page, language: Language, number: string): Promise<Frame> {
  await page.goto(`/card?lang=${language}`);
  await elementShowsForm(page);
  const frame = await paymentFrame(page);
  const labels = new FrameLabels();
  await frame.getByLabel(labels.name('card.number.label')).fill(number);
  await frame.getByLabel(labels.name('card.expiry.label')).fill(EXPIRY);
  await frame.getByLabel(labels.name('card.cvc.label')).fill('123');
  await frame.getByLabel(labels.name('card.holder.label')).fill('Anna Bērziņa');
  await frame.getByRole('button', { name: labels.name('pay.button') }).click();
  return frame;
}

/**
 * Types a wrong card number and clicks Pay straight from it, the other fields empty: every card field shows
 * its error (the click lands although leaving the number shows its error first).
 */
async function showFrameErrors(page: Page): Promise<void> {
  await elementShowsForm(page);
  const frame = await paymentFrame(page);
  const labels = new FrameLabels();
  await frame.getByLabel(labels.name('card.number.label')).fill('4111 1111 1111 1112');
  await frame.getByRole('button', { name: labels.name('pay.button') }).click();
  await frame.waitForSelector('#svc-card-cvc-error', { timeout: STEP_TIMEOUT_MS });
}

const ELEMENT_SCREENS: Screen[] = [
  {
    name: 'picker',
    async show(page, language) {
      await page.goto(`/picker?lang=${language}`);
      await page.waitForSelector('svc-checkout [part~="confirm-button"]', { timeout: STEP_TIMEOUT_MS });
    },
  },
  {
    name: 'frame-card-form',
    async show(page, language) {
      await page.goto(`/card?lang=${language}`);
      await elementShowsForm(page);
    },
  },
  {
    name: 'frame-card-errors',
    async show(page, language) {
      await page.goto(`/card?lang=${language}`);
      await showFrameErrors(page);
    },
  },
  {
    name: 'frame-compact',
    async show(page, language) {
      await page.goto(`/card?lang=${language}&card-layout=compact`);
      await elementShowsForm(page);
    },
  },
  {
    name: 'frame-compact-errors',
    async show(page, language) {
      await page.goto(`/card?lang=${language}&card-layout=compact`);
      await showFrameErrors(page);
    },
  },
  {
    name: 'frame-holder-optional',
    async show(page, language) {
      await page.goto(`/card?lang=${language}&cardholder-name=optional`);
      await elementShowsForm(page);
    },
  },
  {
    name: 'frame-holder-hidden',
    async show(page, language) {
      await page.goto(`/card?lang=${language}&cardholder-name=hidden`);
      await elementShowsForm(page);
    },
  },
  {
    name: 'frame-full-checkout',
    async show(page, language) {
      await page.goto(`/full?lang=${language}`);
      await elementShowsForm(page);
    },
  },
  {
    name: 'frame-3ds',
    async show(page, language) {
      const frame = await payInFrame(page, language, CARDS.challenge);
      await frame
        .getByRole('button', { name: new FrameLabels().name('threeDs.approve') })
        .waitFor({ timeout: STEP_TIMEOUT_MS });
    },
  },
  {
    name: 'frame-paid',
    async show(page, language) {
      await page.goto(`/card?lang=${language}`);
      const ended = await payInCheckout(page, { card: { number: CARDS.approved, expiry: EXPIRY } });
      if (ended.outcome !== 'paid') throw new Error(`the approved card ended ${ended.outcome}`);
      await page.waitForSelector('svc-checkout[state="paid"]', { timeout: STEP_TIMEOUT_MS });
    },
  },
  {
    name: 'frame-failed',
    async show(page, language) {
      await page.goto(`/card?lang=${language}`);
      const ended = await payInCheckout(page, { card: { number: CARDS.declined, expiry: EXPIRY } });
      if (ended.outcome !== 'failed') throw new Error(`the declined card ended ${ended.outcome}`);
      await page.waitForSelector('svc-checkout[state="failed"]', { timeout: STEP_TIMEOUT_MS });
    },
  },
];

// ---- the page server ----

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/** A shop's page around one element, in `language`. */
function shopPage(gateway: GatewayFixture, language: Language, element: string): string {
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>svc-checkout screens</title>
<script type="module" src="${gateway.gatewayUrl}/widget/svc-checkout.js"></script>
<style>body{margin:0;padding:16px;font-family:system-ui,sans-serif;background:#f3f4f6}main{max-width:480px;margin:0 auto}</style>
</head><body><main>${element}</main></body></html>`;
}

let orders = 0;

/** The card form's settings a page's URL may pass on to its element (`/card?card-layout=compact`). */
const CARD_SETTINGS = ['card-layout', 'cardholder-name'] as const;

/**
 * `<svc-checkout>` with a signed legacy order of the widget, in `language`; `settings` are more attributes
 * (the card form's settings).
 */
function legacyElement(
  gateway: GatewayFixture,
  widgetId: string,
  language: Language,
  full: boolean,
  settings = '',
): string {
  const order: OrderInput = {
    widgetId,
    certificateName: gateway.certificateName,
    language,
    orderId: `SCREEN-${Date.now()}-${++orders}`,
    items: [
      { amount: '12.50', label: 'Green tea', count: 2 },
      { amount: '8.00', label: 'Cup' },
    ],
    ...(full
      ? {
          shippingOptions: [
            { id: 'courier', label: 'Courier' },
            { id: 'latvian-post', amount: '2.80', label: 'Latvian Post' },
          ],
        }
      : {}),
  };
  const { widgetId: _, certificateName, language: __, ...json } = order;
  return `<svc-checkout widget-id="${widgetId}" gateway="${gateway.gatewayUrl}" language="${language}"
    certificate-name="${certificateName}" signature="${gateway.sign(order)}"
    order="${escapeAttribute(JSON.stringify(json))}"${full ? ' first-name="Anna" email="anna@example.com"' : ''}${settings}></svc-checkout>`;
}

/**
 * Serves `/picker`, `/card` and `/full` (each `?lang=`; `/card` also takes the card settings, `&card-layout=`
 * and `&cardholder-name=`) and the merchant's `/payment-methods` on localhost.
 */
async function startPages(gatewayFor: (pageOrigin: string) => Promise<GatewayFixture>): Promise<{
  stage: Stage;
  close(): Promise<void>;
}> {
  const server: Server = createServer();
  await new Promise<void>((done) => server.listen(0, 'localhost', done));
  const pages = `http://localhost:${(server.address() as AddressInfo).port}`;
  const gateway = await gatewayFor(pages);
  const paymentMethods = toNodeHandler(gateway.paymentMethods);
  server.on('request', (req, res) => {
    const url = new URL(req.url ?? '/', pages);
    const language = (LANGUAGES as readonly string[]).includes(url.searchParams.get('lang') ?? '')
      ? (url.searchParams.get('lang') as Language)
      : 'en';
    const answer = (html: string) =>
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    if (url.pathname.startsWith('/payment-methods')) return void paymentMethods(req, res);
    if (url.pathname === '/picker') {
      void gateway.createPurchase({ client: { email: 'anna@example.com' } }).then(
        (purchase) =>
          answer(
            shopPage(
              gateway,
              language,
              `<svc-checkout checkout-url="${escapeAttribute(purchase.checkout_url)}" payment-methods-url="/payment-methods" language="${language}" country="lv"></svc-checkout>`,
            ),
          ),
        (error: unknown) => res.writeHead(500).end(String(error)),
      );
      return;
    }
    if (url.pathname === '/card') {
      const settings = CARD_SETTINGS.map((name) => {
        const value = url.searchParams.get(name);
        return value === null ? '' : ` ${name}="${escapeAttribute(value)}"`;
      }).join('');
      return void answer(
        shopPage(
          gateway,
          language,
          legacyElement(gateway, gateway.widgets.checkout, language, false, settings),
        ),
      );
    }
    if (url.pathname === '/full') {
      return void answer(
        shopPage(gateway, language, legacyElement(gateway, gateway.widgets.fullCheckout, language, true)),
      );
    }
    res.writeHead(404).end();
  });
  return {
    stage: { gateway, pages },
    async close() {
      await gateway.close();
      await new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
    },
  };
}

// ---- the run ----

/** One screenshot to take. */
interface Shot {
  screen: Screen;
  language: Language;
  width: number;
  forced: boolean;
  file: string;
}

function plannedShots(outDir: string): Shot[] {
  const shots: Shot[] = [];
  for (const screen of [...HOSTED_SCREENS, ...ELEMENT_SCREENS]) {
    const variants = [
      ...LANGUAGES.flatMap((language) => WIDTHS.map((width) => ({ language, width, forced: false }))),
      { language: 'en' as const, width: 390, forced: true },
    ];
    for (const { language, width, forced } of variants) {
      const file = join(outDir, `${screen.name}-${language}-${width}${forced ? '-forced' : ''}.png`);
      shots.push({ screen, language, width, forced, file });
    }
  }
  return shots;
}

/** Rejects after `ms` with a message naming what took too long. */
function deadline(ms: number, what: string): { promise: Promise<never>; clear(): void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no screenshot after ${ms / 1000} s`)), ms);
  });
  return { promise, clear: () => clearTimeout(timer) };
}

async function takeShot(browser: Browser, stage: Stage, shot: Shot): Promise<void> {
  const limit = deadline(SCREEN_TIMEOUT_MS, shot.file);
  const errors: string[] = [];
  const context = await browser.newContext({
    baseURL: stage.pages,
    viewport: { width: shot.width, height: 800 },
    forcedColors: shot.forced ? 'active' : 'none',
    locale: shot.language,
  });
  try {
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
    const page = await context.newPage();
    page.on('pageerror', (error) => errors.push(error.message));
    await Promise.race([
      (async () => {
        await shot.screen.show(page, shot.language, stage);
        // What loads after the state is reached (logos, fonts, the frame's height) settles before the picture.
        await page.evaluate('document.fonts.ready');
        await page.waitForTimeout(400);
        // The payment frame is another site's iframe, which a full-page screenshot paints only as far as the
        // viewport reached: the viewport takes the page's whole height first.
        const height = await page.evaluate<number>('document.documentElement.scrollHeight');
        await page.setViewportSize({ width: shot.width, height: Math.max(800, Math.ceil(height)) });
        await page.waitForTimeout(300);
        await page.screenshot({ path: shot.file, fullPage: true });
      })(),
      limit.promise,
    ]);
  } catch (error) {
    throw new Error(`${firstLine(error)}${errors.length > 0 ? ` (page errors: ${errors.join('; ')})` : ''}`);
  } finally {
    limit.clear();
    await context.close().catch(() => undefined);
  }
}

/** An error's first line: Playwright's messages go on with call logs. */
const firstLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0];

const launch = () => chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const only = args.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
  const outDir = resolve(args.find((arg) => !arg.startsWith('--')) ?? '/tmp/svc-screens');
  if (!existsSync('dist/browser/served-files.json')) {
    throw new Error('dist/browser is not built: run `npm run build:browser` first (the sandbox serves it).');
  }
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`no Chromium at ${CHROMIUM_PATH}: set CHROME_PATH to a Chromium or Chrome binary.`);
  }
  const shots = plannedShots(outDir).filter((shot) => only === undefined || shot.file.includes(only));
  if (shots.length === 0) throw new Error(`no screen's file name contains ${JSON.stringify(only)}`);
  await mkdir(outDir, { recursive: true });
  const { stage, close } = await startPages((pageOrigin) => startGatewayFixture({ pageOrigin }));
  let browser = await launch();
  const failed: string[] = [];
  try {
    for (const [index, shot] of shots.entries()) {
      // A browser that crashed (or was closed) is started again, so that one screen cannot fail the rest.
      if (!browser.isConnected()) browser = await launch();
      try {
        await takeShot(browser, stage, shot);
        console.log(`[${index + 1}/${shots.length}] ${shot.file}`);
      } catch (error) {
        failed.push(`${shot.file}: ${firstLine(error)}`);
        console.error(`[${index + 1}/${shots.length}] FAILED ${shot.file}: ${firstLine(error)}`);
      }
    }
  } finally {
    await browser.close();
    await close();
  }
  console.log(`${shots.length - failed.length} of ${shots.length} screenshots in ${outDir}`);
  if (failed.length > 0) {
    console.error(`${failed.length} failed:\n${failed.map((line) => `  ${line}`).join('\n')}`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(`screenshots: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
