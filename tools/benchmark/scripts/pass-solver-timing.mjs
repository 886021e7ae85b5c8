// How long the browser's sale-pass solver that docs/api.md gives takes, run as written under Node:
//   node benchmark/scripts/pass-solver-timing.mjs [DIFFICULTY=18] [CHALLENGES=21]
// prints the median and p90 over that many fresh challenges (each one's work is random: about 2^DIFFICULTY hashes).
import { readFileSync } from 'node:fs';

const docs = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
const block = docs.match(/```javascript\n([\s\S]*?)```/);
if (!block) {
  throw new Error('docs/api.md gives no javascript block');
}
const solveChallenge = new Function(block[1] + '\nreturn solveChallenge;')();
const difficulty = Number(process.argv[2] ?? 18);
const challenges = Number(process.argv[3] ?? 21);
// Shaped as the ingress issues them (c1.SKU.EXPIRES_MS.DIFFICULTY.NONCE.SIGNATURE, about 100 characters), so each
// attempt hashes as many 64-byte blocks as a real one does.
const challenge = (i) => `c1.6000000042.${Date.now() + 120000}.${difficulty}.${`nonce${i}x${Math.random()}`.padEnd(22, 'n').slice(0, 22)}.${'s'.repeat(43)}`;
const times = [];
for (let i = 0; i < challenges; i++) {
  const started = performance.now();
  solveChallenge(challenge(i), difficulty);
  times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
const at = (quantile) => times[Math.min(times.length - 1, Math.floor(quantile * times.length))].toFixed(0);
console.log(`difficulty ${difficulty}, ${challenges} challenges: median ${at(0.5)} ms, p90 ${at(0.9)} ms, slowest ${times[times.length - 1].toFixed(0)} ms`);
