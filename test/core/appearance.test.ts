import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { appearanceEntries, appearanceToCss, sanitizeAppearance } from '../../src/core/appearance.js';
import { checkAppearance, collectAppearance } from '../../src/core/appearance-messages.js';
import {
  type Appearance,
  DEFAULT_APPEARANCE,
  DESIGN_TOKENS,
  TOKEN_NAMES,
  type TokenName,
  tokenVar,
} from '../../src/core/design-tokens.js';

const COLOR_TOKENS = DESIGN_TOKENS.filter((token) => token.kind === 'color').map((token) => token.name);

/**
 * Reads `:root{...}` as a CSS tokenizer would, and fails unless it is one rule of declarations whose names
 * are design tokens and whose values cannot leave their declaration: no braces, semicolons, backslashes,
 * angle brackets or at-signs outside strings, every string closed on the same quote, no function but the
 * colour functions.
 */
function assertDeclarationsOnly(css: string): Array<[string, string]> {
  assert.ok(css.startsWith(':root{') && css.endsWith('}'), css);
  const body = css.slice(':root{'.length, -1);
  const declarations: Array<[string, string]> = [];
  let i = 0;
  while (i < body.length) {
    const colon = body.indexOf(':', i);
    assert.ok(colon > i, `no declaration name at ${i} in ${css}`);
    const name = body.slice(i, colon);
    assert.ok((TOKEN_NAMES as readonly string[]).includes(name), `unknown property ${name}`);
    let j = colon + 1;
    let quote: string | undefined;
    for (; j < body.length; j++) {
      const c = body[j]!;
      assert.ok(!/[\\\n\r<>@{}]/.test(c), `forbidden ${JSON.stringify(c)} in ${css}`);
      if (quote) {
        if (c === quote) quote = undefined;
      } else if (c === '"' || c === "'") quote = c;
      else if (c === ';') break;
    }
    assert.equal(quote, undefined, `unclosed string in ${css}`);
    assert.equal(body[j], ';', `declaration of ${name} does not end with ; in ${css}`);
    const value = body.slice(colon + 1, j);
    assert.notEqual(value.trim(), '', `empty value of ${name}`);
    for (const fn of value.matchAll(/([A-Za-z-]*)\(/g)) {
      assert.match(fn[1]!, /^(rgba?|hsla?)$/i, `function ${fn[1]}( in ${css}`);
    }
    declarations.push([name, value]);
    i = j + 1;
  }
  return declarations;
}

describe('DESIGN_TOKENS', () => {
  // The names themselves (unique `--svc-*` properties, the same list as DESIGN_TOKEN_NAMES) are held in
  // design-token-names.test.ts, and to the element's documented @cssproperty list in test/element/define.test.ts.
  test('each token has a kind its values are checked by', () => {
    for (const token of DESIGN_TOKENS) {
      assert.ok(['color', 'length', 'font-family'].includes(token.kind));
    }
  });

  test('every default passes its own check unchanged', () => {
    assert.deepEqual(checkAppearance({ ...DEFAULT_APPEARANCE }), {
      appearance: DEFAULT_APPEARANCE,
      rejected: [],
    });
  });

  test('tokenVar falls back to the default', () => {
    assert.equal(
      tokenVar('--svc-color-primary'),
      `var(--svc-color-primary, ${DEFAULT_APPEARANCE['--svc-color-primary']})`,
    );
  });
});

describe('sanitizeAppearance keeps good values', () => {
  test('colours: hex, colour functions with numbers, names', () => {
    const good = [
      '#fff',
      '#FFFF',
      '#1a56db',
      '#1a56dbcc',
      'rgb(26, 86, 219)',
      'rgba(26,86,219,0.5)',
      'rgb(26 86 219)',
      'rgb(26 86 219 / 50%)',
      'RGB(10%, 20%, 30%)',
      'hsl(220, 79%, 48%)',
      'hsla(220deg, 79%, 48%, .8)',
      'hsl(220 79% 48% / 0.8)',
      'rebeccapurple',
      'transparent',
    ];
    for (const value of good) {
      assert.deepEqual(
        sanitizeAppearance({ '--svc-color-primary': value }),
        { '--svc-color-primary': value },
        value,
      );
    }
    assert.deepEqual(sanitizeAppearance({ '--svc-color-text': '  DarkSlateGray ' }), {
      '--svc-color-text': 'darkslategray',
    });
  });

  test('lengths within each token range', () => {
    assert.deepEqual(
      sanitizeAppearance({
        '--svc-font-size': '15px',
        '--svc-border-radius': '50%',
        '--svc-spacing': '0',
        '--svc-input-height': '3rem',
      }),
      {
        '--svc-font-size': '15px',
        '--svc-border-radius': '50%',
        '--svc-spacing': '0',
        '--svc-input-height': '3rem',
      },
    );
    assert.deepEqual(sanitizeAppearance({ '--svc-font-size': '1.125em' }), { '--svc-font-size': '1.125em' });
    assert.deepEqual(sanitizeAppearance({ '--svc-font-size': '87.5%' }), { '--svc-font-size': '87.5%' });
    assert.deepEqual(sanitizeAppearance({ '--svc-spacing': '.75rem' }), { '--svc-spacing': '.75rem' });
    assert.deepEqual(sanitizeAppearance({ '--svc-border-radius': '0px' }), { '--svc-border-radius': '0px' });
  });

  test('font families: names, quoted names, generic families', () => {
    for (const value of [
      'Inter',
      'Inter, sans-serif',
      '"Open Sans", Arial, sans-serif',
      "'Source Sans 3', system-ui",
      '-apple-system, BlinkMacSystemFont',
    ]) {
      assert.deepEqual(
        sanitizeAppearance({ '--svc-font-family': value }),
        { '--svc-font-family': value },
        value,
      );
    }
    assert.deepEqual(sanitizeAppearance({ '--svc-font-family': 'Inter ,  Arial' }), {
      '--svc-font-family': 'Inter, Arial',
    });
  });

  test('unset tokens (empty computed values) are skipped quietly', () => {
    assert.deepEqual(checkAppearance({ '--svc-color-text': '', '--svc-spacing': '   ' }), {
      appearance: {},
      rejected: [],
    });
  });
});

describe('sanitizeAppearance drops hostile and wrong values', () => {
  const hostile: ReadonlyArray<[TokenName, string]> = [
    ['--svc-color-primary', 'red;background:url(https://evil.example/x)'],
    ['--svc-color-primary', '#fff}body{background:red'],
    ['--svc-color-primary', 'url(https://evil.example/x)'],
    ['--svc-color-primary', 'var(--svc-color-text)'],
    ['--svc-color-primary', 'expression(alert(1))'],
    ['--svc-color-primary', 'red\\3b background:blue'],
    ['--svc-color-primary', '</style><script>alert(1)</script>'],
    ['--svc-color-primary', 'red !important'],
    ['--svc-color-primary', 'rgb(calc(1), 2, 3)'],
    ['--svc-color-primary', 'rgb(1, 2, 3'],
    ['--svc-color-primary', 'rgb(1,2)'],
    ['--svc-color-primary', 'color-mix(in srgb, red, blue)'],
    ['--svc-color-primary', 'image(url(x))'],
    ['--svc-color-primary', '#ggg'],
    ['--svc-color-primary', '#12345'],
    ['--svc-color-primary', 'notacolor'],
    ['--svc-color-primary', 'inherit'],
    ['--svc-color-primary', 'red\nblue'],
    ['--svc-font-family', '@import "https://evil.example/x.css"'],
    ['--svc-font-family', '"Arial'],
    ['--svc-font-family', "Arial'"],
    ['--svc-font-family', '"Arial\''],
    ['--svc-font-family', 'Arial;}'],
    ['--svc-font-family', 'Arial, , serif'],
    ['--svc-font-family', 'expression'],
    ['--svc-font-family', 'inherit'],
    ['--svc-font-family', 'Arial\\'],
    ['--svc-font-family', 'a'.repeat(201)],
    ['--svc-font-family', 'url(x)'],
    ['--svc-font-family', '"Arial;}body{background:red}"'],
    ['--svc-font-family', '"x</style><script>"'],
    ['--svc-font-family', "'a\\', serif"],
    ['--svc-font-family', '"url(x)"'],
    ['--svc-font-size', '16px;'],
    ['--svc-font-size', '1e1px'],
    ['--svc-font-size', '16'],
    ['--svc-font-size', '-16px'],
    ['--svc-font-size', '100px'],
    ['--svc-font-size', '9px'],
    ['--svc-font-size', '300%'],
    ['--svc-font-size', 'calc(10px + 2px)'],
    ['--svc-font-size', '16 px'],
    ['--svc-font-size', '16vw'],
    ['--svc-border-radius', '40px'],
    ['--svc-border-radius', '60%'],
    ['--svc-spacing', '10%'],
    ['--svc-spacing', '49px'],
    ['--svc-input-height', '0'],
    ['--svc-input-height', '20px'],
    ['--svc-input-height', '7rem'],
  ];

  for (const [name, value] of hostile) {
    test(`${name}: ${JSON.stringify(value).slice(0, 60)}`, () => {
      const check = checkAppearance({ [name]: value });
      assert.deepEqual(check.appearance, {});
      assert.equal(check.rejected.length, 1);
      assert.equal(check.rejected[0]!.name, name);
      assert.ok(check.rejected[0]!.message.startsWith(name), check.rejected[0]!.message);
    });
  }

  test('unknown tokens and non-string values are reported, and nothing is read from the prototype', () => {
    const raw = JSON.parse(
      '{"--svc-colour-primary": "red", "color": "red", "__proto__": {"--svc-color-text": "red"}, "--svc-spacing": 8}',
    );
    const check = checkAppearance(raw);
    assert.deepEqual(check.appearance, {});
    assert.deepEqual(
      check.rejected.map((r) => [r.name, r.code]),
      [
        ['--svc-colour-primary', 'unknown_token'],
        ['color', 'unknown_token'],
        ['__proto__', 'unknown_token'],
        ['--svc-spacing', 'not_a_string'],
      ],
    );
    assert.deepEqual(checkAppearance(Object.create({ '--svc-color-text': 'red' })), {
      appearance: {},
      rejected: [],
    });
  });

  test('range and grammar refusals say which', () => {
    const check = checkAppearance({
      '--svc-font-size': '100px',
      '--svc-spacing': 'big',
      '--svc-color-error': 'x',
    });
    assert.deepEqual(
      check.rejected.map((r) => r.code),
      ['length_out_of_range', 'invalid_length', 'invalid_color'],
    );
    assert.match(check.rejected[0]!.message, /10px to 32px, or 62\.5% to 200%/);
  });

  test('anything but an object gives an empty appearance', () => {
    for (const raw of [null, undefined, 'red', 42, ['#fff']]) {
      assert.deepEqual(checkAppearance(raw), { appearance: {}, rejected: [] });
    }
  });

  test('property: a value carrying ; } url( \\ or < is dropped, for every token', () => {
    const poison = fc.constantFrom(';', '}', 'url(', '\\', '<', '{', 'var(', '@import', '"');
    fc.assert(
      fc.property(
        fc.constantFrom(...DESIGN_TOKENS),
        fc.oneof(fc.string(), fc.constantFrom(...Object.values(DEFAULT_APPEARANCE), '#fff', '12px', 'Arial')),
        poison,
        fc.string(),
        fc.constantFrom('', '"', "'"),
        (token, before, bad, after, quote) => {
          // Wrapped in quotes too: a forbidden character is as forbidden inside a CSS string.
          const value = quote + before + bad + after + quote;
          // A lone quote may still be balanced by one in the random text; only the others are always fatal.
          if (bad === '"' && (value.split('"').length - 1) % 2 === 0) return;
          assert.deepEqual(sanitizeAppearance({ [token.name]: value }), {}, `${token.name}: ${value}`);
        },
      ),
      { numRuns: 2000 },
    );
  });

  test('property: random hex colours of every length are kept', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...COLOR_TOKENS),
        fc.constantFrom(3, 4, 6, 8),
        fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), minLength: 8, maxLength: 8 }),
        (name, length, digits) => {
          const value = `#${digits.slice(0, length)}`;
          assert.deepEqual(sanitizeAppearance({ [name]: value }), { [name]: value });
        },
      ),
    );
  });
});

