/**
 * The order verification of CALLBACK widgets: the sandbox keeps the order, posts a signed token to the
 * merchant's order verification URL, and takes the merchant's decision from that answer or, while the intake
 * waits, through merchant API v2 (`PUT` approves, `DELETE` rejects). The first decision stands.
 */
import {
  isOrderRejectionReason,
  ORDER_REJECTION_REASONS,
  type OrderRejectionReason,
} from '../../core/legacy-callbacks.js';
import { isPlainObject } from '../../core/plain-object.js';
import { signOrderVerificationToken } from '../../server/index.js';
import type { MerchantConfig, SandboxConfig } from '../config.js';
import { HttpError } from '../http.js';
import type { OrderBook } from './order-book.js';
import type { CallMerchant, OrderRecord, OrderVerification } from './order-records.js';

/**
 * The `kid` of the order verification token: the name of the sandbox's certificate, the file name it
 * downloads under (`GET /sandbox/service-certificate.pem` saves as `svc-sandbox.pem`).
 */
export const SERVICE_CERTIFICATE_NAME = 'svc-sandbox';

export interface OrderVerifierDeps {
  config: SandboxConfig;
  book: OrderBook;
  servicePrivateKeyPem: string;
  callMerchant: CallMerchant;
  now: () => Date;
}

export class OrderVerifier {
  /** Intakes waiting for the merchant's decision through merchant API v2, by gateway order id. */
  private readonly awaitingDecision = new Map<string, () => void>();

  constructor(private readonly deps: OrderVerifierDeps) {}

  /**
   * Asks a CALLBACK widget's merchant about a kept order: posts the token to the order verification URL and
   * takes its answer's decision, or, when the answer (2xx) decides nothing, waits up to
   * `orderVerification.decisionTimeoutMs` for the merchant's approval or rejection through merchant API v2
   * ({@link decide}). The first decision stands. Resolves the approved order.
   * @throws HttpError 403 `order_rejected` (with the merchant's `reason`), 504 `verification_timeout`, 502
   *   `verification_unreachable`.
   */
  async askMerchantToApprove(merchant: MerchantConfig, record: OrderRecord): Promise<OrderRecord> {
    const url = merchant.callbacks.orderVerificationUrl!;
    // The real service's token: `{kid, alg}` over `{orderId, externalOrderId}`, no `iat`.
    const token = signOrderVerificationToken(
      { orderId: record.id, externalOrderId: record.input.orderId ?? null },
      this.deps.servicePrivateKeyPem,
      { kid: SERVICE_CERTIFICATE_NAME },
    );
    // Registered before the merchant is asked: it may decide through merchant API v2 before it answers.
    const decided = new Promise<void>((resolve) => this.awaitingDecision.set(record.id, resolve));
    let detail = '';
    try {
      let answer: { status: number; body: string } | undefined;
      let unreachable: unknown;
      try {
        answer = await this.deps.callMerchant(url, token, 'application/jose');
      } catch (error) {
        unreachable = error;
      }
      if (this.verificationOf(record.id).status === 'PENDING') {
        if (answer === undefined) {
          this.settle(record.id, { status: 'EXPIRED' });
          throw new HttpError(
            502,
            'verification_unreachable',
            `The merchant's order verification URL did not answer: ${(unreachable as Error).message}`,
          );
        }
        const said = decisionOf(answer);
        if (said) {
          this.settle(record.id, { ...said.verification, via: 'answer' });
          detail = said.detail;
        } else await this.waitForDecision(record.id, decided);
      }
    } finally {
      this.awaitingDecision.delete(record.id);
    }
    const verification = this.verificationOf(record.id);
    if (verification.status !== 'APPROVED') {
      const reason = verification.reasonCode;
      throw new HttpError(
        403,
        'order_rejected',
        `The merchant did not approve this order${reason ? ` (${reason})` : ''}${detail}`,
        undefined,
        reason,
      );
    }
    return this.deps.book.records.get(record.id)!;
  }

