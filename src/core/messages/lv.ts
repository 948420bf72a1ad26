/**
 * Latvian texts. Addressed to the customer with the polite plural (`ievadiet`, `pārbaudiet`), as Latvian
 * shops and banks do.
 */
import type { ElementMessages, FrameMessages } from '../i18n.js';

/** Latvian texts the element shows itself, with or without the frame. */
export const lvElement: ElementMessages = {
  'frame.title': 'Droša maksājuma forma',
  'loading.text': 'Ielādē maksājuma formu…',

  'error.title': 'Maksājums nav pieejams',
  'error.unavailable': 'Veikals šobrīd nevar pieņemt maksājumus. Lūdzu, mēģiniet vēlreiz vēlāk.',
  'error.orderRejected': 'Veikals neapstiprināja šo pasūtījumu, tāpēc maksājumu nevar sākt.',
  'error.gatewayUnreachable':
    'Neizdodas sazināties ar maksājumu pakalpojumu. Pārbaudiet interneta savienojumu un mēģiniet vēlreiz.',
  'error.frameTimeout':
    'Maksājuma forma ielādējas pārāk ilgi. Pārbaudiet interneta savienojumu un mēģiniet vēlreiz.',
  'error.generic': 'Radās kļūda. Lūdzu, mēģiniet vēlreiz vēlāk.',
  'error.retry': 'Mēģināt vēlreiz',
};

