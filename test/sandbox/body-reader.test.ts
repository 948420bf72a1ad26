/**
 * The sandbox's one reader of JSON bodies: what each member reader takes, what it refuses under which code
 * and message, and how the legacy interfaces turn the first problem into their one 400.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BodyReader, type Json, oneOf, stringThat } from '../../src/sandbox/body-reader.js';
import { HttpError } from '../../src/sandbox/http.js';

/** Reads `body` with `read` and gives the value with every issue as `[field, code, message]`. */
function readWith<T>(body: Json, read: (reader: BodyReader, body: Json) => T) {
  const reader = new BodyReader();
  const value = read(reader, body);
  return { value, issues: reader.issues.map(({ field, code, message }) => [field, code, message]) };
}

describe('BodyReader', () => {
  test('string: absent and null read as nothing unless required; blank is refused when required', () => {
    const read = (body: Json, required = false) =>
      readWith(body, (reader) => reader.string(body, 'name', 'shop.name', required));
    assert.deepEqual(read({ name: 'Shop' }), { value: 'Shop', issues: [] });
    assert.deepEqual(read({ name: '  Shop ' }, true), { value: '  Shop ', issues: [] }, 'kept as written');
    assert.deepEqual(read({}), { value: undefined, issues: [] });
    assert.deepEqual(read({ name: null }), { value: undefined, issues: [] });
    assert.deepEqual(read({ name: ' ' }), { value: undefined, issues: [] }, 'an optional blank is none');
    assert.deepEqual(read({}, true).issues, [['shop.name', 'required', 'shop.name is required']]);
    assert.deepEqual(read({ name: null }, true).issues, [['shop.name', 'null', 'shop.name may not be null']]);
    assert.deepEqual(read({ name: ' \t' }, true).issues, [
      ['shop.name', 'blank', 'shop.name may not be blank'],
    ]);
    for (const wrong of [5, true, ['Shop'], { name: 'Shop' }]) {
      assert.deepEqual(read({ name: wrong }), {
        value: undefined,
        issues: [['shop.name', 'invalid', 'shop.name must be a string']],
      });
    }
    assert.deepEqual(
      readWith({ name: 'x' }, (reader, body) => reader.requiredString(body, 'other', 'other')).issues,
      [['other', 'required', 'other is required']],
    );
  });

  test('text: only "" reads as nothing; white space is kept for the caller to judge', () => {
    const read = (body: Json) => readWith(body, (reader) => reader.text(body, 'origin', 'pageOrigin'));
    assert.deepEqual(read({ origin: ' ' }), { value: ' ', issues: [] });
    assert.deepEqual(read({ origin: 'https://shop.example' }).value, 'https://shop.example');
    for (const none of [{}, { origin: null }, { origin: '' }]) {
      assert.deepEqual(read(none), { value: undefined, issues: [] });
    }
    assert.deepEqual(read({ origin: 42 }).issues, [['pageOrigin', 'invalid', 'pageOrigin must be a string']]);
  });

  test('integer: whole numbers within the limits, each limit its own code', () => {
    const limits = { min: 1, max: 10 };
    const read = (body: Json, required = false) =>
      readWith(body, (reader) => reader.integer(body, 'n', 'n', limits, required));
    assert.deepEqual(read({ n: 1 }), { value: 1, issues: [] });
    assert.deepEqual(read({ n: 10 }), { value: 10, issues: [] });
    assert.deepEqual(read({}), { value: undefined, issues: [] });
    assert.deepEqual(read({}, true).issues, [['n', 'required', 'n is required']]);
    assert.deepEqual(read({ n: null }, true).issues, [['n', 'null', 'n may not be null']]);
    assert.deepEqual(read({ n: 0 }).issues, [['n', 'min_value', 'n must be at least 1']]);
    assert.deepEqual(read({ n: 11 }).issues, [['n', 'max_value', 'n must be at most 10']]);
    for (const wrong of [1.5, '5', Number.NaN, [5]]) {
      assert.deepEqual(read({ n: wrong }).issues, [['n', 'invalid', 'n must be a whole number']], `${wrong}`);
    }
  });

  test('boolean: true or false only, and required when asked', () => {
    const read = (body: Json, required = false) =>
      readWith(body, (reader) => reader.boolean(body, 'approve', 'approve', required));
    assert.deepEqual(read({ approve: false }), { value: false, issues: [] });
    assert.deepEqual(read({ approve: true }, true), { value: true, issues: [] });
    assert.deepEqual(read({ approve: null }), { value: undefined, issues: [] });
    assert.deepEqual(read({}, true).issues, [['approve', 'required', 'approve is required']]);
    assert.deepEqual(read({ approve: null }, true).issues, [['approve', 'null', 'approve may not be null']]);
    for (const wrong of ['true', 1, 0]) {
      assert.deepEqual(read({ approve: wrong }).issues, [
        ['approve', 'invalid', 'approve must be true or false'],
      ]);
    }
  });

  test('object and array: each refuses the other and anything else', () => {
    const object = (body: Json, required = false) =>
      readWith(body, (reader) => reader.object(body, 'card', 'card', required));
    const array = (body: Json, required = false) =>
      readWith(body, (reader) => reader.array(body, 'items', 'order.items', required));
    assert.deepEqual(object({ card: { number: '4111' } }).value, { number: '4111' });
    assert.deepEqual(object({ card: [] }).issues, [['card', 'invalid', 'card must be an object']]);
    assert.deepEqual(object({ card: 'x' }).issues, [['card', 'invalid', 'card must be an object']]);
    assert.deepEqual(object({}, true).issues, [['card', 'required', 'card is required']]);
    assert.deepEqual(object({ card: null }), { value: undefined, issues: [] });
    assert.deepEqual(array({ items: [1, 'a'] }).value, [1, 'a']);
    assert.deepEqual(array({ items: {} }).issues, [
      ['order.items', 'invalid', 'order.items must be an array'],
    ]);
    assert.deepEqual(array({ items: null }, true).issues, [
      ['order.items', 'null', 'order.items may not be null'],
    ]);
    assert.deepEqual(array({}), { value: undefined, issues: [] });
  });

  test('url: absolute http(s) only, written as the URL parser writes it', () => {
    const read = (value: unknown) =>
      readWith({ to: value }, (reader, body) => reader.url(body, 'to', 'success_redirect'));
    assert.deepEqual(read('https://Shop.example/a%20b'), {
      value: 'https://shop.example/a%20b',
      issues: [],
    });
    assert.equal(read('https://bücher.example/ok').value, 'https://xn--bcher-kva.example/ok');
    assert.deepEqual(read('ftp://shop.example/').issues, [
      ['success_redirect', 'invalid', 'success_redirect must be an absolute http(s) URL'],
    ]);
    assert.deepEqual(read('/thanks').issues, [
      ['success_redirect', 'invalid', 'success_redirect must be an absolute http(s) URL'],
    ]);
    assert.deepEqual(read('https://shop.example/a\tb').issues, [
      [
        'success_redirect',
        'invalid',
        'success_redirect must not contain spaces or control characters; percent-encode them',
      ],
    ]);
    assert.deepEqual(read(null), { value: undefined, issues: [] });
  });

  test('where: what the test accepts, whatever its type; anything else one invalid issue with the message', () => {
    const isUuidLike = stringThat((text) => /^[0-9a-f-]{36}$/.test(text));
    const read = (body: Json, required = false) =>
      readWith(body, (reader) =>
        reader.where(body, 'id', 'brand_id', isUuidLike, 'brand_id must be a UUID', required),
      );
    const id = '00000000-0000-4000-8000-000000000000';
    assert.deepEqual(read({ id }), { value: id, issues: [] });
    for (const wrong of ['brand', ' ', 42, [id], { id }]) {
      assert.deepEqual(read({ id: wrong }).issues, [['brand_id', 'invalid', 'brand_id must be a UUID']]);
    }
    assert.deepEqual(read({ id: null }), { value: undefined, issues: [] });
    assert.deepEqual(read({}, true).issues, [['brand_id', 'required', 'brand_id is required']]);
    assert.deepEqual(read({ id: null }, true).issues, [['brand_id', 'null', 'brand_id may not be null']]);

    const format = (value: unknown) =>
      readWith({ format: value }, (reader, body) =>
        reader.where(
          body,
          'format',
          'format',
          oneOf(['csv', 'json'] as const),
          'format must be "csv" or "json"',
        ),
      );
    assert.equal(format('json').value, 'json');
    assert.deepEqual(format('CSV').issues, [['format', 'invalid', 'format must be "csv" or "json"']]);
    assert.equal(oneOf([true, 1])(1), true);
    assert.equal(oneOf([true, 1])('1'), false, 'compared with ===');
  });

  test('collects every problem, in the order read, with issues added by the caller', () => {
    const body = { a: 5, b: null, c: 'x' };
    const { issues } = readWith(body, (reader) => {
      reader.string(body, 'a', 'a');
      reader.object(body, 'b', 'b', true);
      const c = reader.string(body, 'c', 'c');
      if (c !== undefined && c.length < 2) reader.add('c', 'max_length', 'c is too short');
      reader.integer(body, 'd', 'd', { min: 0, max: 1 }, true);
    });
    assert.deepEqual(
      issues.map(([field, code]) => `${field}:${code}`),
      ['a:invalid', 'b:null', 'c:max_length', 'd:required'],
    );
  });

  test('throwFirst: nothing when all is well; else the first issue as one 400 invalid_request with its field', () => {
    const clean = new BodyReader();
    clean.string({ a: 'x' }, 'a', 'a', true);
    assert.doesNotThrow(() => clean.throwFirst());

    const reader = new BodyReader();
    const body = { card: { number: 4111 } };
    const card = reader.object(body, 'card', 'card', true);
    reader.string(body, 'idempotencyKey', 'idempotencyKey', true);
    if (card) reader.string(card, 'number', 'card.number', true);
    assert.equal(reader.issues.length, 2);
    assert.throws(
      () => reader.throwFirst(),
      (error: unknown) => {
        assert.ok(error instanceof HttpError);
        assert.equal(error.status, 400);
        assert.equal(error.code, 'invalid_request');
        assert.equal(error.field, 'idempotencyKey');
        assert.equal(error.message, 'idempotencyKey is required');
        return true;
      },
    );
  });
});
