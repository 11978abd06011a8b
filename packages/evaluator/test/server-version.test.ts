/** Parsing `X-Flipt-Accept-Server-Version` and picking the snapshot gate. */
import test from 'ava';
import { gateFor, parseServerVersion, type SnapshotGate } from '../src/snapshot/server-version.js';

test('versions parse tolerantly like Go semver', (t) => {
  t.deepEqual(parseServerVersion('1.47.0'), { major: 1, minor: 47, patch: 0, prerelease: false });
  t.deepEqual(parseServerVersion(' v1.38 '), { major: 1, minor: 38, patch: 0, prerelease: false });
  t.deepEqual(parseServerVersion('2'), { major: 2, minor: 0, patch: 0, prerelease: false });
  t.deepEqual(parseServerVersion('1.47.0-rc.1+build.5'), { major: 1, minor: 47, patch: 0, prerelease: true });
  t.is(parseServerVersion('latest'), undefined);
  t.is(parseServerVersion(''), undefined);
  t.is(parseServerVersion(undefined), undefined);
});

test('gates: < 1.38.0 legacy, < 1.47.0 without default variants, else current; absent is 1.37.1', (t) => {
  const cases: Array<[string | undefined, SnapshotGate]> = [
    [undefined, 'legacy'],
    ['garbage', 'legacy'],
    ['1.37.1', 'legacy'],
    ['1.38.0-beta', 'legacy'],
    ['1.38.0', 'no-default-variant'],
    ['1.46.99', 'no-default-variant'],
    ['1.47.0-rc1', 'no-default-variant'],
    ['1.47.0', 'current'],
    ['v1.61.1', 'current'],
    ['2.0.0', 'current'],
  ];
  for (const [header, gate] of cases) t.is(gateFor(header), gate, String(header));
});
