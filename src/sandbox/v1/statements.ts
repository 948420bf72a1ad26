/**
 * Company statements in the sandbox store, and their work in the background on the sandbox clock:
 *
 * `queued` (accepted) → `processing` (a clock task due a second later, {@link STATEMENT_QUEUE_MS}, starts a
 * pass over the merchant's Purchases that counts the matching ones, a slice at a time so that the sandbox
 * keeps answering) → `ready` (`row_count` set, `download_url` given); `queued` or `processing` →
 * `cancelled` by the cancel endpoint.
 *
 * The file is written when it is downloaded, as a stream (`statementChunks`): a statement of 100,000
 * Purchases is never one text in memory and no file is left on disk. It lists the Purchases that match its
 * filters and were created no later than the statement, as they are when it is downloaded.
 */
import { randomUUID } from 'node:crypto';
import type { CompanyStatement, CompanyStatementStatus } from '../../core/v1-types.js';
import type { SandboxClocks } from '../clock.js';
import { UUID } from '../formats.js';
import type { Collection, Store } from '../store.js';
import { V1HttpError } from './errors.js';
import type { PurchaseRecord } from './purchases.js';
import type { StatementDraft } from './statement-request.js';
import { matches, type RowContext } from './statement-rows.js';

/** A statement as stored. */
export interface StatementRecord {
  merchantId: string;
  statement: Omit<CompanyStatement, 'download_url'> & { status: CompanyStatementStatus };
  draft: StatementDraft;
  /** When the clock takes it up (epoch ms on the sandbox clock), {@link STATEMENT_QUEUE_MS} after it was asked for. */
  startsAt: number;
}

export interface StatementsDeps {
  store: Store;
  /** A statement is taken up on its merchant's clock. */
  clocks: SandboxClocks;
  /** Every stored Purchase (all merchants'), read lazily. */
  purchases: () => Iterable<PurchaseRecord>;
  /** What the filters read beyond the Purchase, for one merchant. */
  rowContext: (merchantId: string) => RowContext;
}

/**
 * How long after it is asked for a statement is taken up, on the sandbox clock: a real gateway queues them,
 * and a merchant's test can see `queued` (and cancel it) before moving the clock on.
 */
export const STATEMENT_QUEUE_MS = 1000;

/** How many Purchases the counting pass reads before it lets other work run. */
const SLICE = 2000;

export class V1Statements {
  private readonly records: Collection<StatementRecord>;

  constructor(private readonly deps: StatementsDeps) {
    this.records = deps.store.collection<StatementRecord>('v1-statements');
  }

  /** Sets the clock's task again for every statement not finished yet (at a start). */
  resume(): void {
    for (const record of this.records.values()) {
      const { status } = record.statement;
      if (status === 'queued' || status === 'processing') this.schedule(record);
    }
  }

  create(merchantId: string, draft: StatementDraft): StatementRecord {
    const clock = this.deps.clocks.for(merchantId);
    const now = Math.floor(clock.nowMs() / 1000);
    const record: StatementRecord = {
      merchantId,
      draft,
      startsAt: clock.nowMs() + STATEMENT_QUEUE_MS,
      statement: {
        id: randomUUID(),
        status: 'queued',
        format: draft.format,
        timezone: draft.timezone,
        filters: draft.given,
        row_count: null,
        created_on: now,
        updated_on: now,
      },
    };
    this.records.put(record.statement.id, record);
    this.deps.store.afterCommit(() => this.schedule(record));
    return record;
  }

  /**
   * The merchant's statement `id`.
   * @throws V1HttpError 404 when there is none (or it is another merchant's).
   */
  get(merchantId: string, id: string): StatementRecord {
    const record = UUID.test(id) ? this.records.get(id.toLowerCase()) : undefined;
    if (!record || record.merchantId !== merchantId) {
      throw V1HttpError.nonField(404, 'not_found', `No company statement ${id}`);
    }
    return record;
  }

  /** The merchant's statements, newest first. */
  list(merchantId: string): StatementRecord[] {
    return [...this.records.values()].filter((record) => record.merchantId === merchantId).reverse();
  }

