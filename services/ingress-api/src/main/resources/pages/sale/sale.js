// The buyer's page of one sale: signs in with the buyer's token (kept in this tab), joins the sale's waiting room,
// shows the place and the estimate as the ingress answers them (asking again after each Retry-After), solves the
// sale pass's proof of work while waiting, and once admitted gets the pass, buys one unit and follows the order until
// it is decided.
'use strict';

const TOKEN_KEY = 'seckill.buyerToken';
const SKU = Number((location.pathname.match(/^\/sale\/(\d+)/) || [])[1]);
const ORDER_POLL_MS = 1000;
/** A challenge is asked for once the estimated wait is this short: it expires two minutes after it is posed. */
const SOLVE_AHEAD_SECONDS = 60;

const $ = (selector) => document.querySelector(selector);
const state = { ticket: null, challenge: null, solution: null, solving: false, bought: false };

function token() {
  return sessionStorage.getItem(TOKEN_KEY);
}

async function call(method, path, { body, headers = {} } = {}) {
  const sent = { Authorization: 'Bearer ' + token(), ...headers };
  if (body !== undefined) {
    sent['Content-Type'] = 'application/json';
  }
  const response = await fetch(path, { method, headers: sent, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  const json = text ? JSON.parse(text) : {};
  if (response.status === 401) {
    signOut(json.detail || 'the token was refused');
    throw new Error('signed out');
  }
  return { status: response.status, json, retryAfter: Number(response.headers.get('Retry-After') || 0) };
}

function setStatus(kind, text) {
  $('#status').dataset.state = kind;
  $('#status').textContent = text;
}

function say(text) {
  $('#message').textContent = text;
}

function signOut(reason) {
  sessionStorage.removeItem(TOKEN_KEY);
  $('#sale').hidden = true;
  $('#sign-in').hidden = false;
  $('#sign-in-error').textContent = reason || '';
  setStatus('signed-out', 'signed out');
}

function seconds(total) {
  return total >= 60 ? Math.floor(total / 60) + ' min ' + (total % 60) + ' s' : total + ' s';
}

function show(standing) {
  $('#queue-status').textContent = standing.status;
  $('#place').textContent = standing.place;
  $('#ahead').textContent = standing.ahead;
  $('#wait').textContent = standing.status === 'WAITING' ? seconds(standing.estimatedWaitSeconds) : '-';
}

async function join() {
  setStatus('waiting', 'in the queue');
  const joined = await call('POST', `/api/v1/skus/${SKU}/queue`);
  if (joined.status === 409 && joined.json.code === 'NO_WAITING_ROOM') {
    $('#queue-status').textContent = 'no waiting room';
    return admitted();
  }
  if (joined.status !== 200 && joined.status !== 201) {
    return retryLater(joined, 'joining');
  }
  state.ticket = joined.json.ticket;
  show(joined.json);
  return next(joined.json, joined.retryAfter);
}

async function poll() {
  const standing = await call('GET', `/api/v1/skus/${SKU}/queue/me`, { headers: { 'Seckill-Queue-Ticket': state.ticket } });
  if (standing.status !== 200) {
    return retryLater(standing, 'asking where you stand');
  }
  show(standing.json);
  return next(standing.json, standing.retryAfter);
}

function next(standing, retryAfter) {
  switch (standing.status) {
    case 'SOLD_OUT':
      setStatus('ended', 'sold out');
      return say('Sold out: every unit is taken.');
    case 'ADMITTED':
      return admitted();
    default:
      if (standing.estimatedWaitSeconds <= SOLVE_AHEAD_SECONDS) {
        solve();
      }
      setTimeout(poll, Math.max(1, retryAfter) * 1000);
  }
}

function retryLater(reply, doing) {
  say(`${doing}: ${reply.json.detail || reply.status}; trying again`);
  setTimeout(state.ticket ? poll : join, Math.max(1, reply.retryAfter || 2) * 1000);
}

/** Asks for a challenge and solves it in the background: SHA-256(challenge + ":" + n) with `difficulty` zero bits. */
async function solve() {
  if (state.solving || state.solution) {
    return;
  }
  state.solving = true;
  try {
    const posed = await call('POST', `/api/v1/skus/${SKU}/pass-challenges`, { body: {} });
    if (posed.status !== 201) {
      say(`the challenge: ${posed.json.detail || posed.status}`);
      return;
    }
    if (posed.json.type !== 'proof-of-work') {
      say('This sale asks for a captcha, which this page does not show.');
      return;
    }
    $('#work').textContent = 'solving';
    const encoder = new TextEncoder();
    for (let n = 0; ; n++) {
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(posed.json.challenge + ':' + n)));
      if (zeroBits(digest) >= posed.json.difficulty) {
        state.challenge = posed.json.challenge;
        state.solution = String(n);
        $('#work').textContent = 'solved';
        return;
      }
    }
  } finally {
    state.solving = false;
  }
}

function zeroBits(digest) {
  let bits = 0;
  for (const byte of digest) {
    if (byte !== 0) {
      return bits + Math.clz32(byte) - 24;
    }
    bits += 8;
  }
  return bits;
}

async function admitted() {
  setStatus('buying', 'admitted');
  await solve();
  while (!state.solution) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    await solve();
  }
  const headers = state.ticket ? { 'Seckill-Queue-Ticket': state.ticket } : {};
  const pass = await call('POST', `/api/v1/skus/${SKU}/passes`, {
    body: { challenge: state.challenge, solution: state.solution }, headers });
  state.challenge = null;
  state.solution = null;
  if (pass.status !== 201) {
    say(`the pass: ${pass.json.detail || pass.status}; trying again`);
    return setTimeout(admitted, Math.max(1, pass.retryAfter || 1) * 1000);
  }
  return buy(pass.json.pass, crypto.randomUUID());
}

async function buy(pass, idempotencyKey) {
  const order = await call('POST', `/api/v1/skus/${SKU}/orders`, {
    body: { quantity: 1 }, headers: { 'Seckill-Pass': pass, 'Idempotency-Key': idempotencyKey } });
  if (order.status === 202) {
    $('#order-id').textContent = order.json.orderId;
    return follow(order.json.orderId);
  }
  if (order.status === 503 || order.status === 429) {
    return setTimeout(() => buy(pass, idempotencyKey), Math.max(1, order.retryAfter || 1) * 1000);
  }
  setStatus('ended', order.json.code || 'refused');
  return say(order.json.detail || 'the buy was refused');
}

async function follow(orderId) {
  const order = await call('GET', `/api/v1/orders/${orderId}`);
  const status = order.status === 200 ? order.json.status : 'PENDING';
  $('#order-status').textContent = status;
  if (status === 'PENDING') {
    return setTimeout(() => follow(orderId), ORDER_POLL_MS);
  }
  if (status === 'CONFIRMED') {
    setStatus('bought', 'bought');
    return say('Bought: pay before ' + order.json.payBy + '.');
  }
  setStatus('ended', status.toLowerCase());
  return say(order.json.reason ? 'Not bought: ' + order.json.reason : 'Not bought.');
}

function signedIn() {
  $('#sign-in').hidden = true;
  $('#sale').hidden = false;
  join().catch((failure) => say(String(failure)));
}

$('#sku').textContent = SKU;
$('#sign-in-form').addEventListener('submit', (event) => {
  event.preventDefault();
  sessionStorage.setItem(TOKEN_KEY, $('#token').value.trim());
  $('#token').value = '';
  signedIn();
});
if (token()) {
  signedIn();
}
