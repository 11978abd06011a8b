/** The evaluation context as key/value rows (values are strings, as the service takes them). */
import { useRowFocus } from '../../hooks/row-focus.js';
import type { ContextRow } from '../../lib/evaluation-console.js';

export function ContextRowsEditor({ rows, onChange }: { rows: ContextRow[]; onChange: (rows: ContextRow[]) => void }) {
  const keys = useRowFocus();

  const update = (index: number, change: Partial<ContextRow>) => onChange(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  const add = () => {
    onChange([...rows, { key: '', value: '' }]);
    keys.focusLater(rows.length);
  };
  const remove = (index: number) => {
    const next = rows.filter((_, i) => i !== index);
    onChange(next.length === 0 ? [{ key: '', value: '' }] : next);
    keys.focusLater(Math.max(0, Math.min(index, next.length - 1)));
  };

  return (
    <fieldset className="fieldset context-editor">
      <legend>Context</legend>
      <div className="context-rows">
        {rows.map((row, index) => (
          <div className="context-row" key={index}>
            <input
              ref={keys.ref(index)}
              className="mono"
              aria-label={`Context key ${index + 1}`}
              placeholder="key"
              autoComplete="off"
              spellCheck={false}
              value={row.key}
              onChange={(e) => update(index, { key: e.target.value })}
            />
            <input
              className="mono"
              aria-label={`Context value ${index + 1}`}
              placeholder="value"
              autoComplete="off"
              spellCheck={false}
              value={row.value}
              onChange={(e) => update(index, { value: e.target.value })}
            />
            <button
              type="button"
              className="icon-button"
              aria-label={`Remove context row ${index + 1}`}
              disabled={rows.length === 1 && row.key === '' && row.value === ''}
              onClick={() => remove(index)}
            >
              ×
            </button>
          </div>
        ))}
      </div>
      <div className="list-footer">
        <button type="button" className="button button-small" onClick={add}>
          Add context
        </button>
        <span className="field-hint">Rows without a key are not sent. Values are sent as strings.</span>
      </div>
    </fieldset>
  );
}
