/** A mail's parts, plain text and HTML, from one description: both always say the same. */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

/** One block of a mail: a paragraph, a call to action, or label/value rows (amounts, ids). */
export type MailBlock =
  | { p: string }
  | { button: { label: string; url: string } }
  | { rows: [label: string, value: string, href?: string][] };

/** HTML-escapes text someone typed (a name, a description, an order id): it arrives as text, never as markup. */
export function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] as string,
  );
}

/** Only http(s) links go into a mail (they are built from PUBLIC_URL or the operator's explorer settings). */
function safeHref(url: string): string | null {
  return /^https?:\/\//i.test(url) ? url : null;
}

/**
 * Renders a mail: the text part line by line, the HTML part as a plain single-column layout with every piece of
 * text escaped. `lang` is the HTML's language (the customer's checkout locale); `dir` for right-to-left scripts.
 */
export function renderMail(o: {
  subject: string;
  blocks: MailBlock[];
  footer?: string;
  lang?: string;
  dir?: 'ltr' | 'rtl';
}): MailContent {
  const text: string[] = [];
  const html: string[] = [];
  for (const b of o.blocks) {
    if ('p' in b) {
      text.push(b.p, '');
      html.push(`<p style="margin:0 0 16px">${escapeHtml(b.p)}</p>`);
    } else if ('button' in b) {
      text.push(`${b.button.label}: ${b.button.url}`, '');
      const href = safeHref(b.button.url);
      if (href)
        html.push(
          `<p style="margin:0 0 16px"><a href="${escapeHtml(href)}" style="display:inline-block;padding:10px 18px;background:#1f4fd1;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(b.button.label)}</a></p>`,
        );
    } else {
      for (const [label, value] of b.rows) text.push(`${label}: ${value}`);
      text.push('');
      html.push(
        `<table role="presentation" style="border-collapse:collapse;margin:0 0 16px">${b.rows
          .map(([label, value, link]) => {
            const href = link ? safeHref(link) : null;
            const v = href ? `<a href="${escapeHtml(href)}">${escapeHtml(value)}</a>` : escapeHtml(value);
            return `<tr><th scope="row" style="text-align:start;padding:4px 16px 4px 0;font-weight:600">${escapeHtml(label)}</th><td style="padding:4px 0;font-family:monospace">${v}</td></tr>`;
          })
          .join('')}</table>`,
      );
      for (const [label, , link] of b.rows) if (link && safeHref(link)) text.splice(-1, 0, `  ${label}: ${link}`);
    }
  }
  if (o.footer) {
    text.push('--', o.footer);
    html.push(`<p style="margin:24px 0 0;color:#666;font-size:13px">${escapeHtml(o.footer)}</p>`);
  }
  const lang = escapeHtml(o.lang ?? 'en');
  return {
    subject: o.subject,
    text: `${text.join('\n').trimEnd()}\n`,
    html: `<!doctype html><html lang="${lang}" dir="${o.dir ?? 'ltr'}"><head><meta charset="utf-8"><title>${escapeHtml(o.subject)}</title></head><body style="font-family:system-ui,sans-serif;font-size:15px;line-height:1.5;color:#111;max-width:560px;margin:0 auto;padding:24px">${html.join('')}</body></html>`,
  };
}
