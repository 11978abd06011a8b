/**
 * SSH access as git runs it: a stand-in `ssh` on the PATH records how git called it, so the test
 * sees the key file, the user, the host-key setting and the passphrase prompt's answer, and that
 * neither the key nor the passphrase is on a command line.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { GitCommandError, GitRepository } from '../../src/declarative/index.js';

const KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nnot-a-real-key\n-----END OPENSSH PRIVATE KEY-----';

test('a key given as bytes is written to a private file, the passphrase answered from the environment', async (t) => {
  const bin = mkdtempSync(join(tmpdir(), 'ensign-fake-ssh-'));
  t.teardown(() => rmSync(bin, { recursive: true, force: true }));
  const record = join(bin, 'record.json');
  // The stand-in keeps what it was given (and the key file while it exists), then fails like an unreachable host.
  writeFileSync(
    join(bin, 'ssh'),
    `#!/bin/sh
key=""; prev=""
for a in "$@"; do [ "$prev" = "-i" ] && key="$a"; prev="$a"; done
answer=$("$SSH_ASKPASS" "Enter passphrase for key '$key':")
node -e 'const fs=require("fs");const [key,answer,...args]=process.argv.slice(1);fs.writeFileSync(${JSON.stringify(record)},JSON.stringify({args,answer,key:fs.readFileSync(key,"utf8"),mode:fs.statSync(key).mode&0o777,askpass:process.env.SSH_ASKPASS,require:process.env.SSH_ASKPASS_REQUIRE}))' "$key" "$answer" "$@"
echo "ssh: connect to host example.invalid port 22: Connection refused" >&2
exit 255
`,
  );
  chmodSync(join(bin, 'ssh'), 0o755);
  const path = process.env.PATH;
  process.env.PATH = `${bin}:${path}`;
  t.teardown(() => {
    process.env.PATH = path;
  });

  const err = await t.throwsAsync(
    GitRepository.open({
      url: 'ssh://example.invalid/flags.git',
      ref: 'main',
      directory: '',
      access: { ssh: { user: 'deploy', password: 'key-passphrase', privateKeyBytes: KEY, insecureIgnoreHostKey: true } },
    }),
    { instanceOf: GitCommandError },
  );
  t.regex(err?.message ?? '', /^git fetch failed: .*Connection refused/);
  const seen = JSON.parse(readFileSync(record, 'utf8')) as { args: string[]; answer: string; key: string; mode: number; askpass: string; require: string };
  t.is(seen.key, `${KEY}\n`);
  t.is(seen.mode, 0o600);
  t.true(seen.args.includes('User=deploy'));
  t.true(seen.args.includes('StrictHostKeyChecking=no'));
  t.true(seen.args.includes('IdentitiesOnly=yes'));
  t.false(seen.args.some((arg) => arg.includes('key-passphrase') || arg.includes('not-a-real-key')), seen.args.join(' '));
  t.is(seen.require, 'force');
  // The helper answers ssh's passphrase prompt with the configured passphrase (from its environment).
  t.is(seen.answer, 'key-passphrase');
  t.throws(() => statSync(seen.askpass), undefined, 'the clone directory, helper and key file included, is removed after the failed start');
});
