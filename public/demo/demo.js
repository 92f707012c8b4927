// The demo storefront. It may be opened from another origin: ?service=http://host:port names the service.
(() => {
  const log = document.getElementById('log');
  const hint = document.getElementById('hint');
  // Scripts are loaded from the service named here, so it must be an http(s) origin and nothing else: a data: or
  // javascript: URL would run whatever it carries on this page's origin.
  const serviceOrigin = (text) => {
    if (!text) return location.origin;
    try {
      const u = new URL(text);
      return u.protocol === 'https:' || u.protocol === 'http:' ? u.origin : null;
    } catch {
      return null;
    }
  };
  const service = serviceOrigin(new URLSearchParams(location.search).get('service'));
  if (!service) {
    hint.textContent = '?service= must be the http(s) origin of the payment service, such as http://127.0.0.1:8787.';
    return;
  }
  const note = (text) => {
    const li = document.createElement('li');
    li.textContent = text; // never HTML: payment data is text
    log.prepend(li);
  };
  const load = (src) =>
    new Promise((resolve, reject) => {
      const s = document.createElement('script');
      // CORS mode, as the page's Link header preloads them (else the preloads go unused and download again) and as
      // the checkout's session request goes: one connection pool, so that request rides a warm connection.
      s.crossOrigin = 'anonymous';
      s.src = src;
      s.onload = resolve;
      s.onerror = () => reject(new Error(`cannot load ${src}`));
      document.head.appendChild(s);
    });

  Promise.all([load(`${service}/demo/config.js`), load(`${service}/dropin/v1/checkout.js`)])
    .then(() => {
      const key = window.DEMO_CONFIG?.publicKey;
      if (!key) {
        hint.textContent =
          'No demo merchant key on this service: start it with an empty store (npm start) to create the demo merchant.';
        return;
      }
      hint.textContent = 'Test mode: nothing here costs real money.';
      for (const button of document.querySelectorAll('#products button')) {
        button.addEventListener('click', () => {
          const name = button.dataset.name;
          const reference = `demo-${Date.now().toString(36)}`;
          ServiceCheckout.open({
            publicKey: key,
            amount: Number(button.dataset.amount),
            ...(button.dataset.crypto ? { cryptoCurrency: button.dataset.crypto } : {}),
            customer: { email: document.getElementById('email').value },
            reference,
            onSuccess: (p) =>
              note(`${name}: paid ${p.actually_paid} ${p.pay_currency} (payment ${p.payment_id}, order ${reference})`),
            onExpired: () => note(`${name}: the quote expired`),
            onError: (e) => note(`${name}: ${e.message}`),
          });
        });
      }
    })
    .catch((e) => {
      hint.textContent = `The payment service at ${service} is not reachable (${e.message}).`;
    });
})();
