/**
 * English texts. The reference catalog: the other languages use the same placeholders as these.
 */
import type { ElementMessages, FrameMessages } from '../i18n.js';

/** English texts the element shows itself, with or without the frame. */
export const enElement: ElementMessages = {
  'frame.title': 'Secure payment form',
  'loading.text': 'Loading the payment form…',

  'error.title': 'Payment is not available',
  'error.unavailable': 'This shop cannot take payments right now. Please try again later.',
  'error.orderRejected': 'The shop did not confirm this order, so the payment cannot start.',
  'error.gatewayUnreachable':
    'The payment service cannot be reached. Check your internet connection and try again.',
  'error.frameTimeout':
    'The payment form took too long to load. Check your internet connection and try again.',
  'error.generic': 'Something went wrong. Please try again later.',
  'error.retry': 'Try again',
};

/** English texts of the payment frame. */
export const enFrame: FrameMessages = {
  'card.title': 'Card details',
  'card.number.label': 'Card number',
  'card.number.placeholder': '1234 1234 1234 1234',
  'card.number.accepted': 'Accepted cards: {accepted}',
  'card.expiry.label': 'Expiry date',
  'card.expiry.placeholder': 'MM/YY',
  'card.expiry.hint': 'Month and year as shown on the card',
  'card.cvc.label': 'Security code (CVC)',
  'card.cvc.placeholder': '123',
  'card.cvc.compactPlaceholder': 'CVC',
  'card.cvc.hint': 'The last 3 digits on the back of the card (4 digits on the front for American Express)',
  'card.holder.label': 'Name on card',
  'card.holder.placeholder': 'As printed on the card',
  'card.holder.error.empty': 'Enter the name as printed on the card.',
  'card.scheme.detected': 'Card type: {scheme}',

  'card.number.error.empty': 'Enter the card number.',
  'card.number.error.not_digits': 'A card number contains digits only.',
  'card.number.error.wrong_length': 'The card number is incomplete or too long; check it.',
  'card.number.error.luhn_failed': 'This card number is not valid; check it for typos.',
  'card.number.error.scheme_not_accepted': 'This card type is not accepted here. Accepted cards: {accepted}.',
  'card.expiry.error.empty': 'Enter the expiry date (MM/YY).',
  'card.expiry.error.malformed': 'Write the expiry date as on the card, MM/YY, for example 04/29.',
  'card.expiry.error.bad_month': 'The month must be from 01 to 12.',
  'card.expiry.error.expired': 'This card has expired; check the date or use another card.',
  'card.expiry.error.too_far': 'The expiry date is too far in the future; check the year.',
  'card.cvc.error.empty': 'Enter the security code (CVC).',
  'card.cvc.error.not_digits': 'The security code contains digits only.',
  'card.cvc.error.wrong_length': 'The security code has {length} digits.',
  'card.constraint.paymentScheme': 'This order accepts only {expected} cards.',
  'card.constraint.brand': 'This order accepts only {expected} cards.',
  'card.constraint.issuer': 'This order accepts only cards issued by {expected}.',

  'scheme.VISA': 'Visa',
  'scheme.MASTERCARD': 'Mastercard',
  'scheme.AMEX': 'American Express',
  'scheme.MAESTRO': 'Maestro',
  'scheme.UNKNOWN': 'Unknown card',

  'pay.button': 'Pay {amount}',
  'pay.chooseShipping': 'Choose a shipping method to pay',
  'pay.priceShipping': 'Pay once delivery is priced',
  'pay.processing': 'Processing the payment…',
  'pay.cancel': 'Cancel payment',
  'pay.secureNote': 'Card details go straight to the payment service; the shop does not see them.',
  'pay.error': 'Something went wrong. Please try again later.',

  'summary.title': 'Order summary',
  'summary.orderId': 'Order {orderId}',
  'summary.items': 'Items',
  'summary.line': '{quantity} at {price} each',
  'summary.taxIncluded': 'Including VAT {tax}',
  'summary.shipping': 'Shipping',
  'summary.total': 'Total',
  'summary.loading': 'Loading your order…',

  'unit.PIECE': '× {count}',
  'unit.KILOGRAM': '{count} kg',
  'unit.METER': '{count} m',
  'unit.LITRE': '{count} l',
  'unit.HOUR': '{count} h',

  'customer.title': 'Contact details',
  'customer.firstName': 'First name',
  'customer.lastName': 'Last name',
  'customer.email': 'Email',
  'customer.phone': 'Phone',
  'customer.email.invalid': 'Enter a valid email address, such as name@example.com.',
  'customer.phone.invalid': 'Enter a valid phone number, such as +371 20000000.',
  'field.required': 'This field is required.',
  'field.optional': 'optional',

  'delivery.title': 'Delivery',
  'delivery.method': 'Shipping method',
  'delivery.chooseOption': 'Choose a shipping method.',
  'delivery.address': 'Street address',
  'delivery.city': 'City',
  'delivery.postalCode': 'Postal code',
  'delivery.country': 'Country',
  'delivery.pickupPoint': 'Pickup point',
  'delivery.choosePickupPoint': 'Choose a pickup point.',
  'delivery.serviceHours': 'Opening hours: {hours}',
  'delivery.priceOnRequest': 'Price calculated once you enter the address',
  'delivery.priceOnPickupPoint': 'Price calculated once you choose a pickup point',
  'delivery.priceOnChoice': 'Price calculated once chosen',
  'delivery.calculating': 'Calculating the delivery price…',
  'delivery.free': 'Free',
  'delivery.quoteFailed':
    'The delivery price could not be calculated. Choose another method or change the details.',

  'terms.link': 'Terms and conditions',
  'terms.newTab': '(opens in a new tab)',
  'terms.agree': 'I agree to the terms and conditions',
  'terms.required': 'Agree to the terms and conditions to continue.',

  'threeDs.title': '3-D Secure verification',
  'threeDs.sandboxExplanation':
    'This is the sandbox test challenge: no bank is involved and no money moves. Choose how the card issuer answers.',
  'threeDs.merchant': 'Merchant',
  'threeDs.approve': 'Approve payment',
  'threeDs.deny': 'Deny payment',
  'threeDs.waiting': 'Waiting for the card issuer’s answer…',

  'status.paid.title': 'Payment successful',
  'status.paid.text': 'Thank you! Your payment of {amount} has been received.',
  'status.failed.title': 'Payment failed',
  'status.failed.text': 'The payment did not go through. {reason}',
  'status.failed.reason.card_declined': 'The card was declined; use another card or contact your bank.',
  'status.failed.reason.insufficient_funds': 'There are not enough funds on the card.',
  'status.failed.reason.processing_error': 'The payment could not be processed; please try again.',
  'status.failed.reason.authentication_failed': 'The card issuer did not confirm the payment.',
  'status.failed.reason.order_already_paid':
    'This order was already paid in another window; nothing more was charged.',
  'status.failed.reason.unknown': 'No reason was given.',
  'status.cancelled.title': 'Payment cancelled',
  'status.cancelled.text': 'The payment was cancelled; no money was charged.',
  'status.orderClosed': 'This order can no longer be paid.',
  'status.backToMerchant': 'Back to the shop',
  'status.tryAnotherCard': 'Try another card',
  'status.networkError':
    'The connection to the payment service was interrupted. Retry to check whether the payment went through.',
  'status.retry': 'Retry',
  'status.checking': 'Checking the order status…',

  'status.rejected.title': 'The shop did not accept this order',
  'rejected.PRICE_CHANGED': 'The price has changed. Go back to the shop to see the current price.',
  'rejected.PRODUCT_NOT_AVAILABLE':
    'A product in this order is no longer available. Go back to the shop to change the order.',
  'rejected.RESERVATION_EXPIRED':
    'The reservation of this order has expired. Go back to the shop to place the order again.',
  'rejected.DELIVERY_ADDRESS_NOT_SUPPORTED':
    'The shop does not deliver to this address. Go back to the shop to choose another delivery.',
  'rejected.MERCHANT_RISK_TOO_HIGH': 'The shop cannot accept this order. Please contact the shop.',
  'rejected.MERCHANT_MISCONFIGURATION':
    'The shop cannot take payments right now because of a setup problem. Please try again later or contact the shop.',
  'rejected.MERCHANT_NOT_AVAILABLE': 'The shop cannot take orders right now. Please try again later.',
  'rejected.OTHER':
    'The shop did not confirm this order, so it cannot be paid. Contact the shop if you need help.',
};
