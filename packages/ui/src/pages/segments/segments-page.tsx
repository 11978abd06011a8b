import { PageHeader } from '../../components/page-header.js';

export function SegmentsPage() {
  return <PageHeader title="Segments" />;
}
