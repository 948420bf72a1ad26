// The demo pages' event log: every event <svc-checkout> fires (they bubble and cross shadow roots, so one
// listener on the document hears them all) is shown in the page's #event-log and in the console, and kept
// in sessionStorage so the cart page can show what happened on the page that sent the customer there.
// A classic script with no imports, so the plain HTML pages (script tag only, no build) use it too.
(() => {
  const EVENTS = ['paymentCompleted', 'navigateBackToCart', 'checkoutError', 'navigateToCheckout'];
  const STORAGE_KEY = 'svc-demo:events';

  function describe(event) {
    return event.detail === undefined || event.detail === null ? '' : JSON.stringify(event.detail);
  }

  function entry(name, detail, time, page) {
    const item = document.createElement('li');
    item.dataset.event = name;
    const stamp = document.createElement('time');
    stamp.dateTime = time;
    stamp.textContent = new Date(time).toLocaleTimeString();
    const title = document.createElement('strong');
    title.textContent = name;
    item.append(stamp, ' ', title);
    if (page) item.append(` on ${page}`);
    if (detail) {
      const code = document.createElement('code');
      code.textContent = detail;
      item.append(' ', code);
    }
    return item;
  }

  function remember(record) {
    try {
      const kept = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]');
      kept.push(record);
      sessionStorage.setItem(STORAGE_KEY, JSON.stringify(kept.slice(-50)));
    } catch {
      // Storage may be off (private mode, policies); the on-page log still works.
    }
  }

  for (const name of EVENTS) {
    document.addEventListener(name, (event) => {
      const detail = describe(event);
      const time = new Date().toISOString();
      console.info(`[svc-demo] ${name}`, detail);
      remember({ name, detail, time, page: location.pathname });
      document.getElementById('event-log')?.append(entry(name, detail, time));
    });
  }

  // The cart page lists what earlier pages logged.
  document.addEventListener('DOMContentLoaded', () => {
    const earlier = document.getElementById('earlier-events');
    if (!earlier) return;
    let kept = [];
    try {
      kept = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]');
    } catch {}
    for (const record of kept) earlier.append(entry(record.name, record.detail, record.time, record.page));
  });
})();
