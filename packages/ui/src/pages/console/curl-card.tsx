/** The console's request as a curl command; the UI's own credential is never written into it. */
import { CopyButton } from '../../components/copy-button.js';

export function CurlCard({ command, withToken }: { command: string; withToken: boolean }) {
  return (
    <section className="card console-curl" aria-labelledby="curl-title">
      <div className="card-header">
        <div>
          <h2 id="curl-title">curl</h2>
          <p>The same request from a shell.</p>
        </div>
        <CopyButton text={command} label="Copy curl" />
      </div>
      <div className="card-body">
        <pre className="block curl-command" aria-label="curl command">
          {command}
        </pre>
        {withToken && (
          <p className="field-hint curl-hint">
            Set <code>ENSIGN_TOKEN</code> to an API token first (Settings › API tokens), for example <code>export ENSIGN_TOKEN=…</code>.
          </p>
        )}
      </div>
    </section>
  );
}
