/**
 * The frame's first view (issue 26): the gateway writes the card form into the frame's page, so the card
 * number takes typing before any script of the frame has run; the frame's code then takes over the same
 * inputs, with the text, the focus and the caret the shopper left, and the payment goes on as ever. The
 * frame's first chunk is held by the test until the shopper has typed, so the order of events is forced, not
 * timed.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser, Frame, Page } from 'playwright-core';
import { type GatewayFixture, startGatewayFixture } from '../support/gateway-fixture.js';
import { launchBrowser } from './support/browser.js';
import { waitUntil } from './support/shop-page.js';

/** The frame's first chunk (`frame-<hash>.js` or `frame-checkout-<hash>.js`), not its later chunks. */
const FIRST_CHUNK = /\/widget\/frame\/assets\/frame(-checkout)?-[\w-]+\.js$/;

describe("the frame's first view", () => {
  let browser: Browser;
  let gateway: GatewayFixture;
  const pages = createServer();
  let pageOrigin = '';

  before(async () => {
    await new Promise<void>((resolve) => pages.listen(0, 'localhost', resolve));
    pageOrigin = `http://localhost:${(pages.address() as AddressInfo).port}`;
    gateway = await startGatewayFixture({ pageOrigin });
    browser = await launchBrowser();
    // A page that declares the payment frame as the element opens it (its URL, with a channel), and nothing
    // else: what the frame shows and does before and after its own code runs is the frame's alone.
    pages.on('request', (req, res) => {
      const query = new URL(req.url ?? '/', pageOrigin).searchParams;
      const settings = query.get('settings') ?? '';
      const widget = query.get('widget') ?? gateway.widgets.instant;
      // The card settings in the query, as the element writes them; in the hash, as an earlier element did.
      const inHash = query.get('inHash') === '1';
      const frameUrl = `${gateway.gatewayUrl}/widget/frame/${widget}?lang=en${inHash ? '' : settings}#channel=first-view-test&origin=${encodeURIComponent(pageOrigin)}${inHash ? settings : ''}`;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head>
<body><iframe title="Secure payment form" src="${frameUrl}" style="width: 480px; height: 600px"></iframe></body></html>`,
      );
    });
  });

  after(async () => {
    await browser?.close();
    await gateway?.close();
    pages.closeAllConnections();
    await new Promise<void>((resolve) => pages.close(() => resolve()));
  });

  /** The shop's page with the frame's first chunk held until `release` is called. */
  async function openWithFrameCodeHeld(
    page: Page,
    {
      settings = '',
      widget = gateway.widgets.instant as string,
      inHash = false,
    }: { settings?: string; widget?: string; inHash?: boolean } = {},
  ): Promise<{ frame: Frame; release(): void }> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(FIRST_CHUNK, async (route) => {
      await held;
      await route.continue();
    });
    // Not until load: the page's load waits for the frame's, which waits for the held code.
    await page.goto(
      `${pageOrigin}/?${new URLSearchParams({ settings, widget, inHash: inHash ? '1' : '' })}`,
      { waitUntil: 'commit' },
    );
    const frame = await waitUntil('the payment frame', async () =>
      page.frames().find((candidate) => candidate.url().includes('/widget/frame/')),
    );
    return { frame, release };
  }

  test('the card number takes typing before the frame code runs, which then takes it over as left', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const requested: string[] = [];
      page.on('request', (request) => requested.push(`${request.method()} ${request.url()}`));
      const { frame, release } = await openWithFrameCodeHeld(page);
      const number = frame.getByLabel('Card number');
      await number.click();
      await number.pressSequentially('4111111111');
      // The caret three digits back, after the seventh digit.
      for (let step = 0; step < 3; step++) await number.press('ArrowLeft');
      assert.equal(
        await frame.evaluate(() => customElements.get('svc-payment-frame')),
        undefined,
        'none of the frame code has run',
      );
      // Enter in a field submits nothing: the pay button, the form's default button, waits for the code
      // (and the page's policy, form-action 'none', would stop a submission besides).
      await frame.evaluate(() => {
        const seen: string[] = [];
        (globalThis as { svcSeen?: string[] }).svcSeen = seen;
        document.addEventListener('submit', () => seen.push('submit'), true);
        document.addEventListener('securitypolicyviolation', (event) => seen.push(event.effectiveDirective));
      });
      await number.press('Enter');
      assert.deepEqual(await frame.evaluate(() => (globalThis as { svcSeen?: string[] }).svcSeen), []);
      // The input itself is marked, to be found again after the takeover.
      await number.evaluate((input) => {
        (input as HTMLInputElement & { svcMark?: boolean }).svcMark = true;
      });

      release();
      await frame.waitForFunction(() => {
        const host = document.querySelector('svc-payment-frame');
        const input = document.querySelector<HTMLInputElement>('#svc-card-number');
        return host && !host.hasAttribute('defer-hydration') && input?.value === '4111 1111 11';
      });
      const after = await frame.evaluate(() => {
        const input = document.querySelector<HTMLInputElement & { svcMark?: boolean }>('#svc-card-number')!;
        return {
          same: input.svcMark === true,
          focused: document.activeElement === input,
          caret: input.selectionStart,
          inputs: document.querySelectorAll('#svc-card-number').length,
        };
      });
      assert.deepEqual(after, { same: true, focused: true, caret: 8, inputs: 1 });

      // The rest is typed into the taken-over inputs, formatted as the frame's code formats them.
      await number.press('End');
      await number.pressSequentially('111111');
      assert.equal(await number.inputValue(), '4111 1111 1111 1111');
      await frame.getByLabel('Expiry date').pressSequentially('1234');
      assert.equal(await frame.getByLabel('Expiry date').inputValue(), '12/34');
      // Nothing was sent anywhere: the number is in no request.
      assert.deepEqual(
        requested.filter((line) => line.includes('4111')),
        [],
      );
    } finally {
      await context.close();
    }
  });

  test('the first view shows styled and focusable with no script at all, under the page policy', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      const violations: string[] = [];
      page.on('console', (message) => {
        if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text());
      });
      // The page's script cannot run either: the frame is opened as the element would open it.
      const probe = await browser.newContext();
      const probePage = await probe.newPage();
      const { frame, release } = await openWithFrameCodeHeld(probePage);
      const frameUrl = frame.url();
      release();
      await probe.close();

      await page.goto(frameUrl);
      const number = page.getByLabel('Card number');
      await number.focus();
      assert.equal(await number.evaluate((input) => document.activeElement === input), true);
      // The first view's styles apply: the accepted cards' hint is for screen readers, out of sight.
      const hint = await page
        .locator('#svc-card-number-hint')
        .evaluate((element) => ({ width: element.getBoundingClientRect().width, text: element.textContent }));
      assert.ok(hint.width <= 1, `the hint is visually hidden (width ${hint.width})`);
      assert.match(hint.text ?? '', /Visa/);
      assert.deepEqual(violations, []);
    } finally {
      await context.close();
    }
  });

  test('the card settings the element asks for are in the first view, which the code takes over', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const { frame, release } = await openWithFrameCodeHeld(page, {
        settings: '&card-layout=compact&cardholder-name=hidden',
      });
      const number = frame.getByLabel('Card number');
      await number.pressSequentially('5555');
      assert.equal(await frame.locator('.svc-card-fields--compact').count(), 1);
      assert.equal(await frame.getByLabel('Name on card').count(), 0);
      await number.evaluate((input) => {
        (input as HTMLInputElement & { svcMark?: boolean }).svcMark = true;
      });
      release();
      await frame.waitForFunction(() => document.querySelectorAll('[defer-hydration]').length === 0);
      await frame.waitForFunction(
        () => document.querySelector<HTMLInputElement>('#svc-card-number')?.value === '5555',
      );
      assert.equal(
        await number.evaluate((input) => (input as HTMLInputElement & { svcMark?: boolean }).svcMark),
        true,
        'the same input',
      );
    } finally {
      await context.close();
    }
  });

  test('card settings the first view was not written for (an earlier element wrote them in the hash): the code renders its own form', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const { frame, release } = await openWithFrameCodeHeld(page, {
        settings: '&card-layout=compact&cardholder-name=hidden',
        inHash: true,
      });
      await frame.getByLabel('Name on card').waitFor();
      release();
      await frame.locator('.svc-card-fields--compact').waitFor();
      assert.equal(await frame.getByLabel('Name on card').count(), 0);
      assert.equal(await frame.locator('#svc-card-number').count(), 1);
      assert.equal(await frame.locator('[defer-hydration]').count(), 0);
    } finally {
      await context.close();
    }
  });

  test("the full checkout's first view has the customer's fields and the terms, kept as left when the code comes", async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const { frame, release } = await openWithFrameCodeHeld(page, { widget: gateway.widgets.fullCheckout });
      const email = frame.getByLabel('Email');
      await email.fill('buyer@example.com');
      await frame.getByLabel('I agree to the terms and conditions').check();
      await frame.getByLabel('First name').pressSequentially('Anna');
      assert.equal(await frame.evaluate(() => customElements.get('svc-customer-fields')), undefined);
      release();
      await frame.waitForFunction(() => document.querySelectorAll('[defer-hydration]').length === 0);
      await frame.waitForFunction(() => customElements.get('svc-customer-fields') !== undefined);
      const state = await frame.evaluate(() => {
        const fields = document.querySelector('svc-customer-fields') as unknown as {
          values: Record<string, string>;
          hasUpdated: boolean;
        };
        const frameElement = document.querySelector('svc-payment-frame') as unknown as {
          termsAgreed: boolean;
        };
        const focused = document.activeElement as HTMLInputElement | null;
        return {
          values: fields.values,
          termsAgreed: frameElement.termsAgreed,
          ticked: document.querySelector<HTMLInputElement>('#svc-terms')?.checked,
          focused: focused?.id,
          caret: focused?.selectionStart,
        };
      });
      assert.deepEqual(state, {
        values: { firstName: 'Anna', lastName: '', email: 'buyer@example.com', phone: '' },
        termsAgreed: true,
        ticked: true,
        focused: 'svc-customer-firstName',
        caret: 4,
      });
    } finally {
      await context.close();
    }
  });
});
