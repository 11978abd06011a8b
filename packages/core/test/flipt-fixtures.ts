/** Flipt's own import/export test documents (internal/ext/testdata, JSON form), read from test/fixtures/flipt. */
import { readFileSync } from 'node:fs';
import { parseJsonDocuments } from '../src/index.js';

/** The text of a fixture. */
export const fixtureText = (name: string): string =>
  readFileSync(new URL(`../../test/fixtures/flipt/${name}`, import.meta.url), 'utf8');

/** The parsed documents of a fixture (a stream of JSON values). */
export const fixtureValues = (name: string): unknown[] => parseJsonDocuments(fixtureText(name));
