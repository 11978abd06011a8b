import { PageHeader } from '../../components/page-header.js';

export function LoginPage() {
  return <PageHeader title="Sign in" />;
}
