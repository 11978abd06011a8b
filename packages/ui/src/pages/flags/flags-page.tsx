import { PageHeader } from '../../components/page-header.js';

export function FlagsPage() {
  return <PageHeader title="Flags" />;
}
