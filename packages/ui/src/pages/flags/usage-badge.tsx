/** A flag's usage status on the flags list (Inactive, Launched, New, Active), its meaning and window in its tooltip. */
import type { FlagUsage } from '../../api/endpoints.js';
import { USAGE_STATUS_LABEL, USAGE_STATUS_TONE, usageStatusExplanation } from '../../lib/usage-status.js';

export function UsageBadge({ usage, windowText }: { usage: FlagUsage; windowText: string }) {
  const served = usage.status === 'launched' ? usage.values.find((v) => v.count > 0)?.value : undefined;
  const explanation = usageStatusExplanation(usage.status, windowText, { value: served, stale: usage.stale });
  return (
    <span className={`badge ${USAGE_STATUS_TONE[usage.status]}`} title={explanation}>
      {USAGE_STATUS_LABEL[usage.status]}
    </span>
  );
}
