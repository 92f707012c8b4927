import { CopyButton } from './copy.js';

/** The hosted URL of a payment with Copy and Open, and optionally its QR code (made by the service, core/qr). */
export function HostedUrl({ url, qr }: { url: string; qr?: string }) {
  return (
    <div class="stack" data-field="hosted-url">
      <div class="copy-row">
        <a class="mono wrap" href={url} target="_blank" rel="noopener noreferrer">
          {url}
        </a>
        <CopyButton text={url} label="Copy the payment link" />
        <a class="button" href={url} target="_blank" rel="noopener noreferrer">
          Open
        </a>
      </div>
      {qr ? <img class="qr" src={qr} alt="QR code of the payment link" width="192" height="192" /> : null}
    </div>
  );
}
