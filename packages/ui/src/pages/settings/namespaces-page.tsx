import { PageHeader } from '../../components/page-header.js';

export function NamespacesPage() {
  return <PageHeader title="Namespaces" />;
}
