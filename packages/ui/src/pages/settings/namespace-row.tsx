/**
 * One namespace of the settings list: its key, name, description and protection, and its actions
 * as far as the server and the session allow them there: Edit and Delete are left out, Export and
 * Import locked with the reason.
 */
import type { Namespace } from '@ensign/core';
import { Link } from 'react-router';
import { KeyText } from '../../components/key-text.js';
import { RowActions } from '../../components/row-actions.js';
import { useLocks } from '../../hooks/permissions.js';
import { paths } from '../../layout/namespace.js';

export interface NamespaceRowProps {
  namespace: Namespace;
  onEdit: () => void;
  onDelete: () => void;
  /** While a delete is under way. */
  deleting: boolean;
  onImport: () => void;
  onExport: () => void;
  /** While this namespace is being exported. */
  exporting: boolean;
}

export function NamespaceRow({ namespace: ns, onEdit, onDelete, deleting, onImport, onExport, exporting }: NamespaceRowProps) {
  const lockOf = useLocks();
  const exportLock = lockOf('namespace.export', ns.key);
  const importLock = lockOf('namespace.import', ns.key);
  return (
    <tr>
      <td data-label="Key">
        <KeyText value={ns.key} />
      </td>
      <td className="namespace-name" data-label="Name">
        <span className="clamp-lines" title={ns.name}>
          {ns.name}
        </span>
      </td>
      <td className="muted" data-label="Description">
        {ns.description !== '' && (
          <span className="clamp-lines" title={ns.description}>
            {ns.description}
          </span>
        )}
      </td>
      <td data-label="Protected">{ns.protected ? <span className="badge badge-warning">Protected</span> : <span className="muted">No</span>}</td>
      <RowActions
        what={`namespace ${ns.key}`}
        {...(lockOf('namespace.update', ns.key).on ? {} : { onEdit })}
        {...(ns.protected || lockOf('namespace.delete', ns.key).on ? {} : { onDelete })}
        deleting={deleting}
      >
        <Link className="button button-small button-ghost" to={paths.flags(ns.key)} aria-label={`Flags of ${ns.key}`}>
          Flags
        </Link>
        <button
          type="button"
          className="button button-small button-ghost"
          aria-label={`Export namespace ${ns.key}`}
          disabled={exportLock.on || exporting}
          title={exportLock.hint}
          onClick={onExport}
        >
          Export
        </button>
        <button type="button" className="button button-small button-ghost" aria-label={`Import into namespace ${ns.key}`} disabled={importLock.on} title={importLock.hint} onClick={onImport}>
          Import
        </button>
      </RowActions>
    </tr>
  );
}
