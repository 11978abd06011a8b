/**
 * The items of an "is one of" / "is not one of" value: one input per item, Enter adds the next,
 * pasting several lines (or a JSON array) fills several items.
 */
import { MAX_LIST_ITEMS } from '@ensign/core';
import { useId } from 'react';
import { FieldError, type FieldMessage } from '../../components/field.js';
import { useRowFocus } from '../../hooks/row-focus.js';
import { splitPasted } from '../../lib/constraint-draft.js';

export interface ListValueEditorProps {
  items: string[];
  onChange: (items: string[]) => void;
  /** Number items: a numeric keyboard, and pasted numbers may be separated by commas. */
  numeric: boolean;
  error: FieldMessage | undefined;
}

export function ListValueEditor({ items, onChange, numeric, error }: ListValueEditorProps) {
  const id = useId();
  const inputs = useRowFocus();
  const full = items.length >= MAX_LIST_ITEMS;

  const insertAfter = (index: number, added: string[]) => {
    const next = [...items.slice(0, index + 1), ...added, ...items.slice(index + 1)];
    onChange(next);
    inputs.focusLater(Math.min(index + added.length, next.length - 1));
  };
  const remove = (index: number) => {
    const next = items.filter((_, i) => i !== index);
    onChange(next.length === 0 ? [''] : next);
    inputs.focusLater(Math.max(0, Math.min(index, next.length - 1)));
  };

  return (
    <fieldset className={error === undefined ? 'field fieldset list-editor' : 'field fieldset list-editor field-invalid'} aria-describedby={`${id}-hint${error === undefined ? '' : ` ${id}-error`}`}>
      <legend>Values</legend>
      <ol className="list-editor-items">
        {items.map((item, index) => (
          <li key={index}>
            <input
              ref={inputs.ref(index)}
              aria-label={`Value ${index + 1}`}
              aria-invalid={error !== undefined}
              className={numeric ? 'mono' : undefined}
              inputMode={numeric ? 'decimal' : undefined}
              autoComplete="off"
              value={item}
              onChange={(e) => onChange(items.map((v, i) => (i === index ? e.target.value : v)))}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && !e.nativeEvent.isComposing && item !== '' && !full) {
                  e.preventDefault();
                  insertAfter(index, ['']);
                }
              }}
              onPaste={(e) => {
                const pasted = splitPasted(e.clipboardData.getData('text'), numeric);
                if (pasted === undefined) return;
                e.preventDefault();
                const [first = '', ...rest] = pasted;
                const merged = [...items.slice(0, index), item === '' ? first : item, ...(item === '' ? rest : pasted), ...items.slice(index + 1)];
                onChange(merged.slice(0, MAX_LIST_ITEMS));
              }}
            />
            <button type="button" className="icon-button" aria-label={`Remove value ${index + 1}`} onClick={() => remove(index)} disabled={items.length === 1 && item === ''}>
              ×
            </button>
          </li>
        ))}
      </ol>
      <div className="list-footer">
        <button type="button" className="button button-small" disabled={full} onClick={() => insertAfter(items.length - 1, [''])}>
          Add value
        </button>
        <p className="field-hint" id={`${id}-hint`}>
          {numeric ? 'Numbers' : 'Texts'}, up to {MAX_LIST_ITEMS}. Enter adds another; pasting several lines adds one value per line.
        </p>
      </div>
      <FieldError id={`${id}-error`} error={error} />
    </fieldset>
  );
}
