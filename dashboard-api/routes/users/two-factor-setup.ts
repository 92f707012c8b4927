import type { Hono } from 'hono';
import { ok } from '../../../api-kit/envelope.js';
import { qrSvgDataUrl } from '../../../core/qr/encode.js';
import { startEnrolment } from '../../../core/users/two-factor.js';
import type { DashCtx, DashEnv } from '../../context.js';

/**
 * POST /account/two-factor/setup: a new secret for an authenticator app, as a QR code of its otpauth:// URI (our
 * own encoder, core/qr) and as base32 text to type. Nothing changes for sign-in until POST /account/two-factor
 * confirms it with a code; this is the only answer that ever shows the secret.
 */
export function registerTwoFactorSetup(app: Hono<DashEnv>, x: DashCtx): void {
  app.post('/account/two-factor/setup', async (c) => {
    const s = c.get('signedIn');
    const e = await startEnrolment(x.deps.db, s, x.deps.clock.now());
    return ok(c, setupView(e), 'Scan the code with your authenticator app, then type the code it shows');
  });
}

function setupView(e: { secret: string; uri: string }) {
  return { secret: e.secret, otpauth_uri: e.uri, qr_svg: qrSvgDataUrl(e.uri) };
}
export type TwoFactorSetup = ReturnType<typeof setupView>;
