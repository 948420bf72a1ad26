/**
 * Texts of the hosted checkout page in Latvian, English and Russian: the payment frame's catalogs (card
 * fields, errors, status screens, the 3-D Secure step) and the few texts only this page needs.
 */
import {
  createTranslator,
  formatMessage,
  isLanguage,
  type Language,
  type MessageKey,
  type MessageParams,
} from '../../core/i18n.js';
import { TEST_MODE_NOTICE } from '../test-mode-notice.js';

/** Texts of the hosted page that the frame's catalogs do not have. */
interface PageMessages {
  /** `{merchant}`: the merchant's name. */
  readonly 'page.title': string;
  /** The form's title when it saves the card without a charge. `{merchant}`: the merchant's name. */
  readonly 'page.title.saving': string;
  readonly 'page.notFound.title': string;
  readonly 'page.notFound.text': string;
  readonly 'methods.legend': string;
  /** The group of the customer's saved cards (a Purchase with `client_id`). */
  readonly 'methods.saved': string;
  readonly 'methods.none': string;
  readonly 'methods.required': string;
  /** The disclosure of the methods the page did not open on. */
  readonly 'methods.other': string;
  readonly 'errors.title': string;
  /** Under a summary line of several units, whose amount is the line's total. `{count}`, `{price}`: one unit's. */
  readonly 'summary.unitPrice': string;
  readonly 'card.testOnly': string;
  /** `{method}`: the bank's or wallet's name. */
  readonly 'step.title': string;
  readonly 'step.explanation': string;
  /** The caption of a bulk payment's creditors on the bank step. */
  readonly 'step.creditors.bulk': string;
  /** The caption of a variable creditor on the bank step. */
  readonly 'step.creditors.variable': string;
  readonly 'step.creditors.name': string;
  readonly 'step.creditors.amount': string;
  readonly 'status.expired.title': string;
  /** The page of a Purchase past its strict deadline. `{time}`: the deadline, as the deadline note writes it. */
  readonly 'status.expired.text': string;
  /** `{amount}`. */
  readonly 'status.hold.text': string;
  /** A card saved without a charge. */
  readonly 'status.preauthorized.text': string;
  /** The submit button of a Purchase that saves the card without a charge. */
  readonly 'pay.saveCard': string;
  /** Beside that button: what saving the card does. */
  readonly 'pay.saveCardNote': string;
  /** The submit button of a `skip_capture` Purchase, which reserves the amount. `{amount}`. */
  readonly 'pay.hold': string;
  /** Beside that button: what a hold does. `{amount}`. */
  readonly 'pay.holdNote': string;
  /** The confirmation step's approve button of a `skip_capture` Purchase. */
  readonly 'threeDs.approveHold': string;
  /** Its decline button. */
  readonly 'threeDs.declineHold': string;
  /** The confirmation step's approve button of a Purchase that saves the card without a charge. */
  readonly 'threeDs.approveSave': string;
  /** Its decline button. */
  readonly 'threeDs.declineSave': string;
  /** The title of the page of a card saved without a charge. */
  readonly 'status.saved.title': string;
  /** The submit button of a bank or wallet, which leads to its step. `{method}`: its name. */
  readonly 'pay.continue': string;
  /** A `due_strict` Purchase's deadline. `{time}`: its clock time; `{left}`: the time left, as "in 14 minutes". */
  readonly 'due.note': string;
  /** The form sent after the deadline, shown again without the card number. `{time}`: the deadline. */
  readonly 'due.expired': string;
  readonly 'reason.bank_declined': string;
  readonly 'reason.wallet_declined': string;
}

