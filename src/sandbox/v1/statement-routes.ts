/**
 * `GET /balance/` and the company statements of `/api/v1/`: create (`POST`, format, time zone and every filter
 * of the document in the JSON body or as query parameters), list (pages with `next`), get, cancel, and the download of a ready
 * statement at its `download_url`, streamed as it is written. The download takes the same bearer key as
 * every other endpoint: a statement lists customers' names and emails, so holding its URL must not be enough.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { TestAcquirer } from '../acquirer.js';
import type { SandboxClocks } from '../clock.js';
import type { RequestContext, RouteHandler, Router } from '../http.js';
import { sendJson } from '../http.js';
import type { Store } from '../store.js';
import { V1HttpError } from './errors.js';
import { pageOf, readPageRequest } from './pagination.js';
import type { PurchaseOperations } from './purchase-operations.js';
import type { V1Purchases } from './purchases.js';
import type { V1Handler } from './request-context.js';
import { readStatementRequest, withQueryParameters } from './statement-request.js';
import {
  balanceOf,
  type RowContext,
  refundsByPurchase,
  statementChunks,
  ZoneTime,
} from './statement-rows.js';
import { statementView, V1Statements } from './statements.js';

export interface StatementRoutesDeps {
  store: Store;
  clocks: SandboxClocks;
  purchases: V1Purchases;
  /** The refund Payments. */
  operations: Pick<PurchaseOperations, 'paymentsOf'>;
  /** Whether a card payment passed 3-D Secure (the `three_d_secure` filter). */
  acquirer: Pick<TestAcquirer, 'get'>;
  authenticated: (handler: V1Handler) => RouteHandler;
}

/** What the filters and rows of one merchant read besides the Purchase. */
export function rowContextOf(
  deps: Pick<StatementRoutesDeps, 'operations' | 'acquirer'>,
  merchantId: string,
): RowContext {
  return { refunds: refundsByPurchase(deps.operations.paymentsOf(merchantId)), acquirer: deps.acquirer };
}

/** Mounts the routes and sets the clock's tasks of the statements not finished yet. */
export function mountStatementRoutes(api: Router, deps: StatementRoutesDeps): void {
  const { purchases, clocks, authenticated: as } = deps;
  const statements = new V1Statements({
    store: deps.store,
    clocks,
    purchases: () => purchases.all(),
    rowContext: (merchantId) => rowContextOf(deps, merchantId),
  });
  statements.resume();
  api.on(
    'GET',
    '/balance/',
    as(({ http, merchant }) => {
      const own = [...purchases.all()].filter((record) => record.merchantId === merchant.id);
      const refunds = rowContextOf(deps, merchant.id).refunds;
      sendJson(http.res, 200, balanceOf(own, refunds, Math.floor(clocks.for(merchant.id).nowMs() / 1000)));
    }),
  );
  api.on(
    'POST',
    '/company_statements/',
    as(async ({ http, merchant, baseUrl }) => {
      const given = withQueryParameters(await http.json(), http.url.searchParams);
      const read = 'issues' in given ? given : readStatementRequest(given.body);
      if ('issues' in read) throw V1HttpError.invalid(read.issues);
      sendJson(http.res, 201, statementView(statements.create(merchant.id, read.draft), baseUrl));
    }),
  );
  api.on(
    'GET',
    '/company_statements/',
    as(({ http, merchant, baseUrl }) => {
      const page = readPageRequest(http.url.searchParams);
      if ('issues' in page) throw V1HttpError.invalid(page.issues);
      const views = statements.list(merchant.id).map((record) => statementView(record, baseUrl));
      const url = new URL(`${http.url.pathname}${http.url.search}`, baseUrl);
      sendJson(http.res, 200, pageOf(views, page.request, url));
    }),
  );
  api.on(
    'GET',
    '/company_statements/:id/',
    as(({ http, merchant, params, baseUrl }) => {
      sendJson(http.res, 200, statementView(statements.get(merchant.id, params['id']!), baseUrl));
    }),
  );
  api.on(
    'POST',
    '/company_statements/:id/cancel/',
    as(({ http, merchant, params, baseUrl }) => {
      sendJson(http.res, 200, statementView(statements.cancel(merchant.id, params['id']!), baseUrl));
    }),
  );
  api.on(
    'GET',
    '/company_statements/:id/download/',
    as(async ({ http, merchant, params }) => {
      const record = statements.get(merchant.id, params['id']!);
      const { status, id, format, timezone } = record.statement;
      if (status !== 'ready') {
        throw V1HttpError.nonField(
          400,
          'statement_not_ready',
          `The statement is ${status}; download it once its status is ready`,
        );
      }
      const context = rowContextOf(deps, merchant.id);
      await download(http, {
        chunks: statementChunks(
          statements.rows(record, context),
          format ?? 'csv',
          context,
          new ZoneTime(timezone ?? 'UTC'),
        ),
        contentType: format === 'json' ? 'application/json; charset=utf-8' : 'text/csv; charset=utf-8',
        filename: `statement-${id}.${format ?? 'csv'}`,
      });
    }),
  );
}

/**
 * Streams the chunks: each is made when the connection takes more (backpressure), and a caller that goes
 * away stops the generator.
 */
async function download(
  http: RequestContext,
  file: { chunks: Iterable<string>; contentType: string; filename: string },
): Promise<void> {
  http.res.writeHead(200, {
    'content-type': file.contentType,
    'content-disposition': `attachment; filename="${file.filename}"`,
    'cache-control': 'no-store',
  });
  try {
    await pipeline(Readable.from(file.chunks, { highWaterMark: 4 }), http.res);
  } catch (error) {
    // A caller that hung up mid-file is not the sandbox's failure; anything else is logged.
    if ((error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') {
      console.error('svc-sandbox: a statement download failed', error);
    }
  }
}
