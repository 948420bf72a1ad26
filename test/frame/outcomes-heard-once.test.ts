// Each outcome is heard once: where the focus goes to a heading that says it (the 3-D Secure step, the paid and
// failed screens), the live region does not say it again; the status screen's sentence is its heading's
// description, read with it.
import { expect, waitUntil } from '@open-wc/testing';
import { createTranslator } from '../../src/core/index.js';
import type { SvcPaymentFrame } from '../../src/frame/payment-frame.js';
import { checkoutOrder, liveRegion, openForm, payButton, payIntoChallenge, typeCard } from './harness.js';

const en = createTranslator('en');

async function focusedHeading(frame: SvcPaymentFrame, id: string): Promise<HTMLElement> {
  const heading = () => frame.querySelector<HTMLElement>(`#${id}`);
  await waitUntil(() => heading() && document.activeElement === heading(), `focus not on #${id}`, {
    timeout: 8000,
  });
  await frame.updateComplete;
  return heading()!;
}

describe('outcomes heard once', function () {
  this.timeout(20000);

  for (const [state, number, title] of [
    ['paid', '4111111111111111', en('status.paid.title')],
    ['failed', '4000000000009995', en('status.failed.title')],
  ] as const) {
    it(`${state}: the focused heading says it, with its sentence, and the live region does not repeat it`, async () => {
      const { frame, channel } = await openForm(await checkoutOrder());
      await typeCard(frame, { number });
      payButton(frame).click();
      await channel.waitForState(state);
      const heading = await focusedHeading(frame, 'svc-status-title');
      expect(heading.textContent).to.equal(title);
      expect(liveRegion(frame).textContent).to.not.include(title);
      const sentence = frame.querySelector('.svc-status-text')!;
      expect(liveRegion(frame).textContent).to.not.include(sentence.textContent!);
      // Element to element, as a boolean: chai would print a failing element's whole Lit state.
      const describedBy = frame.querySelector(`#${heading.getAttribute('aria-describedby')}`);
      expect(describedBy === sentence, 'the sentence is not the heading’s description').to.equal(true);
    });
  }

  it('3-D Secure: the focused heading says it, and the live region does not repeat it', async () => {
    const { frame, channel } = await openForm(await checkoutOrder());
    await payIntoChallenge(frame, channel);
    const heading = await focusedHeading(frame, 'svc-challenge-title');
    expect(heading.textContent).to.equal(en('threeDs.title'));
    expect(liveRegion(frame).textContent).to.not.include(en('threeDs.title'));
  });
});
