import { createHash } from 'node:crypto';
import { normaliseEmail, normalisePhone, normalizeRecord, provenanceKey } from '../../lambda/federation/index.js';
import { fixtureRecords } from '../../lambda/sources/index.js';
const data = fixtureRecords({ source_type: 'hr', source_identity: 'bench-0', recordCount: 100000 });
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const src = { source_type: 'hr', source_identity: 'bench-0' };
for (let round = 0; round < 2; round++) {
let t = cpu(); let x = 0;
for (const r of data) x += Date.parse(r.observed_at);
console.log('date.parse', (cpu() - t).toFixed(0)); t = cpu();
for (const r of data) x += (normaliseEmail(r.email) ?? '').length;
console.log('email', (cpu() - t).toFixed(0)); t = cpu();
for (const r of data) x += (normalisePhone(r.phone) ?? '').length;
console.log('phone', (cpu() - t).toFixed(0)); t = cpu();
for (const r of data) x += createHash('sha256').update(provenanceKey(r)).digest('base64url').length;
console.log('sha', (cpu() - t).toFixed(0)); t = cpu();
const keep = [];
for (const r of data) keep.push(normalizeRecord(r, src));
console.log('normalizeRecord', (cpu() - t).toFixed(0), x > 0);
}
