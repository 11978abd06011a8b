import { PageHeader } from '../../components/page-header.js';

export function ConsolePage() {
  return <PageHeader title="Console" />;
}
