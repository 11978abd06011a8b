/**
 * Keys as the UI shows them: a line breaks between the words of a long key (`<wbr>` after its
 * separators), inside a word only when that word alone is wider than the line (`.key-text`), and
 * the whole key is in the tooltip.
 */
import { Fragment } from 'react';
import { keyParts } from '../lib/key-parts.js';

/** The key's text with its break points, inside an element that breaks a too-long word itself (a link with `.key-text`, a sentence). */
export function KeyBreaks({ value }: { value: string }) {
  return keyParts(value).map((part, i) => (i === 0 ? part : <Fragment key={i}><wbr />{part}</Fragment>));
}

/** A key in code type. */
export function KeyText({ value, className }: { value: string; className?: string }) {
  return (
    <code className={className === undefined ? 'key-text' : `key-text ${className}`} title={value}>
      <KeyBreaks value={value} />
    </code>
  );
}
