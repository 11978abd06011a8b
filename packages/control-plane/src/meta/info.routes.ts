/**
 * GET /meta/info: Flipt's build and configuration summary the UI reads (plain JSON, empty strings
 * and false `readOnly` left out as Flipt's `omitempty` does): the version, whether authentication
 * is required, where flags come from and whether they can be changed, whether analytics is on.
 */
import type { AppRouter } from '../http/app-state.js';
import { sendJson } from '../http/respond.js';
import { type StorageReport, storageMetadata } from './storage-report.js';

/** The executable's build. */
export interface BuildInfo {
  version: string;
  commit: string;
  buildDate: string;
}

export interface InfoOptions {
  build?: BuildInfo;
  authenticationRequired: boolean;
  analyticsEnabled: boolean;
  storage: StorageReport;
}

/** Node's names of the platform's architecture, as Go spells them. */
const GO_ARCH: Readonly<Record<string, string>> = { x64: 'amd64', ia32: '386', arm64: 'arm64', arm: 'arm', ppc64: 'ppc64le', s390x: 's390x' };

const present = (name: string, value: string | undefined): Record<string, string> => (value === undefined || value === '' ? {} : { [name]: value });

export function registerInfoRoutes(router: AppRouter, options: InfoOptions): void {
  router.get('/meta/info', (ctx) => {
    const { build, storage } = options;
    const status = storage.status?.();
    const metadata = status === undefined ? {} : storageMetadata(status);
    sendJson(ctx, {
      ...present('version', build?.version),
      ...present('commit', build?.commit),
      ...present('buildDate', build?.buildDate),
      updateAvailable: false,
      isRelease: build !== undefined && build.commit !== 'dev',
      os: process.platform,
      arch: GO_ARCH[process.arch] ?? process.arch,
      authentication: { required: options.authenticationRequired },
      storage: {
        type: storage.type,
        ...(storage.readOnly ? { readOnly: true } : {}),
        ...(Object.keys(metadata).length === 0 ? {} : { metadata }),
      },
      analytics: options.analyticsEnabled ? { enabled: true } : {},
      ui: { theme: 'system' },
    });
  });
}
