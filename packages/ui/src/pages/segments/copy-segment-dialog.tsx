/**
 * "Copy to namespace…" on a segment's page: the segment with its constraints, name, description
 * and match type, into another namespace. The flags that use it are not touched.
 */
import type { Segment } from '@ensign/core';
import { CopyToNamespaceButton } from '../../components/copy-to-namespace-dialog.js';

export function CopySegmentAction({ ns, segment }: { ns: string; segment: Segment }) {
  const count = segment.constraints.length;
  return (
    <CopyToNamespaceButton
      ns={ns}
      source={{ kind: 'segment', segment }}
      about={
        <p>
          Creates segment <code>{segment.key}</code> in another namespace with its {count} constraint{count === 1 ? '' : 's'}, name, description and match type. The
          rules and rollouts that use it are not copied.
        </p>
      }
    />
  );
}