const PAGE_MESSAGES: Readonly<Record<Language, PageMessages>> = {
  en: {
    'page.title': 'Payment to {merchant}',
    'page.title.saving': 'Save a card for {merchant}',
    'page.notFound.title': 'Payment not found',
    'page.notFound.text': 'There is no payment at this address. Go back to the shop and start again.',
    'methods.legend': 'Payment method',
    'methods.saved': 'Your saved cards',
    'methods.none': 'No payment method can pay this order.',
    'methods.required': 'Choose one of the payment methods offered.',
    'methods.other': 'Other ways to pay',
    'errors.title': 'Check the payment details',
    'summary.unitPrice': '{count} × {price} each',
    'card.testOnly': TEST_MODE_NOTICE.en,
    'step.title': '{method}: confirm the payment',
    'step.explanation':
      'This is a sandbox test step: no bank is involved and no money moves. Choose how it answers.',
    'step.creditors.bulk': 'With one confirmation you pay each of these recipients',
    'step.creditors.variable': 'You pay this recipient',
    'step.creditors.name': 'Recipient',
    'step.creditors.amount': 'Amount',
    'status.expired.title': 'Payment expired',
    'status.expired.text':
      'This order could be paid until {time}; nothing was charged. Go back to the shop to start again.',
    'status.hold.text': 'Thank you! {amount} has been reserved.',
    'status.preauthorized.text': 'Thank you! Your card has been saved; nothing was charged.',
    'pay.saveCard': 'Save card',
    'pay.saveCardNote': 'Your card will be saved for later payments to the shop; nothing is charged now.',
    'pay.hold': 'Hold {amount}',
    'pay.holdNote': '{amount} will be reserved, not charged. The shop charges it later or releases the hold.',
    'pay.continue': 'Continue to {method}',
    'threeDs.approveHold': 'Approve hold',
    'threeDs.declineHold': 'Decline hold',
    'threeDs.approveSave': 'Approve saving the card',
    'threeDs.declineSave': 'Decline saving the card',
    'status.saved.title': 'Card saved',
    'due.note': 'Pay by {time} ({left}). After that this payment can no longer be made.',
    'due.expired':
      'The time to pay this order ended at {time}; nothing was charged. Go back to the shop to start again. What you typed is kept below, except the card number and security code.',
    'reason.bank_declined': 'The bank did not confirm the payment.',
    'reason.wallet_declined': 'The wallet did not confirm the payment.',
  },
  lv: {
    'page.title': 'Maksājums: {merchant}',
    'page.title.saving': 'Kartes saglabāšana: {merchant}',
    'page.notFound.title': 'Maksājums nav atrasts',
    'page.notFound.text': 'Šajā adresē maksājuma nav. Atgriezieties veikalā un sāciet no jauna.',
    'methods.legend': 'Maksājuma veids',
    'methods.saved': 'Jūsu saglabātās kartes',
    'methods.none': 'Šo pasūtījumu nevar apmaksāt ne ar vienu maksājuma veidu.',
    'methods.required': 'Izvēlieties vienu no piedāvātajiem maksājuma veidiem.',
    'methods.other': 'Citi maksāšanas veidi',
    'errors.title': 'Pārbaudiet maksājuma datus',
    'summary.unitPrice': '{count} × {price} par vienību',
    'card.testOnly': TEST_MODE_NOTICE.lv,
    'step.title': '{method}: apstipriniet maksājumu',
    'step.explanation':
      'Šis ir smilškastes testa solis: banka nav iesaistīta, un nauda netiek pārskaitīta. Izvēlieties atbildi.',
    'step.creditors.bulk': 'Ar vienu apstiprinājumu jūs samaksājat katram no šiem saņēmējiem',
    'step.creditors.variable': 'Jūs maksājat šim saņēmējam',
    'step.creditors.name': 'Saņēmējs',
    'step.creditors.amount': 'Summa',
    'status.expired.title': 'Maksājuma termiņš beidzies',
    'status.expired.text':
      'Šo pasūtījumu varēja apmaksāt līdz {time}; nauda netika iekasēta. Atgriezieties veikalā un sāciet no jauna.',
    'status.hold.text': 'Paldies! {amount} ir rezervēti.',
    'status.preauthorized.text': 'Paldies! Jūsu karte ir saglabāta; nauda netika iekasēta.',
    'pay.saveCard': 'Saglabāt karti',
    'pay.saveCardNote':
      'Jūsu karte tiks saglabāta veikala turpmākajiem maksājumiem; tagad nauda netiks iekasēta.',
    'pay.hold': 'Rezervēt {amount}',
    'pay.holdNote':
      'Summa {amount} tiks rezervēta, taču netiks iekasēta. Veikals to iekasēs vēlāk vai atcels rezervāciju.',
    'pay.continue': 'Turpināt: {method}',
    'threeDs.approveHold': 'Apstiprināt rezervāciju',
    'threeDs.declineHold': 'Noraidīt rezervāciju',
    'threeDs.approveSave': 'Apstiprināt kartes saglabāšanu',
    'threeDs.declineSave': 'Noraidīt kartes saglabāšanu',
    'status.saved.title': 'Karte saglabāta',
    'due.note': 'Samaksājiet līdz {time} ({left}). Pēc tam šo maksājumu vairs nevarēs veikt.',
    'due.expired':
      'Šī pasūtījuma apmaksas termiņš beidzās {time}; nauda netika iekasēta. Atgriezieties veikalā un sāciet no jauna. Ievadītie dati ir saglabāti zemāk, izņemot kartes numuru un drošības kodu.',
    'reason.bank_declined': 'Banka neapstiprināja maksājumu.',
    'reason.wallet_declined': 'Maks neapstiprināja maksājumu.',
  },
  ru: {
    'page.title': 'Оплата: {merchant}',
    'page.title.saving': 'Сохранение карты: {merchant}',
    'page.notFound.title': 'Платёж не найден',
    'page.notFound.text': 'По этому адресу платежа нет. Вернитесь в магазин и начните заново.',
    'methods.legend': 'Способ оплаты',
    'methods.saved': 'Ваши сохранённые карты',
    'methods.none': 'Этот заказ нельзя оплатить ни одним способом оплаты.',
    'methods.required': 'Выберите один из предложенных способов оплаты.',
    'methods.other': 'Другие способы оплаты',
    'errors.title': 'Проверьте данные платежа',
    'summary.unitPrice': '{count} × {price} за единицу',
    'card.testOnly': TEST_MODE_NOTICE.ru,
    'step.title': '{method}: подтвердите платёж',
    'step.explanation':
      'Это тестовый шаг песочницы: банк не участвует, деньги не переводятся. Выберите ответ.',
    'step.creditors.bulk': 'Одним подтверждением вы платите каждому из этих получателей',
    'step.creditors.variable': 'Вы платите этому получателю',
    'step.creditors.name': 'Получатель',
    'step.creditors.amount': 'Сумма',
    'status.expired.title': 'Срок оплаты истёк',
    'status.expired.text':
      'Оплатить этот заказ можно было до {time}; деньги не списаны. Вернитесь в магазин и начните заново.',
    'status.hold.text': 'Спасибо! Сумма {amount} зарезервирована.',
    'status.preauthorized.text': 'Спасибо! Ваша карта сохранена; деньги не списаны.',
    'pay.saveCard': 'Сохранить карту',
    'pay.saveCardNote':
      'Ваша карта будет сохранена для последующих платежей магазину; сейчас деньги не списываются.',
    'pay.hold': 'Зарезервировать {amount}',
    'pay.holdNote':
      'Сумма {amount} будет зарезервирована, но не списана. Магазин спишет её позже или снимет резерв.',
    'pay.continue': 'Продолжить: {method}',
    'threeDs.approveHold': 'Подтвердить резервирование',
    'threeDs.declineHold': 'Отклонить резервирование',
    'threeDs.approveSave': 'Подтвердить сохранение карты',
    'threeDs.declineSave': 'Отклонить сохранение карты',
    'status.saved.title': 'Карта сохранена',
    'due.note': 'Оплатите до {time} ({left}). После этого оплатить заказ будет нельзя.',
    'due.expired':
      'Срок оплаты этого заказа истёк в {time}; деньги не списаны. Вернитесь в магазин и начните заново. Введённые данные сохранены ниже, кроме номера карты и кода безопасности.',
    'reason.bank_declined': 'Банк не подтвердил платёж.',
    'reason.wallet_declined': 'Кошелёк не подтвердил платёж.',
  },
};

/** The key of any text the hosted page shows. */
export type PageTextKey = MessageKey | keyof PageMessages;

/** A text to show, not yet in a language. */
export interface PageText {
  key: PageTextKey;
  params?: MessageParams;
}

/** Looks up one text of the hosted page. */
export type PageTranslate = (key: PageTextKey, params?: MessageParams) => string;

/** The language of a purchase's `purchase.language`: one the page speaks, else English. */
export function pageLanguage(code: string): Language {
  return isLanguage(code) ? code : 'en';
}

export function pageTranslator(language: Language): PageTranslate {
  const frame = createTranslator(language);
  const own = PAGE_MESSAGES[language];
  return (key, params) =>
    Object.hasOwn(own, key)
      ? formatMessage(own[key as keyof PageMessages], params)
      : frame(key as MessageKey, params);
}
