/**
 * What a success callback delivers, and the company key that signs it.
 * Wire types of v1: the conventions are in ../v1-types.ts, which re-exports this module.
 */

import type { Purchase, PurchaseEventType } from './purchase.js';

/** The body of a success callback (and of a Purchase webhook): the Purchase when the event happened. */
export type PurchaseCallbackPayload = Purchase & { event_type: PurchaseEventType };

/**
 * The answer of `GET /public_key/`: a JSON string holding the PEM (SPKI, `-----BEGIN PUBLIC KEY-----`) of the
 * company key that signs success callbacks.
 */
export type V1PublicKey = string;
