import { PageHeader } from '../../components/page-header.js';

export function SegmentPage() {
  return <PageHeader title="Segment" />;
}
