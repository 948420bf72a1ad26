/**
 * The sandbox's one test acquirer, behind both the widget's payments and the v1 hosted page and API: it
 * authorises a card by its test card's outcome (with the 3-D Secure test challenge), or a bank or wallet
 * method its customer confirmed; and it keeps each authorisation's ledger (authorised, captured, released,
 * refunded), so that no path can capture more than was held or refund more than was taken.
 *
 * An operation answers at once, or, in the slow mode, is accepted and settles on the merchant's clock
 * `slowMs` later (each dating call takes `nowMs`, now on the clock of the merchant it is made for): the owner keeps the returned `settlesAt`, and calls {@link TestAcquirer.settle} then. The
 * `fail` mode makes an operation fail in processing, for the `purchase_*_error` paths; a test card can make
 * its token's charges be accepted and fail when they settle. Card numbers are never kept: an authorisation
 * keeps the card's scheme, brand, issuer, first six and last four digits.
 */
import { randomUUID } from 'node:crypto';
import type { CardScheme } from '../core/card.js';
import { formatMinorUnits } from '../core/money.js';
import type { Collection, Store } from './store.js';
import { findTestCard, findTestCardByDigits, type TestCard, type TestCardOutcome } from './test-cards.js';

/** How the acquirer answers an operation: at once, later (`pending_*` states), or with a processing failure. */
export type AcquirerMode = 'normal' | 'slow' | 'fail';

export const ACQUIRER_MODES: readonly AcquirerMode[] = ['normal', 'slow', 'fail'];

/** How one operation is answered: the mode, and how long a slow one takes on the sandbox clock. */
export interface AcquirerBehaviour {
  mode: AcquirerMode;
  slowMs: number;
}

/** At once, for the widget's refunds (merchant API v2 has no pending states). */
export const PROMPT: AcquirerBehaviour = { mode: 'normal', slowMs: 0 };

/** What is kept of a card. */
export interface CardProfile {
  scheme: Exclude<CardScheme, 'UNKNOWN'>;
  brand: string;
  issuer: string;
  bin: string;
  last4: string;
}

/** What paid: a test card, or a bank or wallet method its customer confirmed on a test step. */
export type Instrument = { kind: 'card'; card: CardProfile } | { kind: 'method'; method: string };

export type OperationKind = 'capture' | 'release' | 'refund' | 'charge';

/** An operation accepted in the slow mode, settling at `settlesAt` (epoch ms on the sandbox clock). */
export interface PendingOperation {
  id: string;
  kind: OperationKind;
  amount: number;
  settlesAt: number;
  /** Accepted, but declined when it settles (a test card's charges). */
  declines?: { code: string; message: string };
}

export interface Authorisation {
  id: string;
  instrument: Instrument;
  currency: string;
  /** Held or taken, in minor units. */
  amount: number;
  /** `challenge`: waits for the customer's 3-D Secure answer; `declined`: nothing was authorised. */
  state: 'challenge' | 'authorised' | 'declined';
  /** Taken so far (a capture, or an authorisation that captured at once). */
  captured: number;
  /** Given back unused (a release, the rest of a partial capture). */
  released: number;
  refunded: number;
  /** May be charged again without the customer (a recurring token). */
  recurring: boolean;
  pending: PendingOperation | null;
  /** Epoch ms on the sandbox clock. */
  createdAt: number;
}

/** What the customer's card attempt came to. */
export type CardAuthorisation =
  | { kind: 'approved'; authorisation: Authorisation }
  | { kind: 'challenge'; authorisation: Authorisation }
  | ({ authorisation: Authorisation } & Extract<TestCardOutcome, { kind: 'declined' }>)
  | (Extract<TestCardOutcome, { kind: 'processing_error' }> & { card: CardProfile });

/** What an operation on an authorisation came to. */
export type OperationAnswer =
  | { kind: 'done'; authorisation: Authorisation }
  | { kind: 'pending'; authorisation: Authorisation; pending: PendingOperation }
  | { kind: 'failed'; code: string; message: string };

export interface TestAcquirerOptions {
  store: Store;
}

export class TestAcquirer {
  private readonly records: Collection<Authorisation>;

  constructor(options: TestAcquirerOptions) {
    this.records = options.store.collection<Authorisation>('acquirer-authorisations');
  }

  get(id: string): Authorisation | undefined {
    return this.records.get(id);
  }

  /**
   * Authorises `amount` on a checked card number; with `capture` it is taken at once, else held. A test card
   * with the 3-D Secure challenge waits for {@link completeChallenge}; a processing error leaves nothing.
   */
  authoriseCard(
    number: string,
    request: { amount: number; currency: string; capture: boolean; recurring: boolean },
    nowMs: number,
  ): CardAuthorisation {
    const card = findTestCard(number);
    if (!card) throw new Error('authoriseCard takes test card numbers only; check them first');
    const profile = cardProfile(card, number);
    const outcome = card.outcome;
    if (outcome.kind === 'processing_error') return { ...outcome, card: profile };
    const authorisation = this.create({ kind: 'card', card: profile }, request, outcome.kind, nowMs);
    if (outcome.kind === 'declined') return { ...outcome, authorisation };
    return { kind: outcome.kind === 'challenge' ? 'challenge' : 'approved', authorisation };
  }