/** Latvian texts of the payment frame. */
export const lvFrame: FrameMessages = {
  'card.title': 'Kartes dati',
  'card.number.label': 'Kartes numurs',
  'card.number.placeholder': '1234 1234 1234 1234',
  'card.number.accepted': 'Pieņemtās kartes: {accepted}',
  'card.expiry.label': 'Derīguma termiņš',
  'card.expiry.placeholder': 'MM/GG',
  'card.expiry.hint': 'Mēnesis un gads, kā norādīts uz kartes',
  'card.cvc.label': 'Drošības kods (CVC)',
  'card.cvc.placeholder': '123',
  'card.cvc.compactPlaceholder': 'CVC',
  'card.cvc.hint': 'Pēdējie 3 cipari kartes aizmugurē (American Express kartēm — 4 cipari priekšpusē)',
  'card.holder.label': 'Vārds un uzvārds uz kartes',
  'card.holder.placeholder': 'Kā norādīts uz kartes',
  'card.holder.error.empty': 'Ievadiet vārdu un uzvārdu, kā norādīts uz kartes.',
  'card.scheme.detected': 'Kartes veids: {scheme}',

  'card.number.error.empty': 'Ievadiet kartes numuru.',
  'card.number.error.not_digits': 'Kartes numurā drīkst būt tikai cipari.',
  'card.number.error.wrong_length': 'Kartes numurs ir nepilnīgs vai pārāk garš; pārbaudiet to.',
  'card.number.error.luhn_failed': 'Šis kartes numurs nav derīgs; pārbaudiet, vai nav drukas kļūdu.',
  'card.number.error.scheme_not_accepted':
    'Šāda veida karte šeit netiek pieņemta. Pieņemtās kartes: {accepted}.',
  'card.expiry.error.empty': 'Ievadiet derīguma termiņu (MM/GG).',
  'card.expiry.error.malformed': 'Ierakstiet derīguma termiņu tāpat kā uz kartes, MM/GG, piemēram, 04/29.',
  'card.expiry.error.bad_month': 'Mēnesim jābūt no 01 līdz 12.',
  'card.expiry.error.expired':
    'Šīs kartes derīguma termiņš ir beidzies; pārbaudiet datumu vai izmantojiet citu karti.',
  'card.expiry.error.too_far': 'Derīguma termiņš ir pārāk tālu nākotnē; pārbaudiet gadu.',
  'card.cvc.error.empty': 'Ievadiet drošības kodu (CVC).',
  'card.cvc.error.not_digits': 'Drošības kodā drīkst būt tikai cipari.',
  'card.cvc.error.wrong_length': 'Drošības kodā ir {length} cipari.',
  'card.constraint.paymentScheme': 'Šim pasūtījumam der tikai {expected} kartes.',
  'card.constraint.brand': 'Šim pasūtījumam der tikai {expected} kartes.',
  'card.constraint.issuer': 'Šim pasūtījumam der tikai kartes, kuru izdevējs ir {expected}.',

  'scheme.VISA': 'Visa',
  'scheme.MASTERCARD': 'Mastercard',
  'scheme.AMEX': 'American Express',
  'scheme.MAESTRO': 'Maestro',
  'scheme.UNKNOWN': 'Nezināma karte',

  'pay.button': 'Maksāt {amount}',
  'pay.chooseShipping': 'Izvēlieties piegādes veidu, lai maksātu',
  'pay.priceShipping': 'Maksājiet, kad piegāde ir aprēķināta',
  'pay.processing': 'Maksājums tiek apstrādāts…',
  'pay.cancel': 'Atcelt maksājumu',
  'pay.secureNote': 'Kartes dati tiek nosūtīti tieši maksājumu pakalpojumam; veikals tos neredz.',
  'pay.error': 'Radās kļūda. Lūdzu, mēģiniet vēlreiz vēlāk.',

  'summary.title': 'Pasūtījuma kopsavilkums',
  'summary.orderId': 'Pasūtījums {orderId}',
  'summary.items': 'Preces',
  'summary.line': '{quantity} pa {price}',
  'summary.taxIncluded': 'Tai skaitā PVN {tax}',
  'summary.shipping': 'Piegāde',
  'summary.total': 'Kopā',
  'summary.loading': 'Ielādē pasūtījumu…',

  'unit.PIECE': '{count} gab.',
  'unit.KILOGRAM': '{count} kg',
  'unit.METER': '{count} m',
  'unit.LITRE': '{count} l',
  'unit.HOUR': '{count} h',

  'customer.title': 'Kontaktinformācija',
  'customer.firstName': 'Vārds',
  'customer.lastName': 'Uzvārds',
  'customer.email': 'E-pasts',
  'customer.phone': 'Tālrunis',
  'customer.email.invalid': 'Ievadiet derīgu e-pasta adresi, piemēram, vards@piemers.lv.',
  'customer.phone.invalid': 'Ievadiet derīgu tālruņa numuru, piemēram, +371 20000000.',
  'field.required': 'Šis lauks ir obligāts.',
  'field.optional': 'nav obligāts',

  'delivery.title': 'Piegāde',
  'delivery.method': 'Piegādes veids',
  'delivery.chooseOption': 'Izvēlieties piegādes veidu.',
  'delivery.address': 'Adrese',
  'delivery.city': 'Pilsēta',
  'delivery.postalCode': 'Pasta indekss',
  'delivery.country': 'Valsts',
  'delivery.pickupPoint': 'Saņemšanas punkts',
  'delivery.choosePickupPoint': 'Izvēlieties saņemšanas punktu.',
  'delivery.serviceHours': 'Darba laiks: {hours}',
  'delivery.priceOnRequest': 'Cena tiks aprēķināta pēc adreses ievadīšanas',
  'delivery.priceOnPickupPoint': 'Cena tiks aprēķināta pēc saņemšanas punkta izvēles',
  'delivery.priceOnChoice': 'Cena tiks aprēķināta pēc izvēles',
  'delivery.calculating': 'Aprēķina piegādes cenu…',
  'delivery.free': 'Bez maksas',
  'delivery.quoteFailed': 'Piegādes cenu neizdevās aprēķināt. Izvēlieties citu veidu vai mainiet datus.',

  'terms.link': 'Pirkuma noteikumi',
  'terms.newTab': '(atveras jaunā cilnē)',
  'terms.agree': 'Piekrītu pirkuma noteikumiem',
  'terms.required': 'Lai turpinātu, piekrītiet pirkuma noteikumiem.',

  'threeDs.title': '3-D Secure pārbaude',
  'threeDs.sandboxExplanation':
    'Šī ir smilškastes testa pārbaude: banka netiek iesaistīta, un nauda netiek pārskaitīta. Izvēlieties, kā atbildēs kartes izdevējs.',
  'threeDs.merchant': 'Tirgotājs',
  'threeDs.approve': 'Apstiprināt maksājumu',
  'threeDs.deny': 'Noraidīt maksājumu',
  'threeDs.waiting': 'Gaida kartes izdevēja atbildi…',

  'status.paid.title': 'Maksājums veiksmīgi veikts',
  'status.paid.text': 'Paldies! Jūsu maksājums {amount} apmērā ir saņemts.',
  'status.failed.title': 'Maksājums neizdevās',
  'status.failed.text': 'Maksājums netika veikts. {reason}',
  'status.failed.reason.card_declined':
    'Karte tika noraidīta; izmantojiet citu karti vai sazinieties ar savu banku.',
  'status.failed.reason.insufficient_funds': 'Kartē nepietiek līdzekļu.',
  'status.failed.reason.processing_error': 'Maksājumu neizdevās apstrādāt; lūdzu, mēģiniet vēlreiz.',
  'status.failed.reason.authentication_failed': 'Kartes izdevējs neapstiprināja maksājumu.',
  'status.failed.reason.order_already_paid':
    'Šis pasūtījums jau ir apmaksāts citā logā; nekas vairāk netika iekasēts.',
  'status.failed.reason.unknown': 'Iemesls netika norādīts.',
  'status.cancelled.title': 'Maksājums atcelts',
  'status.cancelled.text': 'Maksājums tika atcelts; nauda netika iekasēta.',
  'status.orderClosed': 'Šo pasūtījumu vairs nevar apmaksāt.',
  'status.backToMerchant': 'Atpakaļ uz veikalu',
  'status.tryAnotherCard': 'Mēģināt ar citu karti',
  'status.networkError':
    'Savienojums ar maksājumu pakalpojumu tika pārtraukts. Mēģiniet vēlreiz, lai pārbaudītu, vai maksājums ir veikts.',
  'status.retry': 'Atkārtot',
  'status.checking': 'Pārbauda pasūtījuma statusu…',

  'status.rejected.title': 'Veikals nepieņēma šo pasūtījumu',
  'rejected.PRICE_CHANGED': 'Cena ir mainījusies. Atgriezieties veikalā, lai redzētu pašreizējo cenu.',
  'rejected.PRODUCT_NOT_AVAILABLE':
    'Kāda pasūtījuma prece vairs nav pieejama. Atgriezieties veikalā, lai mainītu pasūtījumu.',
  'rejected.RESERVATION_EXPIRED':
    'Pasūtījuma rezervācijas laiks ir beidzies. Atgriezieties veikalā un noformējiet pasūtījumu vēlreiz.',
  'rejected.DELIVERY_ADDRESS_NOT_SUPPORTED':
    'Veikals uz šo adresi nepiegādā. Atgriezieties veikalā, lai izvēlētos citu piegādi.',
  'rejected.MERCHANT_RISK_TOO_HIGH': 'Veikals nevar pieņemt šo pasūtījumu. Lūdzu, sazinieties ar veikalu.',
  'rejected.MERCHANT_MISCONFIGURATION':
    'Veikals iestatījumu kļūdas dēļ šobrīd nevar pieņemt maksājumus. Lūdzu, mēģiniet vēlāk vai sazinieties ar veikalu.',
  'rejected.MERCHANT_NOT_AVAILABLE': 'Veikals šobrīd nevar pieņemt pasūtījumus. Lūdzu, mēģiniet vēlāk.',
  'rejected.OTHER':
    'Veikals neapstiprināja šo pasūtījumu, tāpēc to nevar apmaksāt. Ja nepieciešama palīdzība, sazinieties ar veikalu.',
};
