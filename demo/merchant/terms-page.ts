/**
 * The demo shop's terms of sale: the page behind the merchant's terms URL, which the payment frame links to.
 */

/** The terms page as a complete HTML document. */
export function termsPage(shopName: string): string {
  const name = escapeHtml(shopName);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Terms of sale – ${name}</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 42rem; margin: 2rem auto; padding: 0 1rem; color: #1a1a1a; }
  h1 { font-size: 1.6rem; }
</style>
</head>
<body>
<main>
<h1>Terms of sale</h1>
<p>${name} is a demonstration shop. It sells nothing: every payment goes to the local sandbox gateway with test
cards, and no money moves.</p>
<h2>Prices and delivery</h2>
<p>Prices include VAT at 21%. Delivery is priced when you choose it: by city for the courier, by pickup point
for parcel lockers and shops, and at a fixed price for Latvian Post.</p>
<h2>Payment</h2>
<p>Card details are entered in the gateway's payment frame and never reach the shop.</p>
<h2>Returns</h2>
<p>Within 14 days of delivery, as required by consumer law.</p>
</main>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!,
  );
}
