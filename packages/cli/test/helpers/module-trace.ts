/**
 * Preloaded with `node --import` into an `ensign` process under test: appends the URL of every
 * module the process loads, one a line, to the file named by `MODULE_TRACE_FILE`. ES modules are
 * seen by a resolve hook; CommonJS files (what `require` loads, including inside packages such as
 * knex that name their drivers with `require`) by wrapping the CommonJS loader.
 */
import { appendFileSync } from 'node:fs';
import Module, { register } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { TraceData } from './module-trace.hooks.js';

const file = process.env['MODULE_TRACE_FILE'];
if (file === undefined || file === '') throw new Error('module-trace: MODULE_TRACE_FILE is not set');

register<TraceData>('./module-trace.hooks.js', import.meta.url, { data: { file } });

interface LoadableModule {
  load(filename: string): void;
}
const prototype = Module.prototype as unknown as LoadableModule;
const load = prototype.load;
prototype.load = function traced(this: LoadableModule, filename: string): void {
  appendFileSync(file, `${pathToFileURL(filename).href}\n`);
  load.call(this, filename);
};
