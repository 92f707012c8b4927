// The storefront's payment step (checkout.html). Plain browser JavaScript against Medusa v2's store API.
(() => {
  const q = new URLSearchParams(location.search);
  const medusa = (q.get('medusa') || '').replace(/\/+$/, '');
  const cartId = q.get('cart') || '';
  const provider = q.get('provider') || 'pp_crypto_crypto';
  const headers = { 'content-type': 'application/json', 'x-publishable-api-key': q.get('key') || '' };
  const $ = (id) => document.getElementById(id);

  async function store(path, body) {
    const res = await fetch(`${medusa}/store${path}`, {
      method: body ? 'POST' : 'GET',
      headers,
      credentials: 'include',
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const json = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(json.message || `Medusa answered ${res.status}`);
    return json;
  }

  function money(amount, currency) {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(amount);
  }

  /** Until Medusa has made the order: the service's webhook completes the cart, this page only watches. */
  async function watch() {
    $('status').textContent = 'Waiting for the payment to be confirmed…';
    for (;;) {
      const { cart } = await store(`/carts/${cartId}?fields=+completed_at`);
      if (cart.completed_at) {
        $('status').textContent = 'Payment received: your order is placed.';
        $('status').dataset.state = 'ordered';
        return;
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
  }

  async function pay() {
    $('pay').disabled = true;
    $('error').textContent = '';
    // Opened at once, within the click, so no popup blocker stops it; its address follows.
    const win = window.open('', 'crypto-checkout');
    try {
      const { cart } = await store(`/carts/${cartId}`);
      const { payment_collection: pc } = await store('/payment-collections', { cart_id: cartId });
      const { payment_collection: withSession } = await store(`/payment-collections/${pc.id}/payment-sessions`, {
        provider_id: provider,
        data: { email: cart.email },
      });
      const session = withSession.payment_sessions.find((s) => s.provider_id === provider);
      const url = session?.data?.hosted_payment_url;
      if (!url) throw new Error('The payment session has no hosted page');
      if (win) win.location.href = url;
      else location.href = url;
      await watch();
    } catch (e) {
      if (win) win.close();
      $('error').textContent = e instanceof Error ? e.message : String(e);
      $('pay').disabled = false;
    }
  }

  store(`/carts/${cartId}`)
    .then(({ cart }) => {
      $('total').textContent = money(cart.total, cart.currency_code.toUpperCase());
      $('pay').disabled = false;
      $('pay').addEventListener('click', pay);
    })
    .catch((e) => {
      $('error').textContent = e.message;
    });
})();
