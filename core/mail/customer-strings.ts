/** The words of customer mails in the drop-in's 10 locales (widget/i18n.ts LOCALES); `{x}` is filled in. */
export const MAIL_LOCALES = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'pl', 'ja', 'zh'] as const;
export type MailLocale = (typeof MAIL_LOCALES)[number];

export interface CustomerStrings {
  receiptSubject: string;
  receiptIntro: string;
  underpaidSubject: string;
  underpaidIntro: string;
  underpaidAction: string;
  expiredSubject: string;
  expiredIntro: string;
  merchant: string;
  order: string;
  description: string;
  amount: string;
  paid: string;
  due: string;
  transaction: string;
  payment: string;
  footer: string;
  /** The refund claim link's mail (issue 30): the customer gives the address a refund goes to. */
  refundSubject: string;
  refundIntro: string;
  refundAction: string;
  network: string;
  validUntil: string;
}

export const customerStrings: Record<MailLocale, CustomerStrings> = {
  en: {
    receiptSubject: 'Your payment to {merchant} is complete',
    receiptIntro: 'Thank you: your payment was received and confirmed.',
    underpaidSubject: 'Your payment to {merchant} is not complete yet',
    underpaidIntro:
      'We received less than the amount due. Send the rest to the same address before the payment expires.',
    underpaidAction: 'Complete the payment',
    expiredSubject: 'Your payment to {merchant} expired before it was complete',
    expiredIntro:
      'The payment expired with part of the amount received. {merchant} has been told and will contact you about what you paid.',
    merchant: 'Merchant',
    order: 'Order',
    description: 'Description',
    amount: 'Amount',
    paid: 'Received',
    due: 'Still due',
    transaction: 'Transaction',
    payment: 'Payment',
    footer: 'Sent on behalf of {merchant} by its payments service.',
    refundSubject: '{merchant} is sending you a refund',
    refundIntro:
      '{merchant} is refunding your payment. Open the link to tell them the address to send it to. The link works once.',
    refundAction: 'Give your refund address',
    network: 'Network',
    validUntil: 'Link valid until',
  },
  de: {
    receiptSubject: 'Ihre Zahlung an {merchant} ist abgeschlossen',
    receiptIntro: 'Vielen Dank: Ihre Zahlung ist eingegangen und bestätigt.',
    underpaidSubject: 'Ihre Zahlung an {merchant} ist noch nicht vollständig',
    underpaidIntro:
      'Es ist weniger als der fällige Betrag eingegangen. Senden Sie den Rest an dieselbe Adresse, bevor die Zahlung abläuft.',
    underpaidAction: 'Zahlung abschließen',
    expiredSubject: 'Ihre Zahlung an {merchant} ist abgelaufen, bevor sie vollständig war',
    expiredIntro:
      'Die Zahlung ist mit einem Teilbetrag abgelaufen. {merchant} wurde informiert und meldet sich wegen des gezahlten Betrags.',
    merchant: 'Händler',
    order: 'Bestellung',
    description: 'Beschreibung',
    amount: 'Betrag',
    paid: 'Erhalten',
    due: 'Noch offen',
    transaction: 'Transaktion',
    payment: 'Zahlung',
    footer: 'Im Auftrag von {merchant} von dessen Zahlungsdienst gesendet.',
    refundSubject: '{merchant} erstattet Ihnen einen Betrag',
    refundIntro:
      '{merchant} erstattet Ihre Zahlung. Öffnen Sie den Link und geben Sie die Adresse an, an die der Betrag gesendet werden soll. Der Link ist nur einmal gültig.',
    refundAction: 'Erstattungsadresse angeben',
    network: 'Netzwerk',
    validUntil: 'Link gültig bis',
  },
  fr: {
    receiptSubject: 'Votre paiement à {merchant} est terminé',
    receiptIntro: 'Merci : votre paiement a été reçu et confirmé.',
    underpaidSubject: 'Votre paiement à {merchant} n’est pas encore complet',
    underpaidIntro:
      'Nous avons reçu moins que le montant dû. Envoyez le reste à la même adresse avant l’expiration du paiement.',
    underpaidAction: 'Terminer le paiement',
    expiredSubject: 'Votre paiement à {merchant} a expiré avant d’être complet',
    expiredIntro:
      'Le paiement a expiré avec une partie du montant reçue. {merchant} a été prévenu et vous contactera au sujet de ce que vous avez payé.',
    merchant: 'Marchand',
    order: 'Commande',
    description: 'Description',
    amount: 'Montant',
    paid: 'Reçu',
    due: 'Reste dû',
    transaction: 'Transaction',
    payment: 'Paiement',
    footer: 'Envoyé au nom de {merchant} par son service de paiement.',
    refundSubject: '{merchant} vous envoie un remboursement',
    refundIntro:
      '{merchant} rembourse votre paiement. Ouvrez le lien pour indiquer l’adresse à laquelle l’envoyer. Le lien ne fonctionne qu’une fois.',
    refundAction: 'Indiquer l’adresse de remboursement',
    network: 'Réseau',
    validUntil: 'Lien valable jusqu’au',
  },
  es: {
    receiptSubject: 'Su pago a {merchant} se ha completado',
    receiptIntro: 'Gracias: su pago se recibió y se confirmó.',
    underpaidSubject: 'Su pago a {merchant} aún no está completo',
    underpaidIntro:
      'Recibimos menos del importe debido. Envíe el resto a la misma dirección antes de que el pago caduque.',
    underpaidAction: 'Completar el pago',
    expiredSubject: 'Su pago a {merchant} caducó antes de completarse',
    expiredIntro:
      'El pago caducó con parte del importe recibido. Se ha avisado a {merchant}, que se pondrá en contacto con usted sobre lo pagado.',
    merchant: 'Comercio',
    order: 'Pedido',
    description: 'Descripción',
    amount: 'Importe',
    paid: 'Recibido',
    due: 'Pendiente',
    transaction: 'Transacción',
    payment: 'Pago',
    footer: 'Enviado en nombre de {merchant} por su servicio de pagos.',
    refundSubject: '{merchant} le envía un reembolso',
    refundIntro:
      '{merchant} le reembolsa su pago. Abra el enlace para indicar la dirección a la que enviarlo. El enlace funciona una sola vez.',
    refundAction: 'Indicar la dirección de reembolso',
    network: 'Red',
    validUntil: 'Enlace válido hasta',
  },
  it: {
    receiptSubject: 'Il tuo pagamento a {merchant} è completato',
    receiptIntro: 'Grazie: il tuo pagamento è stato ricevuto e confermato.',
    underpaidSubject: 'Il tuo pagamento a {merchant} non è ancora completo',
    underpaidIntro:
      'Abbiamo ricevuto meno dell’importo dovuto. Invia il resto allo stesso indirizzo prima che il pagamento scada.',
    underpaidAction: 'Completa il pagamento',
    expiredSubject: 'Il tuo pagamento a {merchant} è scaduto prima di essere completo',
    expiredIntro:
      'Il pagamento è scaduto con una parte dell’importo ricevuta. {merchant} è stato avvisato e ti contatterà per quanto hai pagato.',
    merchant: 'Esercente',
    order: 'Ordine',
    description: 'Descrizione',
    amount: 'Importo',
    paid: 'Ricevuto',
    due: 'Ancora dovuto',
    transaction: 'Transazione',
    payment: 'Pagamento',
    footer: 'Inviato per conto di {merchant} dal suo servizio di pagamento.',
    refundSubject: '{merchant} ti invia un rimborso',
    refundIntro:
      '{merchant} ti rimborsa il pagamento. Apri il link per indicare l’indirizzo a cui inviarlo. Il link funziona una sola volta.',
    refundAction: 'Indica l’indirizzo per il rimborso',
    network: 'Rete',
    validUntil: 'Link valido fino al',
  },
  pt: {
    receiptSubject: 'O seu pagamento a {merchant} está concluído',
    receiptIntro: 'Obrigado: o seu pagamento foi recebido e confirmado.',
    underpaidSubject: 'O seu pagamento a {merchant} ainda não está completo',
    underpaidIntro:
      'Recebemos menos do que o valor devido. Envie o restante para o mesmo endereço antes que o pagamento expire.',
    underpaidAction: 'Concluir o pagamento',
    expiredSubject: 'O seu pagamento a {merchant} expirou antes de estar completo',
    expiredIntro:
      'O pagamento expirou com parte do valor recebida. {merchant} foi avisado e entrará em contacto sobre o que pagou.',
    merchant: 'Comerciante',
    order: 'Encomenda',
    description: 'Descrição',
    amount: 'Valor',
    paid: 'Recebido',
    due: 'Em falta',
    transaction: 'Transação',
    payment: 'Pagamento',
    footer: 'Enviado em nome de {merchant} pelo seu serviço de pagamentos.',
    refundSubject: '{merchant} está a enviar-lhe um reembolso',
    refundIntro:
      '{merchant} está a reembolsar o seu pagamento. Abra o link para indicar o endereço para onde o enviar. O link funciona uma única vez.',
    refundAction: 'Indicar o endereço de reembolso',
    network: 'Rede',
    validUntil: 'Link válido até',
  },
  nl: {
    receiptSubject: 'Uw betaling aan {merchant} is voltooid',
    receiptIntro: 'Dank u: uw betaling is ontvangen en bevestigd.',
    underpaidSubject: 'Uw betaling aan {merchant} is nog niet compleet',
    underpaidIntro:
      'We hebben minder ontvangen dan het verschuldigde bedrag. Stuur de rest naar hetzelfde adres voordat de betaling verloopt.',
    underpaidAction: 'Betaling voltooien',
    expiredSubject: 'Uw betaling aan {merchant} is verlopen voordat ze compleet was',
    expiredIntro:
      'De betaling is verlopen met een deel van het bedrag ontvangen. {merchant} is op de hoogte en neemt contact met u op over wat u betaalde.',
    merchant: 'Verkoper',
    order: 'Bestelling',
    description: 'Omschrijving',
    amount: 'Bedrag',
    paid: 'Ontvangen',
    due: 'Nog te betalen',
    transaction: 'Transactie',
    payment: 'Betaling',
    footer: 'Namens {merchant} verstuurd door zijn betaaldienst.',
    refundSubject: '{merchant} stuurt u een terugbetaling',
    refundIntro:
      '{merchant} betaalt uw betaling terug. Open de link om het adres op te geven waarnaar het bedrag moet gaan. De link werkt één keer.',
    refundAction: 'Terugbetalingsadres opgeven',
    network: 'Netwerk',
    validUntil: 'Link geldig tot',
  },
  pl: {
    receiptSubject: 'Twoja płatność dla {merchant} została zakończona',
    receiptIntro: 'Dziękujemy: Twoja płatność została odebrana i potwierdzona.',
    underpaidSubject: 'Twoja płatność dla {merchant} nie jest jeszcze pełna',
    underpaidIntro: 'Otrzymaliśmy mniej niż należną kwotę. Wyślij resztę na ten sam adres, zanim płatność wygaśnie.',
    underpaidAction: 'Dokończ płatność',
    expiredSubject: 'Twoja płatność dla {merchant} wygasła przed ukończeniem',
    expiredIntro:
      'Płatność wygasła po otrzymaniu części kwoty. {merchant} został powiadomiony i skontaktuje się w sprawie wpłaconej kwoty.',
    merchant: 'Sprzedawca',
    order: 'Zamówienie',
    description: 'Opis',
    amount: 'Kwota',
    paid: 'Otrzymano',
    due: 'Pozostało do zapłaty',
    transaction: 'Transakcja',
    payment: 'Płatność',
    footer: 'Wysłane w imieniu {merchant} przez jego serwis płatności.',
    refundSubject: '{merchant} wysyła Ci zwrot',
    refundIntro:
      '{merchant} zwraca Twoją płatność. Otwórz link, aby podać adres, na który ma trafić zwrot. Link działa tylko raz.',
    refundAction: 'Podaj adres do zwrotu',
    network: 'Sieć',
    validUntil: 'Link ważny do',
  },
  ja: {
    receiptSubject: '{merchant} へのお支払いが完了しました',
    receiptIntro: 'ありがとうございます。お支払いを受領し、確認しました。',
    underpaidSubject: '{merchant} へのお支払いはまだ完了していません',
    underpaidIntro: '受領額が請求額に足りません。お支払いの期限までに、残額を同じアドレスへ送ってください。',
    underpaidAction: 'お支払いを完了する',
    expiredSubject: '{merchant} へのお支払いは完了前に期限切れになりました',
    expiredIntro:
      '一部の金額を受領した状態でお支払いの期限が切れました。{merchant} に通知済みで、お支払い済みの金額について連絡があります。',
    merchant: '加盟店',
    order: '注文',
    description: '説明',
    amount: '金額',
    paid: '受領額',
    due: '残額',
    transaction: 'トランザクション',
    payment: '支払い',
    footer: '{merchant} の決済サービスが代理で送信しました。',
    refundSubject: '{merchant} から返金があります',
    refundIntro:
      '{merchant} がお支払いを返金します。リンクを開いて、返金先のアドレスを入力してください。リンクは一度だけ使えます。',
    refundAction: '返金先アドレスを入力',
    network: 'ネットワーク',
    validUntil: 'リンクの有効期限',
  },
  zh: {
    receiptSubject: '您向 {merchant} 的付款已完成',
    receiptIntro: '谢谢：您的付款已收到并确认。',
    underpaidSubject: '您向 {merchant} 的付款尚未完成',
    underpaidIntro: '我们收到的金额少于应付金额。请在付款过期前将余额发送到同一地址。',
    underpaidAction: '完成付款',
    expiredSubject: '您向 {merchant} 的付款在完成前已过期',
    expiredIntro: '付款过期时只收到部分金额。已通知 {merchant}，其将就您已支付的金额与您联系。',
    merchant: '商家',
    order: '订单',
    description: '描述',
    amount: '金额',
    paid: '已收到',
    due: '尚需支付',
    transaction: '交易',
    payment: '付款',
    footer: '由 {merchant} 的支付服务代为发送。',
    refundSubject: '{merchant} 正在向您退款',
    refundIntro: '{merchant} 正在退还您的付款。请打开链接，填写接收退款的地址。该链接只能使用一次。',
    refundAction: '填写退款地址',
    network: '网络',
    validUntil: '链接有效期至',
  },
};

/** The first of the customer's languages (an Accept-Language header) that the mails speak, else English. */
export function pickMailLocale(acceptLanguage: string | undefined): MailLocale {
  for (const part of (acceptLanguage ?? '').split(',')) {
    const tag = part.split(';')[0]?.trim().toLowerCase().split('-')[0];
    if (tag && (MAIL_LOCALES as readonly string[]).includes(tag)) return tag as MailLocale;
  }
  return 'en';
}
