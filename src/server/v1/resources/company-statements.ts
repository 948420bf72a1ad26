/**
 * `/company_statements/`: files of the merchant's Purchases made in the background; waiting for one and
 * streaming it are in ../statements.ts.
 */
import type { CompanyStatement, CreateCompanyStatementRequest } from '../../../core/v1-types.js';
import {
  expect,
  requireObject,
  segment,
  type V1Core,
  type V1QueryValue,
  type V1RequestOptions,
} from '../client-core.js';
import type { V1List } from '../pagination.js';
import {
  openStatementDownload,
  type V1StatementDownload,
  type V1StatementWaitOptions,
  waitForStatement,
} from '../statements.js';

/**
 * Company statements: files of the merchant's Purchases (CSV or JSON), made in the background. Create one,
 * then {@link V1Statements.download} it, which waits until it is ready and streams it.
 */
export interface V1Statements {
  /**
   * `POST /company_statements/`: `format`, `timezone` and any of the document's filters, all in the body.
   * @throws V1ApiError `invalid_request` before sending when the body is not an object; `bad_request` naming
   *   each refused member (an unknown filter, a time zone Intl does not know, `total` not `[min, max]` ...).
   */
  create(body: CreateCompanyStatementRequest, options?: V1RequestOptions): Promise<CompanyStatement>;
  /** `GET /company_statements/`, newest first, page by page. */
  list(query?: Record<string, V1QueryValue>, options?: V1RequestOptions): V1List<CompanyStatement>;
  /**
   * `GET /company_statements/{id}/`.
   * @throws V1ApiError `not_found`.
   */
  get(id: string, options?: V1RequestOptions): Promise<CompanyStatement>;
  /**
   * `POST /company_statements/{id}/cancel/`: stops a statement that is not ready yet.
   * @throws V1ApiError `bad_request` (`statement_cancel_error`) when it is ready already; `not_found`.
   */
  cancel(id: string, options?: V1RequestOptions): Promise<CompanyStatement>;
  /**
   * Asks every `intervalMs` until the statement is `ready`, for at most `waitMs`.
   * @throws V1ApiError `timeout` when it is not ready in time; `invalid_request` when it was cancelled;
   *   `aborted`; as {@link V1Statements.get}.
   */
  waitUntilReady(id: string, options?: V1StatementWaitOptions): Promise<CompanyStatement>;
  /**
   * Waits until the statement is ready, then starts its download (with the secret key, which its
   * `download_url` needs) and resolves once the answer's headers arrived; the file streams as it is read.
   * @throws V1ApiError as {@link V1Statements.waitUntilReady}; `invalid_response` when `download_url` leaves
   *   the gateway's origin.
   * @example
   * ```ts
   * const statement = await v1.statements.create({ format: 'csv', timezone: 'Europe/Riga', status: 'paid' });
   * const file = await v1.statements.download(statement.id, { waitMs: 120_000 });
   * res.setHeader('content-type', file.contentType);
   * for await (const chunk of file) res.write(chunk);
   * res.end();
   * ```
   */
  download(id: string, options?: V1StatementWaitOptions): Promise<V1StatementDownload>;
}

function expectStatement(value: unknown): CompanyStatement {
  return expect<CompanyStatement>(
    value,
    'CompanyStatement',
    (record) => typeof record['id'] === 'string' && typeof record['status'] === 'string',
  );
}

export function companyStatementsResource({ send, urlOf, list, settings }: V1Core): V1Statements {
  const statementPath = (id: string, action = '') => `/company_statements/${segment(id, 'id')}/${action}`;

  async function getStatement(
    id: string,
    callOptions: V1RequestOptions | undefined,
  ): Promise<CompanyStatement> {
    return expectStatement(await send('GET', urlOf(statementPath(id)), undefined, callOptions));
  }

  return {
    async create(body, callOptions) {
      requireObject(body, 'The statement body must be an object');
      return expectStatement(await send('POST', urlOf('/company_statements/'), body, callOptions));
    },
    list(query, listOptions) {
      return list<CompanyStatement>('/company_statements/', query, listOptions);
    },
    get: getStatement,
    async cancel(id, callOptions) {
      return expectStatement(await send('POST', urlOf(statementPath(id, 'cancel/')), undefined, callOptions));
    },
    waitUntilReady(id, waitOptions) {
      return waitForStatement(id, (callOptions) => getStatement(id, callOptions), waitOptions);
    },
    async download(id, waitOptions = {}) {
      const statement = await waitForStatement(
        id,
        (callOptions) => getStatement(id, callOptions),
        waitOptions,
      );
      return openStatementDownload(statement, {
        fetch: settings.fetch,
        authorization: settings.authorization,
        origin: settings.origin,
        timeoutMs: settings.timeoutMs,
        ...(waitOptions.signal && { signal: waitOptions.signal }),
      });
    },
  };
}
