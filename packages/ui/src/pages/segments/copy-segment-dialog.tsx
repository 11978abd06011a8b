/**
 * "Copy to namespace…" on a segment's page: the segment with its constraints, name, description
 * and match type, into another namespace. The flags that use it are not touched.
 */
import type { Segment } from '@ensign/core';
import { CopyToNamespaceButton } from '../../components/copy-to-namespace-dialog.js';
import { KeyText } from '../../components/key-text.js';
import { countNoun } from '../../lib/count-noun.js';

export function CopySegmentAction({ ns, segment }: { ns: string; segment: Segment }) {
  return (
    <CopyToNamespaceButton
      ns={ns}
      source={{ kind: 'segment', segment }}
      about={
        <p>
          Creates segment <KeyText value={segment.key} /> in another namespace with its {countNoun(segment.constraints.length, 'constraint')}, name, description and match type. The
          rules and rollouts that use it are not copied.
        </p>
      }
    />
  );
}
