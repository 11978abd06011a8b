import type { Operations } from '../../auth/operation.middleware.js';
/**
 * Ensign's routes for migrating without a shell (Flipt has only its CLI for this):
 * `GET /api/v1/namespaces/{ns}/export` answers the namespace as a Flipt document, and
 * `POST /api/v1/namespaces/{ns}/import` imports one document into it, or with `dryRun=true`
 * answers what the import would change and writes nothing. A namespace-scoped caller is held to
 * the path's namespace by the router's scope middleware.
 */
import { decodeFliptDocuments, encodeFliptDocument, invalid, invalidField, notFound, prerequisiteParentOf, readBooleanParam, type Fields } from '@ensign/core';
import { stringify } from 'yaml';
import type { AppContext, AppRouter } from '../../http/app-state.js';
import { queryOf } from '../../http/input.js';
import { sendJson } from '../../http/respond.js';
import { readDocumentText } from './document-body.js';
import { forNamespace } from './document-namespace.js';
import type { DocumentRepository } from './document.repository.js';
import { formatOfContentType, parseDocumentText } from './document-text.js';
import { previewImport } from './import-preview.js';

export interface DocumentRoutesDeps {
  documents: DocumentRepository;
  /** The largest document accepted, the app's body limit. */
  bodyLimitBytes: number;
}

const namespaceOf = (ctx: AppContext): string => (ctx.params as { namespaceKey: string }).namespaceKey;

/** `?format=yaml|json` wins; else JSON only when the client asks for it over YAML. */
function exportFormat(ctx: AppContext, query: Fields): 'yaml' | 'json' {
  const format = query['format'];
  if (format === 'yaml' || format === 'json') return format;
  if (format !== undefined) throw invalidField('format', 'must be yaml or json');
  return ctx.accepts('application/yaml', 'application/json') === 'application/json' ? 'json' : 'yaml';
}

export function registerDocumentRoutes(router: AppRouter, { documents, bodyLimitBytes }: DocumentRoutesDeps, op: Operations): void {
  router.get('/namespaces/:namespaceKey/export', op('ExportNamespace'), async (ctx) => {
    const key = namespaceOf(ctx);
    const query = queryOf(ctx);
    const sortByKey = readBooleanParam(query, 'sortByKey');
    const format = exportFormat(ctx, query);
    const doc = await documents.exportNamespace(key);
    if (doc === undefined) throw notFound(`namespace "${key}" not found`);
    const encoded = encodeFliptDocument(doc, { sortByKey });
    ctx.set('Content-Disposition', `attachment; filename="${key}.${format}"`);
    if (format === 'json') {
      sendJson(ctx, encoded);
      return;
    }
    ctx.status = 200;
    ctx.set('Content-Type', 'application/yaml');
    // As Flipt's exporter (yaml.v2) writes it: lists not indented under their key, long text not folded.
    ctx.body = stringify(encoded, { indentSeq: false, lineWidth: 0 });
  });

  router.post('/namespaces/:namespaceKey/import', op('ImportNamespace'), async (ctx) => {
    const key = namespaceOf(ctx);
    const query = queryOf(ctx);
    const options = { drop: readBooleanParam(query, 'drop'), skipExisting: readBooleanParam(query, 'skipExisting') };
    const dryRun = readBooleanParam(query, 'dryRun');
    const text = await readDocumentText(ctx.req, bodyLimitBytes);
    const value = forNamespace(parseDocumentText(text, formatOfContentType(ctx.get('Content-Type'))), key);
    const current = await documents.exportNamespace(key);
    // A segment or prerequisite flag the document uses but does not define must be in the namespace, and stay there.
    const kept = new Set(options.drop ? [] : (current?.segments ?? []).map((s) => s.key));
    const keptFlags = new Map(options.drop ? [] : (current?.flags ?? []).map((f) => [f.key, f]));
    const [doc] = decodeFliptDocuments([value], {
      segmentExists: (_, segmentKey) => kept.has(segmentKey),
      existingFlag: (_, flagKey) => {
        const flag = keptFlags.get(flagKey);
        return flag === undefined ? undefined : prerequisiteParentOf(flag);
      },
    });
    if (doc === undefined) throw invalid('the body must hold a Flipt document');
    const preview = previewImport(key, current, doc, options);
    if (dryRun) {
      sendJson(ctx, preview);
      return;
    }
    const summary = await documents.importDocuments([doc], options);
    sendJson(ctx, { ...preview, revision: summary.namespaces[0]?.revision });
  });
}
