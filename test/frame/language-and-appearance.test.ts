// Texts in lv, en and ru from init (or the merchant's default), merchant text overrides, live `update`s of
// language and appearance, and the appearance checked again in the frame before it is applied.
import { expect, waitUntil } from '@open-wc/testing';
import { createTranslator, formatMoney, localeFor, TOKEN_NAMES } from '../../src/core/index.js';
import {
  checkoutOrder,
  init,
  input,
  mountFrame,
  openForm,
  payButton,
  typeCard,
  typeInto,
} from './harness.js';

const root = document.documentElement;
/** A text's key such as `card.number.label`, which must never show in place of its text. */
const TEXT_KEY = /\b(card|pay|summary|status|delivery|customer|terms|threeDs|scheme|unit)\.[a-z]/;

describe('language and appearance', () => {
  afterEach(() => {
    for (const name of TOKEN_NAMES) root.style.removeProperty(name);
    root.lang = 'en';
  });

  for (const language of ['lv', 'ru'] as const) {
    it(`speaks ${language} when init asks for it, through to the status screen`, async () => {
      const t = createTranslator(language);
      const { frame, channel } = await openForm(await checkoutOrder(), { language });
      expect(root.lang).to.equal(language);
      expect(payButton(frame).textContent!.trim()).to.equal(
        t('pay.button', { amount: formatMoney(2899, 'EUR', localeFor(language)) }),
      );
      expect(frame.querySelector('label[for="svc-card-number"]')!.textContent!.trim()).to.equal(
        t('card.number.label'),
      );
      expect(frame.querySelector('#svc-summary-title')!.textContent).to.equal(t('summary.title'));
      expect(frame.textContent).to.not.match(TEXT_KEY);
      await typeCard(frame, { number: '4000000000000002' });
      payButton(frame).click();
      await channel.waitForState('failed');
      await waitUntil(() => frame.querySelector('#svc-status-title'));
      expect(frame.querySelector('#svc-status-title')!.textContent!.trim()).to.equal(
        t('status.failed.title'),
      );
      expect(frame.querySelector('.svc-status-text')!.textContent).to.include(
        t('status.failed.reason.card_declined'),
      );
    });
  }

  it('spells the pay button in Latvian and Russian words, not English ones', async () => {
    const lv = await openForm(await checkoutOrder(), { language: 'lv' });
    expect(payButton(lv.frame).textContent).to.match(/^\s*Maksāt 28,99\s€\s*$/);
    const ru = await openForm(await checkoutOrder(), { language: 'ru-RU' });
    expect(payButton(ru.frame).textContent).to.match(/^\s*Оплатить 28,99\s€\s*$/);
  });

  it('shows the latest language when an update comes while the texts of init’s language load', async () => {
    const order = await checkoutOrder();
    const { frame, channel } = await mountFrame(order.widgetId);
    await init(channel, order, { language: 'lv' });
    channel.send({ type: 'update', language: 'ru' });
    await channel.waitForState('form');
    await waitUntil(() => root.lang === 'ru', `lang is ${root.lang}`);
    await frame.updateComplete;
    expect(payButton(frame).textContent).to.match(/^\s*Оплатить 28,99\s€\s*$/);
    expect(frame.textContent).to.not.match(TEXT_KEY);
  });

  it('falls back to the merchant’s default language for a language it does not speak', async () => {
    const { frame } = await openForm(await checkoutOrder(), { language: 'de' });
    expect(root.lang).to.equal('en');
    expect(payButton(frame).textContent!.trim()).to.equal('Pay €28.99');
  });

  it('changes language live on update, errors included', async () => {
    const { frame, channel } = await openForm(await checkoutOrder(), { language: 'en' });
    await typeInto(frame, 'svc-card-number', '4111111111111112');
    input(frame, 'svc-card-number').dispatchEvent(new Event('change'));
    await frame.updateComplete;
    expect(frame.querySelector('#svc-card-number-error')!.textContent).to.equal(
      createTranslator('en')('card.number.error.luhn_failed'),
    );
    channel.send({ type: 'update', language: 'lv' });
    await frame.updateComplete;
    await waitUntil(
      () =>
        frame.querySelector('#svc-card-number-error')!.textContent ===
        createTranslator('lv')('card.number.error.luhn_failed'),
    );
    expect(payButton(frame).textContent).to.include('Maksāt');
    expect(root.lang).to.equal('lv');
  });

  it('uses the merchant’s text overrides and ignores unknown keys', async () => {
    const { frame } = await openForm(await checkoutOrder(), {
      texts: { 'pay.button': 'Buy now for {amount}', 'no.such.key': 'x' },
    });
    expect(payButton(frame).textContent!.trim()).to.equal('Buy now for €28.99');
  });

  it('applies the allow-listed appearance, checked again, and replaces it on update', async () => {
    const { frame, channel } = await openForm(await checkoutOrder(), {
      appearance: {
        '--svc-color-primary': '#c00000',
        '--svc-border-radius': '400px',
        '--svc-spacing': '8px',
      },
    });
    expect(root.style.getPropertyValue('--svc-color-primary')).to.equal('#c00000');
    expect(root.style.getPropertyValue('--svc-border-radius')).to.equal('');
    expect(getComputedStyle(payButton(frame)).backgroundColor).to.equal('rgb(192, 0, 0)');
    channel.send({
      type: 'update',
      appearance: { '--svc-color-primary': 'url(https://evil.example/x)', '--svc-color-text': 'navy' },
    });
    // Applied once its checks have run (they load with the first appearance that sets a value).
    await waitUntil(() => root.style.getPropertyValue('--svc-color-text') === 'navy', 'the update applies');
    expect(root.style.getPropertyValue('--svc-color-primary')).to.equal('');
    expect(root.style.getPropertyValue('--svc-spacing')).to.equal('');
    expect(root.style.getPropertyValue('--svc-color-text')).to.equal('navy');
    expect(getComputedStyle(payButton(frame)).backgroundColor).to.equal('rgb(26, 86, 219)');
  });

  it('names each value it leaves out once in the console, however often it is sent', async () => {
    // The words load on the first value left out (core/appearance-messages.ts): once they are here, the
    // earlier tests' frames have written theirs, and none reaches this test's console.
    await import('../../src/core/appearance-messages.js');
    await new Promise((resolve) => setTimeout(resolve));
    const warnings: string[] = [];
    const original = console.warn;
    console.warn = (...args: unknown[]) => warnings.push(args.map(String).join(' '));
    try {
      const { frame, channel } = await openForm(await checkoutOrder(), {
        appearance: { '--svc-border-radius': '400px', '--svc-spacing': '8px' },
      });
      channel.send({
        type: 'update',
        appearance: { '--svc-border-radius': '400px', '--svc-color-primary': 'url(https://evil.example/x)' },
      });
      channel.send({ type: 'update', appearance: { '--svc-border-radius': '400px' } });
      await frame.updateComplete;
      await waitUntil(() => warnings.length >= 2, 'the two values are named');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(warnings).to.have.length(2);
      expect(warnings[0]).to.match(/^<svc-checkout> --svc-border-radius: 400px is not used: .*32px/);
      expect(warnings[1]).to.match(
        /^<svc-checkout> --svc-color-primary: url\(https:\/\/evil\.example\/x\) is not used/,
      );
      channel.send({ type: 'update', appearance: { '--svc-border-radius': '500px' } });
      await waitUntil(() => warnings.length >= 3, 'another value is named again');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(warnings, 'another value is named again, once').to.have.length(3);
    } finally {
      console.warn = original;
    }
  });
});
