import type { MailLocale } from '../core/mail/customer-strings.js';

/**
 * The refund claim page's words in the drop-in's 10 locales (core/mail/customer-strings.ts MAIL_LOCALES, the locales
 * of the mail that brings the link); `{merchant}`, `{asset}` and `{network}` are filled in, and escaped, by the page.
 */
export interface ClaimPageStrings {
  title: string;
  intro: string;
  amount: string;
  network: string;
  address: string;
  hint: string;
  submit: string;
  done: string;
  used: string;
  expired: string;
  closed: string;
  badAddress: string;
  notFoundTitle: string;
  notFound: string;
}

export const claimPageStrings: Record<MailLocale, ClaimPageStrings> = {
  en: {
    title: 'Refund from {merchant}',
    intro: '{merchant} is sending you this refund. Give the address to send it to.',
    amount: 'Amount',
    network: 'Network',
    address: 'Your {asset} address on {network}',
    hint: 'Check it carefully: the refund goes to exactly this address. You can send it once.',
    submit: 'Send the address',
    done: 'Thank you. {merchant} will check the address and send the refund to it.',
    used: 'This link was already used. To change the address, contact {merchant}.',
    expired: 'This link has expired. Ask {merchant} for a new one.',
    closed: 'This refund no longer takes an address. Contact {merchant} if you have questions.',
    badAddress: 'This is not a valid {asset} address on {network}. Check it and try again.',
    notFoundTitle: 'Refund link not found',
    notFound: 'This refund link is incomplete or invalid. Please use the exact link you were given.',
  },
  de: {
    title: 'Erstattung von {merchant}',
    intro: '{merchant} sendet Ihnen diese Erstattung. Geben Sie die Adresse an, an die sie gehen soll.',
    amount: 'Betrag',
    network: 'Netzwerk',
    address: 'Ihre {asset}-Adresse im Netzwerk {network}',
    hint: 'Prüfen Sie sie sorgfältig: Die Erstattung geht genau an diese Adresse. Sie können sie nur einmal senden.',
    submit: 'Adresse senden',
    done: 'Vielen Dank. {merchant} prüft die Adresse und sendet die Erstattung dorthin.',
    used: 'Dieser Link wurde bereits verwendet. Wenden Sie sich an {merchant}, um die Adresse zu ändern.',
    expired: 'Dieser Link ist abgelaufen. Bitten Sie {merchant} um einen neuen.',
    closed: 'Diese Erstattung nimmt keine Adresse mehr an. Wenden Sie sich bei Fragen an {merchant}.',
    badAddress:
      'Dies ist keine gültige {asset}-Adresse im Netzwerk {network}. Prüfen Sie sie und versuchen Sie es erneut.',
    notFoundTitle: 'Erstattungslink nicht gefunden',
    notFound:
      'Dieser Erstattungslink ist unvollständig oder ungültig. Verwenden Sie genau den Link, den Sie erhalten haben.',
  },
  fr: {
    title: 'Remboursement de {merchant}',
    intro: '{merchant} vous envoie ce remboursement. Indiquez l’adresse à laquelle l’envoyer.',
    amount: 'Montant',
    network: 'Réseau',
    address: 'Votre adresse {asset} sur {network}',
    hint: 'Vérifiez-la bien : le remboursement part exactement à cette adresse. Vous ne pouvez l’envoyer qu’une fois.',
    submit: 'Envoyer l’adresse',
    done: 'Merci. {merchant} va vérifier l’adresse et y envoyer le remboursement.',
    used: 'Ce lien a déjà été utilisé. Pour changer l’adresse, contactez {merchant}.',
    expired: 'Ce lien a expiré. Demandez-en un nouveau à {merchant}.',
    closed: 'Ce remboursement ne prend plus d’adresse. Contactez {merchant} pour toute question.',
    badAddress: 'Ce n’est pas une adresse {asset} valide sur {network}. Vérifiez-la et réessayez.',
    notFoundTitle: 'Lien de remboursement introuvable',
    notFound: 'Ce lien de remboursement est incomplet ou invalide. Utilisez exactement le lien reçu.',
  },
  es: {
    title: 'Reembolso de {merchant}',
    intro: '{merchant} le envía este reembolso. Indique la dirección a la que enviarlo.',
    amount: 'Importe',
    network: 'Red',
    address: 'Su dirección de {asset} en {network}',
    hint: 'Revísela con cuidado: el reembolso se envía exactamente a esta dirección. Solo puede enviarla una vez.',
    submit: 'Enviar la dirección',
    done: 'Gracias. {merchant} comprobará la dirección y enviará el reembolso a ella.',
    used: 'Este enlace ya se usó. Para cambiar la dirección, contacte con {merchant}.',
    expired: 'Este enlace ha caducado. Pida uno nuevo a {merchant}.',
    closed: 'Este reembolso ya no admite una dirección. Contacte con {merchant} si tiene preguntas.',
    badAddress: 'No es una dirección de {asset} válida en {network}. Revísela e inténtelo de nuevo.',
    notFoundTitle: 'Enlace de reembolso no encontrado',
    notFound: 'Este enlace de reembolso está incompleto o no es válido. Use exactamente el enlace que recibió.',
  },
  it: {
    title: 'Rimborso da {merchant}',
    intro: '{merchant} ti invia questo rimborso. Indica l’indirizzo a cui inviarlo.',
    amount: 'Importo',
    network: 'Rete',
    address: 'Il tuo indirizzo {asset} su {network}',
    hint: 'Controllalo con attenzione: il rimborso va esattamente a questo indirizzo. Puoi inviarlo una sola volta.',
    submit: 'Invia l’indirizzo',
    done: 'Grazie. {merchant} controllerà l’indirizzo e vi invierà il rimborso.',
    used: 'Questo link è già stato usato. Per cambiare l’indirizzo, contatta {merchant}.',
    expired: 'Questo link è scaduto. Chiedine uno nuovo a {merchant}.',
    closed: 'Questo rimborso non accetta più un indirizzo. Contatta {merchant} per domande.',
    badAddress: 'Non è un indirizzo {asset} valido su {network}. Controllalo e riprova.',
    notFoundTitle: 'Link di rimborso non trovato',
    notFound: 'Questo link di rimborso è incompleto o non valido. Usa esattamente il link ricevuto.',
  },
  pt: {
    title: 'Reembolso de {merchant}',
    intro: '{merchant} está a enviar-lhe este reembolso. Indique o endereço para onde o enviar.',
    amount: 'Montante',
    network: 'Rede',
    address: 'O seu endereço {asset} em {network}',
    hint: 'Verifique-o com cuidado: o reembolso vai exatamente para este endereço. Só o pode enviar uma vez.',
    submit: 'Enviar o endereço',
    done: 'Obrigado. {merchant} vai verificar o endereço e enviar o reembolso para ele.',
    used: 'Este link já foi usado. Para alterar o endereço, contacte {merchant}.',
    expired: 'Este link expirou. Peça um novo a {merchant}.',
    closed: 'Este reembolso já não aceita um endereço. Contacte {merchant} se tiver dúvidas.',
    badAddress: 'Não é um endereço {asset} válido em {network}. Verifique-o e tente novamente.',
    notFoundTitle: 'Link de reembolso não encontrado',
    notFound: 'Este link de reembolso está incompleto ou é inválido. Use exatamente o link que recebeu.',
  },
  nl: {
    title: 'Terugbetaling van {merchant}',
    intro: '{merchant} stuurt u deze terugbetaling. Geef het adres op waarnaar die moet gaan.',
    amount: 'Bedrag',
    network: 'Netwerk',
    address: 'Uw {asset}-adres op {network}',
    hint: 'Controleer het goed: de terugbetaling gaat precies naar dit adres. U kunt het één keer versturen.',
    submit: 'Adres versturen',
    done: 'Bedankt. {merchant} controleert het adres en stuurt de terugbetaling ernaartoe.',
    used: 'Deze link is al gebruikt. Neem contact op met {merchant} om het adres te wijzigen.',
    expired: 'Deze link is verlopen. Vraag {merchant} om een nieuwe.',
    closed: 'Deze terugbetaling neemt geen adres meer aan. Neem contact op met {merchant} als u vragen hebt.',
    badAddress: 'Dit is geen geldig {asset}-adres op {network}. Controleer het en probeer het opnieuw.',
    notFoundTitle: 'Terugbetalingslink niet gevonden',
    notFound: 'Deze terugbetalingslink is onvolledig of ongeldig. Gebruik precies de link die u kreeg.',
  },
  pl: {
    title: 'Zwrot od {merchant}',
    intro: '{merchant} wysyła Ci ten zwrot. Podaj adres, na który ma trafić.',
    amount: 'Kwota',
    network: 'Sieć',
    address: 'Twój adres {asset} w sieci {network}',
    hint: 'Sprawdź go uważnie: zwrot trafi dokładnie na ten adres. Możesz go wysłać tylko raz.',
    submit: 'Wyślij adres',
    done: 'Dziękujemy. {merchant} sprawdzi adres i wyśle na niego zwrot.',
    used: 'Ten link został już użyty. Aby zmienić adres, skontaktuj się z {merchant}.',
    expired: 'Ten link wygasł. Poproś {merchant} o nowy.',
    closed: 'Ten zwrot nie przyjmuje już adresu. W razie pytań skontaktuj się z {merchant}.',
    badAddress: 'To nie jest prawidłowy adres {asset} w sieci {network}. Sprawdź go i spróbuj ponownie.',
    notFoundTitle: 'Nie znaleziono linku do zwrotu',
    notFound: 'Ten link do zwrotu jest niepełny lub nieprawidłowy. Użyj dokładnie otrzymanego linku.',
  },
  ja: {
    title: '{merchant} からの返金',
    intro: '{merchant} がこの返金を送ります。送金先のアドレスを入力してください。',
    amount: '金額',
    network: 'ネットワーク',
    address: '{network} 上のあなたの {asset} アドレス',
    hint: 'よく確認してください。返金はこのアドレスにそのまま送られます。送信は一度だけです。',
    submit: 'アドレスを送信',
    done: 'ありがとうございます。{merchant} がアドレスを確認し、返金を送ります。',
    used: 'このリンクはすでに使用されています。アドレスを変更するには {merchant} に連絡してください。',
    expired: 'このリンクは期限切れです。{merchant} に新しいリンクを依頼してください。',
    closed: 'この返金ではアドレスを受け付けていません。ご質問は {merchant} までお問い合わせください。',
    badAddress: '{network} 上の有効な {asset} アドレスではありません。確認してもう一度お試しください。',
    notFoundTitle: '返金リンクが見つかりません',
    notFound: 'この返金リンクは不完全または無効です。受け取ったリンクをそのままお使いください。',
  },
  zh: {
    title: '来自 {merchant} 的退款',
    intro: '{merchant} 正在向您发送这笔退款。请填写接收地址。',
    amount: '金额',
    network: '网络',
    address: '您在 {network} 上的 {asset} 地址',
    hint: '请仔细核对：退款将准确发送到此地址。只能提交一次。',
    submit: '提交地址',
    done: '谢谢。{merchant} 将核对地址并向其发送退款。',
    used: '此链接已被使用。如需更改地址，请联系 {merchant}。',
    expired: '此链接已过期。请向 {merchant} 索取新链接。',
    closed: '此退款不再接受地址。如有疑问，请联系 {merchant}。',
    badAddress: '这不是 {network} 上有效的 {asset} 地址。请核对后重试。',
    notFoundTitle: '未找到退款链接',
    notFound: '此退款链接不完整或无效。请使用您收到的完整链接。',
  },
};
