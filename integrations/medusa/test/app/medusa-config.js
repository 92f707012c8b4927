// The Medusa project the proof test starts (test/run.ts): stock Medusa v2, admin UI off, this package as its
// payment provider, configured from the environment exactly as a shop would in its own medusa-config.
const path = require('node:path');
const { defineConfig } = require('@medusajs/framework/utils');

const storefront = process.env.STOREFRONT_ORIGIN ?? 'http://127.0.0.1:8000';

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    http: {
      storeCors: storefront,
      adminCors: storefront,
      authCors: storefront,
      jwtSecret: process.env.JWT_SECRET ?? 'test-jwt-secret',
      cookieSecret: process.env.COOKIE_SECRET ?? 'test-cookie-secret',
    },
  },
  admin: { disable: true },
  modules: [
    {
      resolve: '@medusajs/medusa/payment',
      options: {
        providers: [
          {
            // A shop writes '@crypto-payments/medusa-payment' here; the test loads the package from its folder.
            resolve: path.resolve(__dirname, '../..'),
            id: 'crypto',
            options: {
              url: process.env.CRYPTO_PAYMENTS_URL,
              secretKey: process.env.CRYPTO_PAYMENTS_SECRET_KEY,
              webhookSecret: process.env.CRYPTO_PAYMENTS_WEBHOOK_SECRET,
              payCurrency: 'btc',
            },
          },
        ],
      },
    },
  ],
});