  /**
   * Stops a statement that is not ready yet. Cancelling a cancelled one changes nothing.
   * @throws V1HttpError 400 `statement_cancel_error` when it is ready already; 404.
   */
  cancel(merchantId: string, id: string): StatementRecord {
    const record = this.get(merchantId, id);
    const { status } = record.statement;
    if (status === 'cancelled') return record;
    if (status === 'ready') {
      throw V1HttpError.nonField(
        400,
        'statement_cancel_error',
        'The statement is ready already; only a queued or processing statement can be cancelled',
      );
    }
    this.deps.clocks.for(merchantId).cancel(taskKey(id));
    return this.save(record, { status: 'cancelled' });
  }

  /** The merchant's Purchases the statement lists, read lazily in store order. */
  *rows(record: StatementRecord, context: RowContext): Generator<PurchaseRecord> {
    for (const purchase of this.deps.purchases()) if (lists(record, purchase, context)) yield purchase;
  }

  private schedule({ merchantId, startsAt, statement: { id } }: StatementRecord): void {
    this.deps.clocks.for(merchantId).at(taskKey(id), startsAt, () => this.start(id));
  }

  /** The clock task: `processing`, then the counting pass in the background. */
  private start(id: string): void {
    const record = this.records.get(id);
    if (!record || (record.statement.status !== 'queued' && record.statement.status !== 'processing')) return;
    const processing = this.save(record, { status: 'processing' });
    this.count(processing).catch((error: unknown) => {
      // A failed write (a full disk) leaves it processing; it is tried again as the clock's tasks are.
      console.error(`svc-sandbox: statement ${id} could not be prepared; trying again in a second:`, error);
      const clock = this.deps.clocks.for(record.merchantId);
      clock.at(taskKey(id), clock.nowMs() + 1000, () => this.start(id));
    });
  }

  private async count(record: StatementRecord): Promise<void> {
    const id = record.statement.id;
    const context = this.deps.rowContext(record.merchantId);
    let rows = 0;
    let read = 0;
    for (const purchase of this.deps.purchases()) {
      if (lists(record, purchase, context)) rows += 1;
      read += 1;
      if (read % SLICE === 0) {
        await new Promise((resolve) => setImmediate(resolve));
        if (this.records.get(id)?.statement.status !== 'processing') return;
      }
    }
    const current = this.records.get(id);
    if (current?.statement.status !== 'processing') return;
    this.save(current, { status: 'ready', row_count: rows });
  }

  private save(record: StatementRecord, change: Partial<StatementRecord['statement']>): StatementRecord {
    const saved: StatementRecord = {
      ...record,
      statement: {
        ...record.statement,
        ...change,
        updated_on: Math.floor(this.deps.clocks.for(record.merchantId).nowMs() / 1000),
      },
    };
    this.records.put(saved.statement.id, saved);
    return saved;
  }
}

/** Whether the statement lists the Purchase: the merchant's, created no later than it, matching its filters. */
function lists(record: StatementRecord, purchase: PurchaseRecord, context: RowContext): boolean {
  return (
    purchase.merchantId === record.merchantId &&
    (purchase.purchase.created_on ?? 0) <= (record.statement.created_on ?? Number.POSITIVE_INFINITY) &&
    matches(purchase, record.draft.filters, context)
  );
}

function taskKey(id: string): string {
  return `statement:${id}`;
}

/** The statement as the API answers it; `download_url` on the host the caller used, once ready. */
export function statementView(record: StatementRecord, baseUrl: string): CompanyStatement {
  const { statement } = record;
  return {
    id: statement.id,
    status: statement.status,
    download_url:
      statement.status === 'ready' ? `${baseUrl}/api/v1/company_statements/${statement.id}/download/` : null,
    format: statement.format!,
    timezone: statement.timezone!,
    filters: statement.filters ?? {},
    row_count: statement.row_count ?? null,
    ...(statement.created_on !== undefined && { created_on: statement.created_on }),
    ...(statement.updated_on !== undefined && { updated_on: statement.updated_on }),
  };
}
