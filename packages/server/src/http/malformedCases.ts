/**
 * Hostile requests for every route: bodies, query strings and path parameters that no client
 * should send. Built from a seeded generator, so every run sends the same requests and a
 * failure names a case that can be sent again.
 */

/** One request's variable parts; the route's URL is filled in by `fillPath`. */
export interface MalformedCase {
  name: string;
  /** Replaces each `:param` (and `*`) of the route's URL. */
  pathValue?: string;
  /** Appended to the URL after `?`, already encoded as a hostile client would. */
  query?: string;
  contentType?: string;
  /** The raw body bytes as sent. */
  body?: string;
}

/** mulberry32: a small deterministic generator, enough for picking cases. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The server reads at most 256 KiB of body; the huge string stays below that so it is parsed.
const hugeString = 'x'.repeat(200_000);
const fortyDigits = '1234567890'.repeat(4);

/** Values of the wrong kind, or of the right kind and absurd: each field gets some of these. */
const hostileValues: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  1e308,
  -1e-308,
  Number.MAX_SAFE_INTEGER + 2,
  '',
  ' ',
  '-1',
  '-0.5',
  '0',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e5',
  '1E-7',
  '0x10',
  ' 1 ',
  '1,5',
  fortyDigits,
  `${fortyDigits}.${fortyDigits}`,
  `0.${'0'.repeat(60)}1`,
  '１２３',
  'ünïcødé ✓ 𝄞',
  '\u0000',
  '../../etc/passwd',
  "' or 1=1 --",
  '<script>',
  [],
  ['1', '2'],
  {},
  { amount: '1' },
  hugeString,
];

/** Field names the API's bodies and queries use; unknown to some routes on purpose. */
export const commonFields = [
  'amount',
  'price',
  'stop_price',
  'pair',
  'pairName',
  'direction',
  'ticker',
  'currency',
  'address',
  'memo',
  'code',
  'totp',
  'email',
  'password',
  'newPassword',
  'name',
  'scopes',
  'ipAllowList',
  'id',
  'ids',
  'limit',
  'offset',
  'from',
  'to',
  'status',
  'format',
  'period',
  'interval',
  'token',
  'recipient',
  'paymentKey',
];

/** Query values, already percent-encoded where a client would have to. */
const hostileQueryValues = [
  '',
  '-1',
  '0',
  '1.5',
  'NaN',
  'Infinity',
  '1e400',
  '9007199254740993',
  fortyDigits,
  '%00',
  '%C3%BC',
  'csv',
  'all',
  'BTC_USDT%00',
  'true',
  '%5B%5D',
];

/** Query parameters the API's lists and charts read; sent to every route. */
const commonQueryParams = [
  'pair',
  'pairName',
  'side',
  'type',
  'from',
  'to',
  'offset',
  'limit',
  'format',
  'interval',
  'ticker',
  'status',
  'network',
  'token',
];

function nested(depth: number, open: string, close: string, leaf: string): string {
  return open.repeat(depth) + leaf + close.repeat(depth);
}

/** Bodies that are not a JSON object, or not JSON, or not readable at all. */
function unreadableBodies(): MalformedCase[] {
  const json = 'application/json';
  return [
    { name: 'text/plain body', contentType: 'text/plain', body: 'amount=1' },
    { name: 'form body', contentType: 'application/x-www-form-urlencoded', body: 'amount=1&a=2' },
    { name: 'multipart body', contentType: 'multipart/form-data; boundary=x', body: '--x--' },
    { name: 'xml body', contentType: 'application/xml', body: '<a>1</a>' },
    { name: 'garbage content type', contentType: ';;;/', body: '{}' },
    { name: 'invalid JSON', contentType: json, body: '{"amount":' },
    { name: 'empty JSON body', contentType: json, body: '' },
    { name: 'JSON with a trailing comma', contentType: json, body: '{"a":1,}' },
    { name: 'JSON array', contentType: json, body: '[1,2]' },
    { name: 'JSON number', contentType: json, body: '42' },
    { name: 'JSON null', contentType: json, body: 'null' },
    { name: 'JSON string', contentType: json, body: '"amount"' },
    { name: 'JSON true', contentType: json, body: 'true' },
    { name: 'JSON with a charset', contentType: `${json}; charset=latin1`, body: '{"a":"\u00e9"}' },
    { name: 'body over the limit', contentType: json, body: `{"a":"${'y'.repeat(300_000)}"}` },
    { name: 'deeply nested object', contentType: json, body: nested(5_000, '{"a":', '}', '1') },
    { name: 'deeply nested array', contentType: json, body: nested(20_000, '[', ']', '') },
    {
      name: 'prototype keys',
      contentType: json,
      body: '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}',
    },
    { name: 'missing fields', contentType: json, body: '{"unknownField":1}' },
  ];
}

/** Objects whose fields carry hostile values: `count` of them, chosen by `random`. */
function hostileObjects(fields: string[], random: () => number, count: number): MalformedCase[] {
  const names = [...new Set([...fields, ...commonFields])];
  const cases: MalformedCase[] = [];
  for (let index = 0; index < count; index += 1) {
    const body: Record<string, unknown> = {};
    for (const field of names) {
      // Route's own fields always, the shared ones half the time: both known and unknown.
      if (!fields.includes(field) && random() < 0.5) continue;
      body[field] = hostileValues[Math.floor(random() * hostileValues.length)];
    }
    cases.push({
      name: `hostile fields #${index}`,
      contentType: 'application/json',
      body: JSON.stringify(body),
    });
  }
  // The same value in every field, once per value: each value reaches each field at least once.
  for (const [index, value] of hostileValues.entries()) {
    if (value === hugeString) continue;
    const body = Object.fromEntries(fields.map((field) => [field, value]));
    if (fields.length === 0) continue;
    cases.push({
      name: `every field = hostile value #${index}`,
      contentType: 'application/json',
      body: JSON.stringify(body),
    });
  }
  return cases;
}

