/**
 * The key a create dialog proposes from the name the user types ("New checkout flow" →
 * `new-checkout-flow`), so most people never type a key. Keys of namespaces, flags and segments
 * must match `^[-_,A-Za-z0-9]+$` and fit 255 characters.
 */

const MAX_KEY_LENGTH = 255;

/** `"Beta Testers (EU)"` → `"beta-testers-eu"`; accents are dropped rather than replaced. */
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

/**
 * The key after the name changes from `previousName` to `name`: it follows the name while the
 * user has not made it their own (it is empty or still the suggestion of the previous name).
 */
export function keyFollowingName(previousName: string, key: string, name: string): string {
  return key === '' || key === suggestKey(previousName) ? suggestKey(name) : key;
}
