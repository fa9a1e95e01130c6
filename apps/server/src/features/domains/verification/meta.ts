/** Where the verification tag lives: `<meta name="tlprt-verification" content="<hash>">`. */
export const META_NAME = 'tlprt-verification';

type MetaCheck = { ok: true } | { ok: false; reason: string };

/**
 * Whether the <head> of `html` holds the verification meta tag with exactly `hash`.
 * `truncated` says the page was cut at the byte limit: then the head must close inside what was read,
 * since a tag past the cut cannot be seen and a tag in the body does not count.
 */
export function checkVerificationMeta(html: string, truncated: boolean, hash: string): MetaCheck {
  const visible = stripInvisible(html);
  const head = headOf(visible, truncated);
  if (head === null) return { ok: false, reason: 'the head is not closed within the read limit' };
  const contents = metaContents(head, META_NAME);
  if (contents.length === 0) return { ok: false, reason: 'no tlprt-verification meta tag in the head' };
  if (contents.includes(hash)) return { ok: true };
  return { ok: false, reason: 'the tlprt-verification meta tag holds another hash' };
}

/**
 * Removes comments and script/style bodies, where a tag is text rather than markup. An unclosed one
 * (often because of the byte limit) runs to the end, so nothing after it is trusted.
 */
function stripInvisible(html: string): string {
  return html
    .replace(/<!--[\s\S]*?(?:-->|$)/g, ' ')
    .replace(/<(script|style|template|textarea|title)\b[^>]*>[\s\S]*?(?:<\/\1\s*>|$)/gi, ' ');
}

/**
 * The head part of the document: everything before `</head>` or the opening `<body`, whichever comes
 * first (HTML lets authors omit both head tags). With neither, the whole page is the head unless it was
 * truncated, in which case the head's end is unknown.
 */
function headOf(html: string, truncated: boolean): string | null {
  const end = /<\/head\s*>|<body(?=[\s/>])/i.exec(html);
  if (end) return html.slice(0, end.index);
  return truncated ? null : html;
}

/** The `content` of every <meta> whose `name` is `name` (case-insensitive), trimmed. */
function metaContents(html: string, name: string): string[] {
  const found: string[] = [];
  for (const match of html.matchAll(/<meta(?=[\s/>])/gi)) {
    const attrs = parseAttributes(html, match.index + match[0].length);
    const content = attrs.get('content');
    if (attrs.get('name')?.trim().toLowerCase() === name && content !== undefined) found.push(content.trim());
  }
  return found;
}

/**
 * A small HTML attribute tokenizer: names up to whitespace, `/`, `>` or `=`; values double-quoted,
 * single-quoted or bare. The first occurrence of a name wins, as in browsers. Quoted values may hold `>`.
 */
function parseAttributes(html: string, start: number): Map<string, string> {
  const attrs = new Map<string, string>();
  let i = start;
  const skip = (re: RegExp): void => {
    while (i < html.length && re.test(html.charAt(i))) i++;
  };
  while (i < html.length) {
    skip(/[\s/]/);
    if (i >= html.length || html.charAt(i) === '>') break;
    const nameStart = i;
    i++; // The first character is part of the name even when it is `=` (HTML tokenizer rule).
    skip(/[^\s/>=]/);
    const attrName = html.slice(nameStart, i).toLowerCase();
    skip(/\s/);
    let value = '';
    if (html.charAt(i) === '=') {
      i++;
      skip(/\s/);
      [value, i] = readValue(html, i);
    }
    if (!attrs.has(attrName)) attrs.set(attrName, value);
  }
  return attrs;
}

function readValue(html: string, i: number): [value: string, next: number] {
  const quote = html.charAt(i);
  if (quote === '"' || quote === "'") {
    const close = html.indexOf(quote, i + 1);
    const end = close === -1 ? html.length : close;
    return [html.slice(i + 1, end), end + 1];
  }
  let end = i;
  while (end < html.length && !/[\s>]/.test(html.charAt(end))) end++;
  return [html.slice(i, end), end];
}
