/**
 * Run as a child of the benchmark (`node stream-reader.js <port> <namespace>`): reads the
 * namespace's NDJSON stream in Ensign's format as bare as a client can, in a process of its own
 * (in the benchmark's process its reads would wait behind the provider's), and reports over IPC
 * when each numbered message arrived, on the machine-wide clock (`performance.timeOrigin + now`).
 */
import { request } from 'node:http';

const [port, namespaceKey] = process.argv.slice(2) as [string, string];
const MARKER = /"description":"seq-(\d{6})"/;
let rest = '';
const req = request({ host: '127.0.0.1', port: Number(port), path: `/client/v2/environments/default/namespaces/${namespaceKey}/stream?format=ensign` }, (res) => {
  res.setEncoding('utf8');
  process.send?.({ open: true });
  res.on('data', (chunk: string) => {
    const at = performance.timeOrigin + performance.now();
    rest += chunk;
    for (let end = rest.indexOf('\n'); end !== -1; end = rest.indexOf('\n')) {
      const seq = MARKER.exec(rest.slice(0, end))?.[1];
      rest = rest.slice(end + 1);
      if (seq !== undefined) process.send?.({ seq: Number(seq), at });
    }
  });
});
req.on('error', (err) => {
  console.error(`stream reader: ${err.message}`);
  process.exit(1);
});
req.end();
process.on('disconnect', () => process.exit(0));