  /** A bank or wallet payment its customer confirmed: authorised (and taken, with `capture`). */
  authoriseMethod(
    method: string,
    request: { amount: number; currency: string; capture: boolean; recurring: boolean },
    nowMs: number,
  ): Authorisation {
    return this.create({ kind: 'method', method }, request, 'approved', nowMs);
  }

  /** The customer's 3-D Secure answer: the authorisation stands, or is declined. */
  completeChallenge(id: string, approve: boolean): Authorisation {
    const authorisation = this.require(id);
    if (authorisation.state !== 'challenge') return authorisation;
    if (approve) return this.put({ ...authorisation, state: 'authorised' });
    return this.put({ ...authorisation, state: 'declined', captured: 0, recurring: false });
  }

  /**
   * Takes `amount` of what is held; the rest is released. Fails when nothing is held or `amount` is more
   * than that.
   */
  capture(id: string, amount: number, how: AcquirerBehaviour, nowMs: number): OperationAnswer {
    const authorisation = this.require(id);
    const held = this.held(authorisation);
    if (held === 0) return failed('nothing_held', 'Nothing is held on this authorisation to capture');
    if (amount > held) {
      return failed(
        'amount_exceeds_authorisation',
        `The capture of ${money(amount, authorisation)} is more than the ${money(held, authorisation)} held`,
      );
    }
    return this.operate(authorisation, 'capture', amount, how, nowMs);
  }

  /** Gives back everything held. */
  release(id: string, how: AcquirerBehaviour, nowMs: number): OperationAnswer {
    const authorisation = this.require(id);
    const held = this.held(authorisation);
    if (held === 0) return failed('nothing_held', 'Nothing is held on this authorisation to release');
    return this.operate(authorisation, 'release', held, how, nowMs);
  }

  /** Gives back `amount` of what was taken and not refunded yet. */
  refund(id: string, amount: number, how: AcquirerBehaviour, nowMs: number): OperationAnswer {
    const authorisation = this.require(id);
    const refundable = this.refundable(authorisation);
    if (amount > refundable) {
      return failed(
        'amount_exceeds_refundable',
        `The refund of ${money(amount, authorisation)} is more than the ${money(refundable, authorisation)} that can still be refunded`,
      );
    }
    return this.operate(authorisation, 'refund', amount, how, nowMs);
  }

  /**
   * A charge without the customer on the card of the recurring token `tokenId`: a new authorisation, taken at
   * once with `capture`, else held. A card whose test outcome declines such charges fails; so does a token
   * that no longer charges. A card whose charges are declined after acceptance is pending, and fails when it
   * settles `slowMs` later (at once with a `slowMs` of 0).
   */
  charge(
    tokenId: string,
    request: { amount: number; currency: string; capture: boolean; recurring?: boolean },
    how: AcquirerBehaviour,
    nowMs: number,
  ): OperationAnswer {
    const token = this.records.get(tokenId);
    if (!token?.recurring) return failed('invalid_recurring_token', 'The recurring token cannot be charged');
    if (how.mode === 'fail') return failed('processing_error', 'The acquirer failed to process the charge');
    const card = token.instrument.kind === 'card' ? testCardOf(token.instrument.card) : undefined;
    const outcome = card?.charges ?? { kind: 'approved' as const };
    // A caller that cannot wait (slowMs 0: the one-click payment, a subscription's billing) hears at once.
    if (outcome.kind === 'declined' || (outcome.kind === 'declined_after_acceptance' && how.slowMs === 0)) {
      return failed(outcome.code, outcome.message);
    }
    // The new authorisation charges again only when its own Purchase saves the card too.
    const created = this.create(
      token.instrument,
      { ...request, capture: false, recurring: request.recurring ?? false },
      'approved',
      nowMs,
    );
    const taken = request.capture ? request.amount : 0;
    if (outcome.kind === 'declined_after_acceptance') {
      const { code, message } = outcome;
      return this.accept(created, 'charge', taken, how, nowMs, { code, message });
    }
    if (how.mode === 'slow') return this.accept(created, 'charge', taken, how, nowMs);
    return { kind: 'done', authorisation: this.apply(created, 'charge', taken) };
  }

  /**
   * Takes on a payment made before the acquirer kept a ledger (a data dir of an earlier version): an
   * authorisation `id` of `amount`, of which `captured` was taken and `refunded` given back. One that exists
   * is left as it is.
   */
  adopt(
    id: string,
    payment: {
      instrument: Instrument;
      currency: string;
      amount: number;
      captured: number;
      refunded: number;
      recurring: boolean;
    },
    nowMs: number,
  ): Authorisation {
    const known = this.records.get(id);
    if (known) return known;
    return this.put({
      id,
      ...payment,
      state: 'authorised',
      released: 0,
      pending: null,
      createdAt: nowMs,
    });
  }

