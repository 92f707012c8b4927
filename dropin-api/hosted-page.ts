/**
 * The hosted payment page (`/pay/{payment_id}?t=...`): a static shell that loads the drop-in script and renders
 * the same components as a full page. Nothing from the payment is written into this HTML; the script reads the
 * payment id and token from the address and fetches the rest, so no merchant or customer text is ever HTML here.
 */
export const hostedPageHtml = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>Payment</title>
<style>html,body{margin:0;min-height:100%;background:#f4f5f7}@media (prefers-color-scheme:dark){html,body{background:#111318}}</style>
</head>
<body>
<script type="module" src="/dropin/v1/page.js"></script>
<noscript>This payment page needs JavaScript.</noscript>
</body>
</html>
`;

export const invalidPageHtml = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Payment not found</title></head>
<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem">
<h1>Payment not found</h1>
<p>This payment link is incomplete or invalid. Please use the exact link you were given.</p>
</body>
</html>
`;
