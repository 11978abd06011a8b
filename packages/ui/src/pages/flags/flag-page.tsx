import { PageHeader } from '../../components/page-header.js';

export function FlagPage() {
  return <PageHeader title="Flag" />;
}
