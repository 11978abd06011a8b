/** Rewrites the README's configuration table from the schema (`npm run readme:config`). */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderConfigMarkdown } from '@ensign/cli';
import { repositoryRoot } from '@ensign/testkit';

const path = join(repositoryRoot, 'README.md');
const readme = readFileSync(path, 'utf8');
const marker = /(<!-- config-reference:start -->\n)[\s\S]*?(<!-- config-reference:end -->)/;
if (!marker.test(readme)) throw new Error('README.md has no config-reference markers');
writeFileSync(path, readme.replace(marker, (_all, start: string, end: string) => `${start}${renderConfigMarkdown()}\n${end}`));
console.log('README.md configuration reference updated');
