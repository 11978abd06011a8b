/** What an import would do, from the service's dry run: one headline, then the keys of each change. */
import { useId } from 'react';
import { KeyText } from '../../components/key-text.js';
import { type ImportSummary, previewHeadline, previewSections } from '../../lib/document-import.js';

export function ImportPreview({ summary }: { summary: ImportSummary }) {
  const id = useId();
  const sections = previewSections(summary);
  return (
    <section className="import-preview" aria-label="Preview">
      <h3>Preview</h3>
      <p role="status">{previewHeadline(summary)}</p>
      {sections.map((section) => (
        <div key={section.id} className={`import-section import-${section.change}`}>
          <h4 id={`${id}-${section.id}`}>
            {section.label} <span className="badge">{section.keys.length}</span>
          </h4>
          <ul aria-labelledby={`${id}-${section.id}`}>
            {section.keys.map((key) => (
              <li key={key}>
                <KeyText value={key} />
              </li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
