/**
 * Which request field an error message of the service is about, so a form can show the message
 * next to that field. The service's validation messages follow Flipt's wording:
 * `invalid field <field>: <reason>`, `<resource> "<ns>/<key>" is not unique` (a variant's ends
 * `… is not unique for flag "<ns>/<key>"`), and a few messages
 * about a constraint's property, operator or value.
 */

const PATTERNS: ReadonlyArray<readonly [RegExp, string | ((m: RegExpMatchArray) => string)]> = [
  [/^invalid field ([^:]+):/, (m) => m[1] ?? ''],
  [/ is not unique(?: for flag "[^"]*")?$/, 'key'],
  [/^parsing datetime from /, 'value'],
  [/^invalid value provided for property /, 'value'],
  [/^too many values provided for property /, 'value'],
  [/^constraint operator .* is not valid for type /, 'operator'],
  [/^invalid constraint type: /, 'type'],
  [/^property is .* instead of /, 'property'],
];

/** The field a message names, or undefined when it names none. */
export function fieldOfMessage(message: string): string | undefined {
  for (const [pattern, field] of PATTERNS) {
    const match = message.match(pattern);
    if (match !== null) return typeof field === 'string' ? field : field(match);
  }
  return undefined;
}

/** The reason part of `invalid field <field>: <reason>`, or the whole message. */
export function reasonOfMessage(message: string): string {
  const match = message.match(/^invalid field [^:]+: (.*)$/);
  return match?.[1] ?? message;
}