  /**
   * Ends the slow operation of `id`, if it is still pending: done, or failed when it declines once accepted
   * (then nothing stays held or taken, and the authorisation charges no more).
   */
  settle(id: string): OperationAnswer {
    const authorisation = this.require(id);
    const pending = authorisation.pending;
    if (!pending) return { kind: 'done', authorisation };
    if (pending.declines) {
      this.put({ ...authorisation, pending: null, state: 'declined', captured: 0, recurring: false });
      return failed(pending.declines.code, pending.declines.message);
    }
    return {
      kind: 'done',
      authorisation: this.apply({ ...authorisation, pending: null }, pending.kind, pending.amount),
    };
  }

  /**
   * Closes the authorisation outside the card networks (its purchase was marked as paid): a pending operation
   * is dropped unapplied, so it can never complete, and everything not taken is given back.
   */
  giveBack(id: string): Authorisation {
    const authorisation = this.require(id);
    if (authorisation.state !== 'authorised') return this.put({ ...authorisation, pending: null });
    return this.put({
      ...authorisation,
      pending: null,
      released: authorisation.amount - authorisation.captured,
    });
  }

  /** The authorisation no longer charges again. */
  forgetToken(id: string): Authorisation {
    return this.put({ ...this.require(id), recurring: false });
  }

  /** Held, neither taken nor given back. */
  held(authorisation: Authorisation): number {
    if (authorisation.state !== 'authorised' || authorisation.pending) return 0;
    return authorisation.amount - authorisation.captured - authorisation.released;
  }

  refundable(authorisation: Authorisation): number {
    return authorisation.captured - authorisation.refunded;
  }

  private operate(
    authorisation: Authorisation,
    kind: OperationKind,
    amount: number,
    how: AcquirerBehaviour,
    nowMs: number,
  ): OperationAnswer {
    if (authorisation.pending) {
      return failed('operation_pending', `A ${authorisation.pending.kind} is still being processed`);
    }
    if (how.mode === 'fail') return failed('processing_error', `The acquirer failed to process the ${kind}`);
    if (how.mode === 'slow') return this.accept(authorisation, kind, amount, how, nowMs);
    return { kind: 'done', authorisation: this.apply(authorisation, kind, amount) };
  }

  private accept(
    authorisation: Authorisation,
    kind: OperationKind,
    amount: number,
    how: AcquirerBehaviour,
    nowMs: number,
    declines?: PendingOperation['declines'],
  ): OperationAnswer {
    const pending: PendingOperation = {
      id: randomUUID(),
      kind,
      amount,
      settlesAt: nowMs + how.slowMs,
      ...(declines && { declines }),
    };
    return { kind: 'pending', authorisation: this.put({ ...authorisation, pending }), pending };
  }

  private apply(authorisation: Authorisation, kind: OperationKind, amount: number): Authorisation {
    switch (kind) {
      case 'capture':
        // The rest of a partial capture is released with it.
        return this.put({
          ...authorisation,
          captured: authorisation.captured + amount,
          released: authorisation.amount - authorisation.captured - amount,
        });
      case 'release':
        return this.put({ ...authorisation, released: authorisation.released + amount });
      case 'refund':
        return this.put({ ...authorisation, refunded: authorisation.refunded + amount });
      case 'charge':
        return this.put({ ...authorisation, captured: amount });
    }
  }

  private create(
    instrument: Instrument,
    request: { amount: number; currency: string; capture: boolean; recurring: boolean },
    outcome: 'approved' | 'declined' | 'challenge',
    nowMs: number,
  ): Authorisation {
    return this.put({
      id: randomUUID(),
      instrument,
      currency: request.currency,
      amount: request.amount,
      state: outcome === 'approved' ? 'authorised' : outcome,
      // Taken when the challenge is answered yes, if it captures at once.
      captured: outcome === 'declined' || !request.capture ? 0 : request.amount,
      released: 0,
      refunded: 0,
      recurring: outcome !== 'declined' && request.recurring,
      pending: null,
      createdAt: nowMs,
    });
  }

  private require(id: string): Authorisation {
    const authorisation = this.records.get(id);
    if (!authorisation) throw new Error(`No authorisation ${id}`);
    return authorisation;
  }

  private put(authorisation: Authorisation): Authorisation {
    this.records.put(authorisation.id, authorisation);
    return authorisation;
  }
}

/** An amount as people read it in a message: `8.00 EUR`. */
function money(amount: number, authorisation: Authorisation): string {
  return `${formatMinorUnits(amount)} ${authorisation.currency}`;
}

function failed(code: string, message: string): OperationAnswer {
  return { kind: 'failed', code, message };
}

function cardProfile(card: TestCard, number: string): CardProfile {
  return {
    scheme: card.scheme,
    brand: card.brand,
    issuer: card.issuer,
    bin: number.slice(0, 6),
    last4: number.slice(-4),
  };
}

function testCardOf(card: CardProfile): TestCard | undefined {
  return findTestCardByDigits(card.bin, card.last4);
}
