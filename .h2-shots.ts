import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './test/support/chromium.mjs';
import { FakeMerchant } from './test/sandbox/support.js';
import { cardForm, postForm, purchaseBody, startV1Sandbox, v1 } from './test/sandbox/v1/support.js';

const merchant = await FakeMerchant.start();
const sandbox = await startV1Sandbox(merchant);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
const create = async (o: Record<string, unknown>) =>
  (await v1(sandbox, 'POST', '/purchases/', { body: purchaseBody({ cancel_redirect: `${merchant.url}/cart`, ...o }) })).body as { id: string; checkout_url: string };
const shots: Array<[string, string, number, boolean?]> = [];
const card = await create({ purchase: { products: [{ name: 'Tea', price: 1250, quantity: 2 }], language: 'ru' } });
const expired = await create({ due: Math.floor(Date.now() / 1000) - 300, purchase: { products: [{ name: 'Tea', price: 100 }], language: 'lv', due_strict: true } });
const saving = await create({ skip_capture: true, purchase: { products: [{ name: 'Card check', price: 0 }], language: 'en' } });
const ch = await postForm(sandbox, `/checkout/${saving.id}/pay`, cardForm('4000000000003220'));
shots.push(['card-390', card.checkout_url, 390], ['card-1280', card.checkout_url, 1280], ['card-forced', card.checkout_url, 390, true]);
shots.push(['expired-390', expired.checkout_url, 390], ['saving-form-390', saving.checkout_url, 390]);
shots.push(['saving-step-390', new URL(ch.location!, sandbox.url).href, 390]);
for (const [name, url, width, forced] of shots) {
  const ctx = await browser.newContext({ viewport: { width, height: 900 }, ...(forced && { forcedColors: 'active' as const }) });
  const page = await ctx.newPage();
  await page.goto(url);
  await page.screenshot({ path: `/tmp/h2-shots/${name}.png`, fullPage: true });
  if (name === 'card-390') {
    await page.click('#card_number');
    await page.keyboard.type('5555555555554444');
    await page.screenshot({ path: `/tmp/h2-shots/card-typed-390.png`, clip: { x: 0, y: 0, width: 390, height: 900 }, fullPage: true });
  }
  await ctx.close();
}
await browser.close();
await sandbox.close();
await merchant.close();