  /**
   * Waits for a decision through merchant API v2 within the configured time (real time: it bounds how long
   * the customer's intake request stays open), then gives the order up.
   * @throws HttpError 504 `verification_timeout` when none came.
   */
  private async waitForDecision(id: string, decided: Promise<void>): Promise<void> {
    const { decisionTimeoutMs } = this.deps.config.orderVerification;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, decisionTimeoutMs);
      // A closing sandbox does not wait for a merchant that never decides.
      timer.unref();
    });
    await Promise.race([decided, late]);
    clearTimeout(timer);
    if (this.verificationOf(id).status !== 'PENDING') return;
    this.settle(id, { status: 'EXPIRED' });
    throw new HttpError(
      504,
      'verification_timeout',
      `The merchant's order verification URL answered without a decision, and no approval (PUT /v2/merchants/{merchant_id}/orders/${id}) or rejection (DELETE, with {reasonCode}) came within ${decisionTimeoutMs} ms (orderVerification.decisionTimeoutMs); nothing was charged`,
    );
  }

  /** Where the merchant's decision on an order stands; EXPIRED for an order that is not kept. */
  private verificationOf(id: string): OrderVerification {
    return this.deps.book.records.get(id)?.verification ?? { status: 'EXPIRED' };
  }

  private settle(id: string, verification: OrderVerification): void {
    this.deps.book.records.update(id, (current) => ({
      ...current,
      verification: { ...verification, at: this.deps.now().toISOString() },
    }));
  }

  /**
   * The merchant's decision on a CALLBACK widget's order through merchant API v2 (`PUT` approves, `DELETE`
   * rejects), while the order intake waits for it. A decision is taken once.
   * @throws HttpError 409 `order_not_awaiting_decision` (not a CALLBACK widget's order),
   *   `order_already_decided`, `verification_expired` (the intake gave up waiting, or the sandbox restarted).
   */
  decide(
    record: OrderRecord,
    decision: { approved: true } | { approved: false; reasonCode: OrderRejectionReason },
  ): OrderVerification {
    const { verification } = this.deps.book.records.get(record.id) ?? record;
    const name = JSON.stringify(record.id);
    if (verification === undefined) {
      throw new HttpError(
        409,
        'order_not_awaiting_decision',
        `Order ${name} is not a CALLBACK widget's order: only those await the merchant's approval or rejection`,
      );
    }
    if (verification.status === 'APPROVED' || verification.status === 'REJECTED') {
      const how =
        verification.status === 'APPROVED'
          ? 'approved'
          : `rejected${verification.reasonCode ? ` (${verification.reasonCode})` : ''}`;
      throw new HttpError(
        409,
        'order_already_decided',
        `Order ${name} was already ${how} ${verification.via === 'api' ? 'through merchant API v2' : "by the verification URL's answer"}; a decision is taken once`,
      );
    }
    const resume = this.awaitingDecision.get(record.id);
    if (verification.status === 'EXPIRED' || resume === undefined) {
      // PENDING with nobody waiting: the intake that asked ended with the sandbox process.
      if (verification.status === 'PENDING') this.settle(record.id, { status: 'EXPIRED' });
      throw new HttpError(
        409,
        'verification_expired',
        `Order ${name} no longer awaits a decision: no decision came within ${this.deps.config.orderVerification.decisionTimeoutMs} ms (orderVerification.decisionTimeoutMs), so the customer was refused; a new attempt makes a new order`,
      );
    }
    const decided: OrderVerification = decision.approved
      ? { status: 'APPROVED', via: 'api' }
      : { status: 'REJECTED', reasonCode: decision.reasonCode, via: 'api' };
    this.settle(record.id, decided);
    resume();
    return this.verificationOf(record.id);
  }
}

/**
 * The decision a 2xx verification answer gives: `{approved: true}`, or `{approved: false, reasonCode?}`
 * (a reason outside {@link ORDER_REJECTION_REASONS} is named in `detail` and not passed on). Undefined when
 * the answer decides nothing (no JSON object, or no `approved`): the merchant decides through merchant API
 * v2. Any other status, or an `approved` that is not a boolean, is a rejection, as an approval must be clear.
 */
function decisionOf(answer: {
  status: number;
  body: string;
}): { verification: OrderVerification; detail: string } | undefined {
  const rejected = (detail: string) => ({ verification: { status: 'REJECTED' as const }, detail });
  if (answer.status < 200 || answer.status > 299)
    return rejected(`: its verification URL answered ${answer.status}`);
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return undefined;
  }
  if (!isPlainObject(body) || !('approved' in body)) return undefined;
  // The shape of OrderVerificationAnswer, read from anything the merchant may send.
  const { approved, reasonCode } = body;
  if (approved === true) return { verification: { status: 'APPROVED' }, detail: '' };
  if (approved !== false) return rejected(': "approved" in its answer is not true or false');
  if (reasonCode === undefined) return rejected('');
  if (!isOrderRejectionReason(reasonCode)) {
    return rejected(
      `: its reasonCode ${JSON.stringify(reasonCode)} is not one of ${ORDER_REJECTION_REASONS.join(', ')}`,
    );
  }
  return { verification: { status: 'REJECTED', reasonCode }, detail: '' };
}
