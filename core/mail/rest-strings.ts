import type { MailLocale } from './customer-strings.js';

/** The words of the "ask for the rest" mail (core/mail/rest-mail.ts) in the 10 customer locales; `{x}` is filled in. */
export interface RestStrings {
  subject: string;
  intro: string;
  deadline: string;
}

export const restStrings: Record<MailLocale, RestStrings> = {
  en: {
    subject: '{merchant} asks for the rest of your payment',
    intro:
      '{merchant} is still expecting the rest of your payment. Send exactly the amount still due to the same address by {deadline}.',
    deadline: 'Pay by',
  },
  de: {
    subject: '{merchant} bittet um den Rest Ihrer Zahlung',
    intro:
      '{merchant} erwartet noch den Rest Ihrer Zahlung. Senden Sie genau den offenen Betrag bis {deadline} an dieselbe Adresse.',
    deadline: 'Zahlbar bis',
  },
  fr: {
    subject: '{merchant} vous demande le reste de votre paiement',
    intro:
      '{merchant} attend encore le reste de votre paiement. Envoyez exactement le montant restant dû à la même adresse avant le {deadline}.',
    deadline: 'À payer avant le',
  },
  es: {
    subject: '{merchant} le pide el resto de su pago',
    intro:
      '{merchant} aún espera el resto de su pago. Envíe exactamente el importe pendiente a la misma dirección antes del {deadline}.',
    deadline: 'Pagar antes del',
  },
  it: {
    subject: '{merchant} ti chiede il resto del pagamento',
    intro:
      '{merchant} attende ancora il resto del tuo pagamento. Invia esattamente l’importo ancora dovuto allo stesso indirizzo entro il {deadline}.',
    deadline: 'Paga entro il',
  },
  pt: {
    subject: '{merchant} pede o resto do seu pagamento',
    intro:
      '{merchant} ainda aguarda o resto do seu pagamento. Envie exatamente o valor em falta para o mesmo endereço até {deadline}.',
    deadline: 'Pagar até',
  },
  nl: {
    subject: '{merchant} vraagt om de rest van uw betaling',
    intro:
      '{merchant} wacht nog op de rest van uw betaling. Stuur precies het openstaande bedrag naar hetzelfde adres vóór {deadline}.',
    deadline: 'Betalen vóór',
  },
  pl: {
    subject: '{merchant} prosi o resztę płatności',
    intro:
      '{merchant} wciąż czeka na resztę Twojej płatności. Wyślij dokładnie pozostałą kwotę na ten sam adres do {deadline}.',
    deadline: 'Zapłać do',
  },
  ja: {
    subject: '{merchant} から残額のお支払いのお願い',
    intro:
      '{merchant} はお支払いの残額をお待ちしています。{deadline} までに、未払いの金額ちょうどを同じアドレスへ送ってください。',
    deadline: 'お支払い期限',
  },
  zh: {
    subject: '{merchant} 请您支付剩余款项',
    intro: '{merchant} 仍在等待您的剩余付款。请在 {deadline} 之前将剩余的准确金额发送到同一地址。',
    deadline: '付款截止',
  },
};
