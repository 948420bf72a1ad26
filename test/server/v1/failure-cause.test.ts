/** `readFailureCause`: why the newest attempt of a Purchase failed. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readFailureCause } from '../../../src/server/index.js';
import { attempt, attempts } from './recording-gateway.js';

describe('readFailureCause', () => {
  const failed = attempt({ error: { code: 'card_declined', message: 'Card declined' }, successful: false });

  test('reads the error of the newest attempt (the first), with the attempt', () => {
    assert.deepEqual(readFailureCause({ transaction_data: attempts(failed, attempt()) }), {
      code: 'card_declined',
      description: 'Card declined',
      attempt: failed,
    });
  });

  test("reads the sandbox's earlier error.description too", () => {
    const earlier = { error: { code: 'card_declined', description: 'Card declined' }, successful: false };
    const read = readFailureCause({ transaction_data: { attempts: [earlier] } } as never);
    assert.equal(read?.description, 'Card declined');
  });

  test('is undefined when the newest attempt succeeded or there is none', () => {
    assert.equal(readFailureCause({ transaction_data: attempts() }), undefined);
    assert.equal(readFailureCause({ transaction_data: attempts(attempt(), failed) }), undefined);
    assert.equal(readFailureCause({ transaction_data: attempts(attempt({ error: null })) }), undefined);
  });

  test('reads a Purchase that lacks what the type promises without throwing', () => {
    assert.equal(readFailureCause({} as never), undefined);
    assert.equal(readFailureCause({ transaction_data: null } as never), undefined);
    assert.equal(readFailureCause({ transaction_data: { attempts: 'none' } } as never), undefined);
    assert.equal(readFailureCause({ transaction_data: { attempts: [null] } } as never), undefined);
  });

  test('an error without code or description still tells of a failure', () => {
    const bare = attempt({ error: {} as never, successful: false });
    assert.deepEqual(readFailureCause({ transaction_data: attempts(bare) }), {
      code: 'unknown',
      description: '',
      attempt: bare,
    });
  });
});
