import { federate, normalizeRecord } from '../../lambda/federation/index.js';
import type { NormalizedRecord } from '../../lambda/federation/index.js';
import { fixtureRecords } from '../../lambda/sources/index.js';
const data = Array.from({ length: 8 }, (_, i) => fixtureRecords({ source_type: 'hr', source_identity: `bench-${i}`, recordCount: 25000, ...(i === 0 ? {} : { overlaps: [{ with: 'bench-0', withRecordCount: 25000, by: 'email' as const, share: 0.3 }] }) }));
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
let t = cpu();
const norm: NormalizedRecord[] = [];
for (let i = 0; i < 8; i++) for (const r of data[i]!) { const n = normalizeRecord(r, { source_type: 'hr', source_identity: `bench-${i}` }); if (typeof n !== 'string') norm.push(n); }
console.log('normalize ms', (cpu() - t).toFixed(0)); t = cpu();
const pages = [];
for (let i = 0; i < norm.length; i += 100) pages.push(federate(norm.slice(i, i + 100)));
console.log('page federate ms', (cpu() - t).toFixed(0)); t = cpu();
let bytes = 0;
for (const p of pages) bytes += JSON.stringify({ jsonrpc: '2.0', method: 'x', params: { records: p } }).length;
console.log('encode ms', (cpu() - t).toFixed(0), bytes); t = cpu();
const fin = federate(norm);
console.log('final federate ms', (cpu() - t).toFixed(0), fin.length); t = cpu();
console.log('final encode ms', JSON.stringify(fin).length, (cpu() - t).toFixed(0));
