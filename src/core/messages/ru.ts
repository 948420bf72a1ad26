/**
 * Russian texts. Addressed to the customer with the polite `вы`; phrased so that any number fits without
 * plural forms (`из {length} цифр` reads right for 3 and for 4), and written with `ё` throughout.
 */
import type { ElementMessages, FrameMessages } from '../i18n.js';

/** Russian texts the element shows itself, with or without the frame. */
export const ruElement: ElementMessages = {
  'frame.title': 'Защищённая форма оплаты',
  'loading.text': 'Загрузка формы оплаты…',

  'error.title': 'Оплата недоступна',
  'error.unavailable': 'Магазин сейчас не может принимать оплату. Пожалуйста, повторите попытку позже.',
  'error.orderRejected': 'Магазин не подтвердил этот заказ, поэтому оплату невозможно начать.',
  'error.gatewayUnreachable':
    'Платёжный сервис недоступен. Проверьте подключение к интернету и повторите попытку.',
  'error.frameTimeout':
    'Форма оплаты загружается слишком долго. Проверьте подключение к интернету и повторите попытку.',
  'error.generic': 'Что-то пошло не так. Пожалуйста, повторите попытку позже.',
  'error.retry': 'Повторить попытку',
};

/** Russian texts of the payment frame. */
export const ruFrame: FrameMessages = {
  'card.title': 'Данные карты',
  'card.number.label': 'Номер карты',
  'card.number.placeholder': '1234 1234 1234 1234',
  'card.number.accepted': 'Принимаются карты: {accepted}',
  'card.expiry.label': 'Срок действия',
  'card.expiry.placeholder': 'ММ/ГГ',
  'card.expiry.hint': 'Месяц и год, как указано на карте',
  'card.cvc.label': 'Код безопасности (CVC)',
  'card.cvc.placeholder': '123',
  'card.cvc.compactPlaceholder': 'CVC',
  'card.cvc.hint': 'Последние 3 цифры на обороте карты (для American Express — 4 цифры на лицевой стороне)',
  'card.holder.label': 'Имя владельца карты',
  'card.holder.placeholder': 'Как указано на карте',
  'card.holder.error.empty': 'Введите имя владельца, как указано на карте.',
  'card.scheme.detected': 'Тип карты: {scheme}',

  'card.number.error.empty': 'Введите номер карты.',
  'card.number.error.not_digits': 'Номер карты может содержать только цифры.',
  'card.number.error.wrong_length': 'Номер карты неполный или слишком длинный; проверьте его.',
  'card.number.error.luhn_failed': 'Этот номер карты недействителен; проверьте, нет ли опечаток.',
  'card.number.error.scheme_not_accepted': 'Карты этого типа здесь не принимаются. Принимаются: {accepted}.',
  'card.expiry.error.empty': 'Введите срок действия (ММ/ГГ).',
  'card.expiry.error.malformed': 'Введите срок действия в формате ММ/ГГ, как на карте, например 04/29.',
  'card.expiry.error.bad_month': 'Месяц должен быть от 01 до 12.',
  'card.expiry.error.expired': 'Срок действия карты истёк; проверьте дату или используйте другую карту.',
  'card.expiry.error.too_far': 'Срок действия указан слишком далеко в будущем; проверьте год.',
  'card.cvc.error.empty': 'Введите код безопасности (CVC).',
  'card.cvc.error.not_digits': 'Код безопасности может содержать только цифры.',
  'card.cvc.error.wrong_length': 'Код безопасности состоит из {length} цифр.',
  'card.constraint.paymentScheme': 'Для этого заказа принимаются только карты {expected}.',
  'card.constraint.brand': 'Для этого заказа принимаются только карты {expected}.',
  'card.constraint.issuer': 'Для этого заказа принимаются только карты, эмитент которых — {expected}.',

  'scheme.VISA': 'Visa',
  'scheme.MASTERCARD': 'Mastercard',
  'scheme.AMEX': 'American Express',
  'scheme.MAESTRO': 'Maestro',
  'scheme.UNKNOWN': 'Неизвестная карта',

  'pay.button': 'Оплатить {amount}',
  'pay.chooseShipping': 'Выберите способ доставки, чтобы оплатить',
  'pay.priceShipping': 'Оплата после расчёта доставки',
  'pay.processing': 'Платёж обрабатывается…',
  'pay.cancel': 'Отменить оплату',
  'pay.secureNote': 'Данные карты передаются напрямую платёжному сервису; магазин их не видит.',
  'pay.error': 'Что-то пошло не так. Пожалуйста, повторите попытку позже.',

  'summary.title': 'Состав заказа',
  'summary.orderId': 'Заказ {orderId}',
  'summary.items': 'Товары',
  'summary.line': '{quantity} по {price}',
  'summary.taxIncluded': 'В том числе НДС {tax}',
  'summary.shipping': 'Доставка',
  'summary.total': 'Итого',
  'summary.loading': 'Загружаем заказ…',

  'unit.PIECE': '{count} шт.',
  'unit.KILOGRAM': '{count} кг',
  'unit.METER': '{count} м',
  'unit.LITRE': '{count} л',
  'unit.HOUR': '{count} ч',

  'customer.title': 'Контактные данные',
  'customer.firstName': 'Имя',
  'customer.lastName': 'Фамилия',
  'customer.email': 'Электронная почта',
  'customer.phone': 'Телефон',
  'customer.email.invalid': 'Введите корректный адрес электронной почты, например name@example.com.',
  'customer.phone.invalid': 'Введите корректный номер телефона, например +371 20000000.',
  'field.required': 'Это поле обязательно для заполнения.',
  'field.optional': 'необязательно',

  'delivery.title': 'Доставка',
  'delivery.method': 'Способ доставки',
  'delivery.chooseOption': 'Выберите способ доставки.',
  'delivery.address': 'Адрес',
  'delivery.city': 'Город',
  'delivery.postalCode': 'Почтовый индекс',
  'delivery.country': 'Страна',
  'delivery.pickupPoint': 'Пункт выдачи',
  'delivery.choosePickupPoint': 'Выберите пункт выдачи.',
  'delivery.serviceHours': 'Часы работы: {hours}',
  'delivery.priceOnRequest': 'Стоимость будет рассчитана после ввода адреса',
  'delivery.priceOnPickupPoint': 'Стоимость будет рассчитана после выбора пункта выдачи',
  'delivery.priceOnChoice': 'Стоимость будет рассчитана после выбора',
  'delivery.calculating': 'Расчёт стоимости доставки…',
  'delivery.free': 'Бесплатно',
  'delivery.quoteFailed':
    'Не удалось рассчитать стоимость доставки. Выберите другой способ или измените данные.',

  'terms.link': 'Условия покупки',
  'terms.newTab': '(откроется в новой вкладке)',
  'terms.agree': 'Я принимаю условия покупки',
  'terms.required': 'Чтобы продолжить, примите условия покупки.',

  'threeDs.title': 'Проверка 3-D Secure',
  'threeDs.sandboxExplanation':
    'Это тестовая проверка в песочнице: банк не участвует, деньги не списываются. Выберите, как ответит эмитент карты.',
  'threeDs.merchant': 'Продавец',
  'threeDs.approve': 'Подтвердить платёж',
  'threeDs.deny': 'Отклонить платёж',
  'threeDs.waiting': 'Ожидание ответа эмитента карты…',

  'status.paid.title': 'Оплата прошла успешно',
  'status.paid.text': 'Спасибо! Ваш платёж на сумму {amount} получен.',
  'status.failed.title': 'Платёж не прошёл',
  'status.failed.text': 'Платёж не выполнен. {reason}',
  'status.failed.reason.card_declined':
    'Карта отклонена; используйте другую карту или обратитесь в свой банк.',
  'status.failed.reason.insufficient_funds': 'На карте недостаточно средств.',
  'status.failed.reason.processing_error': 'Не удалось обработать платёж; пожалуйста, повторите попытку.',
  'status.failed.reason.authentication_failed': 'Эмитент карты не подтвердил платёж.',
  'status.failed.reason.order_already_paid':
    'Этот заказ уже оплачен в другом окне; больше ничего не списано.',
  'status.failed.reason.unknown': 'Причина не указана.',
  'status.cancelled.title': 'Оплата отменена',
  'status.cancelled.text': 'Оплата отменена, деньги не списаны.',
  'status.orderClosed': 'Этот заказ больше нельзя оплатить.',
  'status.backToMerchant': 'Вернуться в магазин',
  'status.tryAnotherCard': 'Попробовать другую карту',
  'status.networkError':
    'Соединение с платёжным сервисом прервано. Повторите попытку, чтобы проверить, прошёл ли платёж.',
  'status.retry': 'Повторить',
  'status.checking': 'Проверка статуса заказа…',

  'status.rejected.title': 'Магазин не принял этот заказ',
  'rejected.PRICE_CHANGED': 'Цена изменилась. Вернитесь в магазин, чтобы увидеть актуальную цену.',
  'rejected.PRODUCT_NOT_AVAILABLE':
    'Один из товаров заказа больше недоступен. Вернитесь в магазин, чтобы изменить заказ.',
  'rejected.RESERVATION_EXPIRED':
    'Срок резервирования заказа истёк. Вернитесь в магазин и оформите заказ заново.',
  'rejected.DELIVERY_ADDRESS_NOT_SUPPORTED':
    'Магазин не доставляет по этому адресу. Вернитесь в магазин, чтобы выбрать другую доставку.',
  'rejected.MERCHANT_RISK_TOO_HIGH':
    'Магазин не может принять этот заказ. Пожалуйста, свяжитесь с магазином.',
  'rejected.MERCHANT_MISCONFIGURATION':
    'Магазин сейчас не может принимать платежи из-за ошибки в настройках. Попробуйте позже или свяжитесь с магазином.',
  'rejected.MERCHANT_NOT_AVAILABLE': 'Магазин сейчас не может принимать заказы. Попробуйте позже.',
  'rejected.OTHER':
    'Магазин не подтвердил этот заказ, поэтому его нельзя оплатить. Если нужна помощь, свяжитесь с магазином.',
};