describe('appearanceToCss and appearanceEntries', () => {
  test('write the sanitized declarations in token order', () => {
    const appearance: Appearance = {
      '--svc-spacing': '8px',
      '--svc-color-primary': '#0a0',
      '--svc-font-family': '"Open Sans", sans-serif',
    };
    assert.equal(
      appearanceToCss(appearance),
      ':root{--svc-color-primary:#0a0;--svc-font-family:"Open Sans", sans-serif;--svc-spacing:8px;}',
    );
    assert.deepEqual(appearanceEntries(appearance), [
      ['--svc-color-primary', '#0a0'],
      ['--svc-font-family', '"Open Sans", sans-serif'],
      ['--svc-spacing', '8px'],
    ]);
    assert.equal(appearanceToCss({}), ':root{}');
  });

  test('re-check values, so an appearance not made by sanitizeAppearance is safe too', () => {
    const forged = {
      '--svc-color-primary': 'red;}body{display:none',
      '--svc-color-text': '#000',
    } as Appearance;
    assert.equal(appearanceToCss(forged), ':root{--svc-color-text:#000;}');
    const withExtra = { '--svc-color-text': '#000', 'background-image': 'url(x)' } as Appearance;
    assert.equal(appearanceToCss(withExtra), ':root{--svc-color-text:#000;}');
  });

  test('the defaults read as declarations only', () => {
    const declarations = assertDeclarationsOnly(appearanceToCss(DEFAULT_APPEARANCE));
    assert.equal(declarations.length, DESIGN_TOKENS.length);
  });

  test('property: any input gives one rule of allow-listed declarations only', () => {
    const tokenValue = fc.oneof(
      fc.string(),
      fc.string({ unit: fc.constantFrom(...'#0123456789abcdef(),.%/ rgbhslapxem;}{"\'\\<url') }),
      fc.constantFrom(...Object.values(DEFAULT_APPEARANCE), 'rgb(1 2 3 / 50%)', '"A", \'B\'', '2rem', 'red'),
    );
    const key = fc.oneof(fc.constantFrom(...TOKEN_NAMES), fc.string());
    fc.assert(
      fc.property(fc.dictionary(key, tokenValue), (raw) => {
        const css = appearanceToCss(raw as Appearance);
        const declarations = assertDeclarationsOnly(css);
        assert.deepEqual(declarations, appearanceEntries(sanitizeAppearance(raw)));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('collectAppearance', () => {
  test('reads every token once, skips unset ones and reports bad ones', () => {
    const asked: string[] = [];
    const style: Record<string, string> = {
      '--svc-color-primary': ' #123456',
      '--svc-border-radius': '100px',
      '--svc-spacing': '',
    };
    const check = collectAppearance((name) => {
      asked.push(name);
      return style[name] ?? '';
    });
    assert.deepEqual(asked, [...TOKEN_NAMES]);
    assert.deepEqual(check.appearance, { '--svc-color-primary': '#123456' });
    assert.deepEqual(
      check.rejected.map((r) => [r.name, r.code]),
      [['--svc-border-radius', 'length_out_of_range']],
    );
  });

  test('a reader that returns null or undefined counts as unset', () => {
    assert.deepEqual(
      collectAppearance(() => null),
      { appearance: {}, rejected: [] },
    );
    assert.deepEqual(
      collectAppearance(() => undefined),
      { appearance: {}, rejected: [] },
    );
  });
});