/** Query strings with repeated keys, arrays, bad numbers and broken percent-encoding. */
function hostileQueries(params: string[], random: () => number): MalformedCase[] {
  const names = [...new Set([...params, ...commonQueryParams])];
  const each = (value: string) => names.map((name) => `${name}=${value}`).join('&');
  // One parameter at a time too: with all of them wrong, the first refusal hides the rest.
  const single = Array.from({ length: 8 }, (_unused, index) => {
    const name = names[Math.floor(random() * names.length)] as string;
    const value = hostileQueryValues[Math.floor(random() * hostileQueryValues.length)] as string;
    return { name: `query ${name}=${value.slice(0, 20)} #${index}`, query: `${name}=${value}` };
  });
  return [
    ...single,
    { name: 'repeated query keys', query: `${each('1')}&${each('2')}` },
    { name: 'array query values', query: names.map((n) => `${n}[]=1&${n}[]=2`).join('&') },
    { name: 'object query values', query: names.map((n) => `${n}[a]=1`).join('&') },
    { name: 'negative query numbers', query: each('-1') },
    { name: 'NaN query values', query: each('NaN') },
    { name: 'exponent query values', query: each('1e400') },
    { name: '40-digit query values', query: each(fortyDigits) },
    { name: 'empty query values', query: each('') },
    { name: 'unicode query values', query: each('%C3%BC%F0%9D%84%9E') },
    { name: 'broken percent-encoding', query: each('%E0%A4%A') },
    { name: 'NUL in query', query: each('%00') },
    { name: 'long query value', query: each('q'.repeat(1_000)) },
  ];
}

/** Values for path parameters: empty, huge, non-numeric, unicode, traversal. */
const hostilePathValues: [string, string][] = [
  ['empty path param', ''],
  ['non-numeric path param', 'abc'],
  ['negative path param', '-1'],
  ['zero path param', '0'],
  ['fractional path param', '1.5'],
  ['exponent path param', '1e3'],
  ['40-digit path param', fortyDigits],
  ['very long path param', 'z'.repeat(3_000)],
  ['unicode path param', '%C3%BC%F0%9D%84%9E'],
  ['dot-dot path param', '..%2F..%2Fetc%2Fpasswd'],
  ['raw dot-dot path param', '../..'],
  ['NUL path param', '%00'],
  ['lone percent path param', '%'],
  ['SQL in path param', "'%20or%201=1"],
];

export function hasPathParams(url: string): boolean {
  return /[:*]/.test(url);
}

/** The route's URL with every parameter replaced (a plain `1` when none is given). */
export function fillPath(url: string, value = '1'): string {
  return url.replace(/:[A-Za-z_]\w*/g, value).replace(/\*/g, value);
}

export interface RouteShape {
  method: string;
  url: string;
  /** Body fields the route documents. */
  bodyFields: string[];
  /** Query parameters the route documents. */
  queryParams: string[];
  /**
   * A well-formed body the route refuses late (too large an amount, a wrong code), so a
   * change to one of its fields reaches the route's deeper checks.
   */
  baseline?: Record<string, unknown>;
}

/**
 * The baseline with one field changed at a time: each field gets `perField` hostile values,
 * and once it is left out and once doubled as an array.
 */
function fieldMutations(
  baseline: Record<string, unknown>,
  random: () => number,
  perField: number,
): MalformedCase[] {
  const cases: MalformedCase[] = [];
  const json = 'application/json';
  for (const field of Object.keys(baseline)) {
    for (let index = 0; index < perField; index += 1) {
      const value = hostileValues[Math.floor(random() * hostileValues.length)];
      cases.push({
        name: `${field} = ${JSON.stringify(value)?.slice(0, 40)}`,
        contentType: json,
        body: JSON.stringify({ ...baseline, [field]: value }),
      });
    }
    const { [field]: left, ...rest } = baseline;
    cases.push({ name: `${field} missing`, contentType: json, body: JSON.stringify(rest) });
    cases.push({
      name: `${field} as an array`,
      contentType: json,
      body: JSON.stringify({ ...baseline, [field]: [left, left] }),
    });
  }
  cases.push({
    name: 'baseline with an unknown field',
    contentType: json,
    body: JSON.stringify({ ...baseline, unknownField: { nested: [1] } }),
  });
  return cases;
}

/** Every malformed request for one route, the same on every run for the same seed. */
export function casesForRoute(route: RouteShape, seed: number): MalformedCase[] {
  const random = seededRandom(seed);
  const cases: MalformedCase[] = [];
  const takesBody = route.method !== 'GET' && route.method !== 'HEAD';
  if (takesBody) {
    cases.push(...unreadableBodies());
    const fields = [...new Set([...route.bodyFields, ...Object.keys(route.baseline ?? {})])];
    cases.push(...hostileObjects(fields, random, 4));
    if (route.baseline !== undefined) cases.push(...fieldMutations(route.baseline, random, 6));
  }
  cases.push(...hostileQueries(route.queryParams, random));
  if (hasPathParams(route.url)) {
    for (const [name, pathValue] of hostilePathValues) cases.push({ name, pathValue });
  }
  return cases;
}
