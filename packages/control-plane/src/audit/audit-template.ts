/**
 * The part of Go's text/template that Flipt's webhook templates use
 * (internal/server/audit/template/executer.go): the template sees Flipt's `audit.Event`, so fields
 * are Go names (`.Type`, `.Action`, `.Metadata.Actor.Authentication`, `.Payload.key`…), and the
 * one function is `toJson` (Go's `json.Marshal`). Field paths are checked when the template is
 * compiled, so a typo fails at start rather than on every event; what Go would print as a struct
 * (`{{ .Metadata }}`) is refused too: it means nothing to a receiver, `toJson` does.
 */
import { type AuditEvent, fliptView } from './audit-event.js';
import { goFloat, goJson } from './go-json.js';

/** A Go field: its JSON name in the event, and what it holds. */
interface Field {
  json: string;
  shape: Shape;
}
/** `string` a printable leaf; `map` the payload, indexed by any key; otherwise a struct. */
type Shape = 'string' | 'map' | { [goName: string]: Field };

const ACTOR: Shape = {
  Authentication: { json: 'authentication', shape: 'string' },
  IP: { json: 'ip', shape: 'string' },
  Email: { json: 'email', shape: 'string' },
  Name: { json: 'name', shape: 'string' },
  Picture: { json: 'picture', shape: 'string' },
};
const EVENT: Shape = {
  Version: { json: 'version', shape: 'string' },
  Type: { json: 'type', shape: 'string' },
  Action: { json: 'action', shape: 'string' },
  Metadata: { json: 'metadata', shape: { Actor: { json: 'actor', shape: ACTOR } } },
  Payload: { json: 'payload', shape: 'map' },
  Timestamp: { json: 'timestamp', shape: 'string' },
  Status: { json: 'status', shape: 'string' },
};

/** One step of a resolved path: a struct field (zero value `""` when absent) or a map key. */
type Step = { field: string; zero: '' | undefined };
interface Path {
  steps: Step[];
  /** Whether the value is a struct, which only `toJson` may print. */
  struct: boolean;
}
type Part = { text: string } | { source: string; path: Path; toJson: number };

/** Renders the template for one event; throws when the event does not fit it (a payload key path). */
export type RenderTemplate = (event: AuditEvent) => string;

function resolve(expr: string, source: string): Path {
  if (expr === '.') return { steps: [], struct: true };
  if (!/^(\.[A-Za-z_][A-Za-z0-9_]*)+$/.test(expr)) throw new Error(`template ${source}: "${expr}" is not a field path like .Type`);
  let shape: Shape = EVENT;
  const steps: Step[] = [];
  for (const name of expr.slice(1).split('.')) {
    if (shape === 'map') {
      steps.push({ field: name, zero: undefined });
    } else if (shape === 'string') {
      throw new Error(`template ${source}: can't evaluate field ${name} in type string`);
    } else {
      const field: Field | undefined = shape[name];
      if (field === undefined) throw new Error(`template ${source}: unknown field .${name} (one of ${Object.keys(shape).map((k) => `.${k}`).join(', ')})`);
      steps.push({ field: field.json, zero: field.shape === 'string' ? '' : undefined });
      shape = field.shape;
    }
  }
  return { steps, struct: typeof shape === 'object' };
}

/** `toJson .X`, `.X`, `.X | toJson`: the path and how many times toJson applies. */
function parseAction(inner: string, source: string): Extract<Part, { path: Path }> {
  const commands = inner.split('|').map((c) => c.trim().split(/\s+/));
  const [first = [], ...rest] = commands;
  let toJson = 0;
  let expr = first[0] ?? '';
  if (expr === 'toJson') {
    if (first.length !== 2) throw new Error(`template ${source}: toJson takes one argument`);
    expr = first[1] ?? '';
    toJson = 1;
  } else if (first.length !== 1) {
    throw new Error(`template ${source}: only field paths and toJson are supported`);
  }
  for (const command of rest) {
    if (command.length !== 1 || command[0] !== 'toJson') throw new Error(`template ${source}: only toJson may follow a |`);
    toJson += 1;
  }
  const path = resolve(expr, source);
  if (path.struct && toJson === 0) throw new Error(`template ${source}: ${expr} is a struct; print it with toJson`);
  return { source, path, toJson };
}

/** Splits the template into text and actions, applying `{{-` / `-}}` whitespace trimming. */
function parse(template: string): Part[] {
  const parts: Part[] = [];
  let rest = template;
  let trimNext = false;
  while (rest.length > 0) {
    const open = rest.indexOf('{{');
    let text = open < 0 ? rest : rest.slice(0, open);
    if (trimNext) text = text.trimStart();
    if (open < 0) {
      parts.push({ text });
      break;
    }
    const close = rest.indexOf('}}', open + 2);
    if (close < 0) throw new Error(`template: unclosed action at "${rest.slice(open, open + 20)}"`);
    let inner = rest.slice(open + 2, close);
    const source = `{{${inner}}}`;
    if (/^-\s/.test(inner)) {
      text = text.trimEnd();
      inner = inner.slice(1);
    }
    trimNext = /\s-$/.test(inner);
    if (trimNext) inner = inner.slice(0, -1);
    parts.push({ text });
    inner = inner.trim();
    if (!(inner.startsWith('/*') && inner.endsWith('*/'))) parts.push(parseAction(inner, source));
    rest = rest.slice(close + 2);
  }
  return parts;
}

/** Go's `%v` of a value decoded from JSON: maps by sorted key, slices space-separated, nil as `<nil>`. */
function goPrint(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return goFloat(value);
  if (Array.isArray(value)) return `[${value.map(goPrint).join(' ')}]`;
  if (typeof value === 'object') {
    const entries = Object.keys(value).sort().map((k) => `${k}:${goPrint((value as Record<string, unknown>)[k])}`);
    return `map[${entries.join(' ')}]`;
  }
  return String(value);
}

function lookup(root: unknown, path: Path, source: string): unknown {
  let value = root;
  for (const step of path.steps) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`template ${source}: can't evaluate field ${step.field}`);
    value = (value as Record<string, unknown>)[step.field] ?? step.zero;
  }
  return value;
}

/** Compiles a Flipt webhook body template; throws on a field or construct it cannot render. */
export function compileTemplate(template: string): RenderTemplate {
  const parts = parse(template);
  return (event) => {
    const root = fliptView(event);
    let out = '';
    for (const part of parts) {
      if ('text' in part) {
        out += part.text;
        continue;
      }
      let value = lookup(root, part.path, part.source);
      for (let i = 0; i < part.toJson; i += 1) value = goJson(value ?? null);
      // A missing map key or JSON null prints as text/template prints a nil value.
      out += value === undefined || value === null ? '<no value>' : goPrint(value);
    }
    return out;
  };
}
