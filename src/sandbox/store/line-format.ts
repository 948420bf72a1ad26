/**
 * The lines of the store's two files in `<dataDir>/state/`, JSON lines each:
 * - `journal.jsonl`: a header line `{"format":"svc-sandbox-journal","version":2,"after":N,"sum":...}` naming
 *   the snapshot record it continues from, then one line per committed change (a single put, or a whole
 *   transaction) with consecutive `seq` numbers N+1, N+2, ...: `{"seq":N,"ops":[...],"sum":...}`, each op
 *   `["put",collection,id,value]`, `["patch",collection,id,steps]` (see patch.ts) or `["del",collection,id]`.
 * - `snapshot.jsonl`: every document as of journal record `seq`: a header line
 *   `{"format":"svc-sandbox-store","version":3,"seq":N,"sum":...}`, a line `[collection,id,value,"<sum>"]` per
 *   document, and an end line `{"end":<documents>,"sum":...}`, so a snapshot cut short is told apart.
 * Every line of both ends in a checksum of the rest (see {@link sealed}). Files of earlier versions, without
 * checksums, are read once as they are and rewritten in the current format on opening.
 */

import { createHash } from 'node:crypto';
import { isPlainObject } from '../../core/plain-object.js';
import { corrupt, errorMessage } from './errors.js';

export const SNAPSHOT_FORMAT = 'svc-sandbox-store';
/**
 * Version 3: every line ends in its checksum. Version 2: the journal beside it starts with a header line.
 * Versions 1 and 2 (before) are still read, and rewritten as version 3 on opening.
 */
export const SNAPSHOT_VERSION = 3;
const JOURNAL_FORMAT = 'svc-sandbox-journal';
/** Version 2: every line ends in its checksum. Version 1 (and a journal without header) is still read. */
export const JOURNAL_VERSION = 2;

export function journalHeader(after: number): Buffer {
  return Buffer.from(sealed(JSON.stringify({ format: JOURNAL_FORMAT, version: JOURNAL_VERSION, after })));
}

/** A journal record of `ops`, each the JSON text of one change. */
export function journalRecord(seq: number, ops: readonly string[]): Buffer {
  return Buffer.from(sealed(`{"seq":${seq},"ops":[${ops.join(',')}]}`), 'utf8');
}

/** The ops of a journal record; `quotedName` and `quotedId` are JSON strings, `json` and `patch` JSON text. */
export function putOp(quotedName: string, quotedId: string, json: string): string {
  return `["put",${quotedName},${quotedId},${json}]`;
}

export function patchOp(quotedName: string, quotedId: string, patch: string): string {
  return `["patch",${quotedName},${quotedId},${patch}]`;
}

export function deleteOp(quotedName: string, quotedId: string): string {
  return `["del",${quotedName},${quotedId}]`;
}

export function snapshotHeader(seq: number): string {
  return sealed(JSON.stringify({ format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, seq }));
}

export function snapshotDocument(name: string, id: string, value: unknown): string {
  return sealed(JSON.stringify([name, id, value]));
}

export function snapshotEnd(documents: number): string {
  return sealed(JSON.stringify({ end: documents }));
}

export function isSeq(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

export function isJournalHeader(value: unknown): value is { version: 1 | 2; after: number } {
  return (
    isPlainObject(value) &&
    value['format'] === JOURNAL_FORMAT &&
    (value['version'] === 1 || value['version'] === JOURNAL_VERSION) &&
    isSeq(value['after'])
  );
}

export function isRecord(value: unknown): value is { seq: number; ops: unknown[] } {
  return isPlainObject(value) && isSeq(value['seq']) && Array.isArray(value['ops']);
}

/**
 * Parses a line and checks its checksum: `required` in the formats that have them; `if-present` in an old
 * journal, which may end in records of the new format (appended when the disk was too full to rewrite it);
 * `none` in an old snapshot, where a document's last string could look like a checksum.
 */
export function parseLine(
  line: Buffer,
  path: string,
  lineNumber: number,
  sealing: 'required' | 'if-present' | 'none',
  shape: 'object' | 'array' = 'object',
): unknown {
  const opened = sealing === 'none' ? undefined : unseal(line, shape);
  if (opened === 'mismatch') {
    throw corrupt(
      path,
      lineNumber,
      'its checksum does not match its content: the line was changed after it was written',
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(opened ?? line.toString('utf8'));
  } catch (error) {
    throw corrupt(path, lineNumber, `it is not JSON: ${errorMessage(error)}`);
  }
  if (opened === undefined && sealing === 'required') {
    throw corrupt(path, lineNumber, 'it lacks the checksum every line of this file ends with');
  }
  return parsed;
}

/**
 * A line as written: the JSON text of an object or array with its checksum inserted as a last member
 * (`,"sum":"<16 hex>"}` or `,"<16 hex>"]`), so the files stay JSON lines. The checksum covers the text
 * before it; SHA-256 cut to 64 bits, as `node:crypto` has no CRC32 on every Node version this package
 * supports, and it costs about 2 µs a record, far below the write itself.
 */
function sealed(json: string): string {
  const body = json.slice(0, -1);
  const sum = checksum(body);
  return json.endsWith('}') ? `${body},"sum":"${sum}"}\n` : `${body},"${sum}"]\n`;
}

const SUM_CHARS = 16;
const OBJECT_SEAL = Buffer.from(',"sum":"');
const ARRAY_SEAL = Buffer.from(',"');

function checksum(body: string | Buffer): string {
  return createHash('sha256').update(body).digest('hex').slice(0, SUM_CHARS);
}

/**
 * The text of a sealed line without its checksum; undefined when the line has none, `mismatch` when the
 * checksum does not match the text.
 */
export function unseal(line: Buffer, shape: 'object' | 'array'): string | 'mismatch' | undefined {
  const seal = shape === 'object' ? OBJECT_SEAL : ARRAY_SEAL;
  const close = shape === 'object' ? '}' : ']';
  const sumStart = line.length - 2 - SUM_CHARS;
  const sealStart = sumStart - seal.length;
  if (
    sealStart < 1 ||
    line[line.length - 1] !== close.charCodeAt(0) ||
    line[line.length - 2] !== 0x22 ||
    !line.subarray(sealStart, sumStart).equals(seal)
  ) {
    return undefined;
  }
  const sum = line.toString('latin1', sumStart, sumStart + SUM_CHARS);
  if (!/^[0-9a-f]+$/.test(sum)) return undefined;
  const body = line.subarray(0, sealStart);
  if (checksum(body) !== sum) return 'mismatch';
  return `${body.toString('utf8')}${close}`;
}
