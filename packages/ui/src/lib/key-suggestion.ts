/**
 * A key suggested from a name ("New checkout flow" → `new-checkout-flow`), within the service's
 * key rules: `^[-_,A-Za-z0-9]+$`, at most 255 characters.
 */

const MAX_KEY_LENGTH = 255;

export function suggestKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_KEY_LENGTH)
    .replace(/-+$/, '');
}
