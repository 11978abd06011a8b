import { PageHeader } from '../../components/page-header.js';

export function TokensPage() {
  return <PageHeader title="API tokens" />;
}
