/**
 * The first JSON syntax error in `text`, as an offset and a sentence, or null.
 *
 * A .json configuration file is parsed as YAML afterwards (for node positions),
 * and YAML accepts what JSON does not — a trailing comma, a comment, a bare key —
 * so a file other JSON tools reject would load here and break them. JSON.parse
 * cannot say where it failed in every case, hence this scanner: iterative (no
 * recursion, so no nesting depth can overflow the stack) and linear.
 */
export function jsonSyntaxError(text: string): { offset: number; message: string } | null {
  const n = text.length;
  let i = 0;
  const stack: Array<'}' | ']'> = [];
  const fail = (message: string, at = i) => ({ offset: at, message });
  const skipSpace = () => {
    while (i < n && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const string = (): { offset: number; message: string } | null => {
    const start = i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return null;
      }
      if (c === 0x5c) {
        const next = text[i + 1] ?? '';
        if ('"\\/bfnrt'.includes(next) && next !== '') i += 2;
        else if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else return fail(`a bad escape "\\${next}" in a string`);
      } else if (c < 0x20) {
        return fail('a control character in a string (write a line break as \\n, a tab as \\t)');
      } else i++;
    }
    return fail('a string that is never closed', start);
  };
  const key = () => {
    skipSpace();
    if (text[i] !== '"')
      return fail(
        i >= n ? 'the file ends where a property name was expected' : `${unexpected(text, i)}; expected a property name in double quotes`,
      );
    const e = string();
    if (e) return e;
    skipSpace();
    if (text[i] !== ':') return fail(`${i >= n ? 'the file ends' : unexpected(text, i)}; expected ":" after the property name`);
    i++;
    return null;
  };
  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

  for (;;) {
    // A value.
    skipSpace();
    if (i >= n) return fail(stack.length === 0 ? 'the file holds no JSON value' : 'the file ends where a value was expected');
    const c = text[i]!;
    if (c === '{' || c === '[') {
      i++;
      skipSpace();
      const close = c === '{' ? '}' : ']';
      if (text[i] === close) i++;
      else {
        stack.push(close);
        if (close === '}') {
          const e = key();
          if (e) return e;
        }
        continue;
      }
    } else if (c === '"') {
      const e = string();
      if (e) return e;
    } else if (text.startsWith('true', i) || text.startsWith('null', i)) i += 4;
    else if (text.startsWith('false', i)) i += 5;
    else {
      NUMBER.lastIndex = i;
      if (!NUMBER.test(text) || NUMBER.lastIndex === i) return fail(`${unexpected(text, i)}; expected a value`);
      i = NUMBER.lastIndex;
    }
    // After a value: commas and closing brackets, until another value is due.
    for (;;) {
      skipSpace();
      const close = stack.at(-1);
      if (close === undefined) return i < n ? fail(`${unexpected(text, i)} after the JSON value`) : null;
      if (text[i] === close) {
        stack.pop();
        i++;
        continue;
      }
      if (text[i] !== ',') return fail(`${i >= n ? 'the file ends' : unexpected(text, i)}; expected "," or "${close}"`);
      const comma = i++;
      skipSpace();
      if (text[i] === close) return fail('a trailing comma (JSON allows none)', comma);
      if (close === '}') {
        const e = key();
        if (e) return e;
      }
      break;
    }
  }
}

function unexpected(text: string, i: number): string {
  const c = text[i]!;
  if (c === '#' || (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*'))) return 'a comment (JSON has none)';
  if (c === "'") return 'a single-quoted string (JSON strings use double quotes)';
  const word = /^[A-Za-z_$][\w$-]*/.exec(text.slice(i, i + 40))?.[0];
  if (word) return `"${word}" (JSON strings and names are in double quotes)`;
  return `unexpected "${c}"`;
}
