// The operator page: reads GET /admin/v1/watch once a second with the admin token kept in this tab, shows each
// active sale as a row and a chart, and runs the admin actions after the operator confirms each.
'use strict';

const TOKEN_KEY = 'seckill.adminToken';
const POLL_MS = 1000;
const CHART_POINTS = 300;
const SALE_FIELDS = ['redisStock', 'pendingReservations', 'stockBuckets', 'mysqlStock', 'drift', 'acceptedOrders', 'acceptedPerSecond',
  'decidedOrders', 'decidedPerSecond', 'confirmedQuantity', 'paidQuantity', 'cancelledQuantity', 'expiredQuantity',
  'rejectedOrders', 'deadLetteredOrders', 'queue'];
/** A waiting room whose admission has not moved this long while buyers wait is shown as stuck. */
const QUEUE_STUCK_MS = 10000;

const $ = (selector) => document.querySelector(selector);
const charts = new Map();
/** Per SKU: the admitted count last seen and when it last moved. */
const admissions = new Map();
let previous = null;
let timer = null;

function token() {
  return sessionStorage.getItem(TOKEN_KEY);
}

async function admin(method, path, body) {
  const headers = { Authorization: 'Bearer ' + token() };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
  }
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  const json = text ? JSON.parse(text) : {};
  if (response.status === 401 || response.status === 403) {
    signOut(json.detail || 'the token was refused');
    throw new Error(json.detail || 'refused');
  }
  return { status: response.status, json };
}

function signOut(reason) {
  sessionStorage.removeItem(TOKEN_KEY);
  clearTimeout(timer);
  $('#console').hidden = true;
  $('#sign-out').hidden = true;
  $('#sign-in').hidden = false;
  $('#sign-in-error').textContent = reason || '';
  setStatus('signed-out', 'signed out');
}

function signedIn() {
  $('#sign-in').hidden = true;
  $('#console').hidden = false;
  $('#sign-out').hidden = false;
  poll();
}

function setStatus(state, text) {
  const status = $('#status');
  status.dataset.state = state;
  status.textContent = text;
}

async function poll() {
  try {
    const { status, json } = await admin('GET', '/admin/v1/watch');
    if (status !== 200) {
      throw new Error(json.detail || 'HTTP ' + status);
    }
    show(json);
    setStatus('live', 'live, ' + new Date(json.at).toLocaleTimeString());
  } catch (failure) {
    if (!token()) {
      return;
    }
    setStatus('stale', 'not updating: ' + failure.message);
  }
  timer = setTimeout(poll, POLL_MS);
}

function show(watch) {
  const seconds = previous ? (Date.parse(watch.at) - Date.parse(previous.at)) / 1000 : 0;
  const before = new Map((previous ? previous.sales : []).map((sale) => [sale.skuId, sale]));
  const rows = $('#sales tbody');
  rows.replaceChildren();
  for (const sale of watch.sales) {
    const last = before.get(sale.skuId);
    sale.acceptedPerSecond = rate(last && last.acceptedOrders, sale.acceptedOrders, seconds);
    sale.decidedPerSecond = rate(last && last.decidedOrders, sale.decidedOrders, seconds);
    rows.append(saleRow(sale));
    chart(sale, Date.parse(watch.at) / 1000);
  }
  $('#no-sales').hidden = watch.sales.length > 0;
  for (const [skuId, shown] of charts) {
    if (!watch.sales.some((sale) => sale.skuId === skuId)) {
      shown.plot.destroy();
      charts.delete(skuId);
    }
  }
  const answers = $('#answers tbody');
  answers.replaceChildren();
  for (const [outcome, count] of Object.entries(watch.buyAnswers)) {
    const perSecond = rate(previous && previous.buyAnswers[outcome], count, seconds);
    answers.append(row([outcome, count, perSecond === null ? '-' : perSecond.toFixed(1) + '/s'], { 'data-outcome': outcome }));
  }
  $('#relay [data-field="backlog"]').textContent = watch.relay.backlog;
  $('#relay [data-field="oldestAgeSeconds"]').textContent = watch.relay.oldestAgeSeconds === null ? '-' : watch.relay.oldestAgeSeconds.toFixed(1);
  const lag = $('#lag tbody');
  lag.replaceChildren();
  for (const [group, records] of Object.entries(watch.consumerGroups.lag || {})) {
    lag.append(row([group, records], { 'data-group': group }));
  }
  $('#lag-error').textContent = watch.consumerGroups.error || '';
  const instances = $('#instances tbody');
  instances.replaceChildren();
  for (const instance of watch.instances) {
    const line = row([instance.name, instance.state, instance.detail], { 'data-instance': instance.name });
    line.children[1].className = instance.state === 'READY' ? 'good' : 'bad';
    instances.append(line);
  }
  previous = watch;
}

function rate(before, now, seconds) {
  return before === undefined || seconds <= 0 ? null : Math.max(0, (now - before) / seconds);
}

function saleRow(sale) {
  const line = document.createElement('tr');
  line.dataset.sku = sale.skuId;
  cell(line, 'skuId', sale.skuId);
  cell(line, 'name', sale.name);
  for (const field of SALE_FIELDS) {
    cell(line, field, format(field, sale[field]));
  }
  const drift = line.querySelector('[data-field="drift"]');
  drift.className = sale.drift === 0 ? 'good' : 'bad';
  if (queueStuck(sale)) {
    const queue = line.querySelector('[data-field="queue"]');
    queue.className = 'bad';
    queue.textContent += ': not moving';
  }
  return line;
}

/** Whether buyers wait in the sale's started room while its admission has not moved for QUEUE_STUCK_MS. */
function queueStuck(sale) {
  if (!sale.queue) {
    return false;
  }
  const now = Date.now();
  const seen = admissions.get(sale.skuId);
  if (!seen || seen.admitted !== sale.queue.admitted) {
    admissions.set(sale.skuId, { admitted: sale.queue.admitted, movedAt: now });
    return false;
  }
  return sale.queue.waiting > 0 && Date.parse(sale.startsAt) <= now && now - seen.movedAt >= QUEUE_STUCK_MS;
}

function format(field, value) {
  if (value === null || value === undefined) {
    return '-';
  }
  if (field === 'queue') {
    return `${value.waiting} waiting, ${value.admitted} of ${value.joined} admitted, ${value.admissionPerSecond}/s`;
  }
  if (field === 'rejectedOrders') {
    const reasons = Object.entries(value).map(([reason, count]) => reason + ' ' + count);
    return reasons.length ? reasons.join(', ') : '0';
  }
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

function cell(line, field, text) {
  const td = document.createElement('td');
  td.dataset.field = field;
  td.textContent = text;
  line.append(td);
}

function row(values, attributes) {
  const line = document.createElement('tr');
  for (const [name, value] of Object.entries(attributes)) {
    line.setAttribute(name, value);
  }
  values.forEach((value, index) => {
    const td = document.createElement(index === 0 ? 'th' : 'td');
    td.textContent = value;
    line.append(td);
  });
  return line;
}

function chart(sale, at) {
  let shown = charts.get(sale.skuId);
  if (!shown) {
    const holder = document.createElement('div');
    holder.dataset.chartSku = sale.skuId;
    $('#charts').append(holder);
    const series = [{}, { label: 'Redis stock', stroke: '#1565c0' }, { label: 'MySQL stock', stroke: '#6a1b9a' },
      { label: 'Confirmed', stroke: '#1a7f37' }, { label: 'Accepted/s', stroke: '#ef6c00', scale: 'rate' }];
    const plot = new uPlot({
      title: 'SKU ' + sale.skuId + ': ' + sale.name, width: 560, height: 220, series,
      axes: [{}, { label: 'units' }, { side: 1, scale: 'rate', label: 'orders/s', grid: { show: false } }]
    }, [[], [], [], [], []], holder);
    shown = { plot, data: [[], [], [], [], []] };
    charts.set(sale.skuId, shown);
  }
  const values = [at, sale.redisStock, sale.mysqlStock, sale.confirmedQuantity, sale.acceptedPerSecond];
  values.forEach((value, index) => {
    shown.data[index].push(value);
    if (shown.data[index].length > CHART_POINTS) {
      shown.data[index].shift();
    }
  });
  shown.plot.setData(shown.data);
}

function utc(localValue) {
  return new Date(localValue + 'Z').toISOString().replace('.000Z', 'Z');
}

async function act(question, method, path, body) {
  if (!window.confirm(question)) {
    $('#action-result').textContent = 'Not done.';
    return;
  }
  try {
    const { status, json } = await admin(method, path, body);
    const result = $('#action-result');
    result.dataset.status = status;
    result.className = status < 300 ? 'good' : 'bad';
    result.textContent = status < 300 ? 'Done (' + status + '): ' + JSON.stringify(json) : (json.code || status) + ': ' + (json.detail || '');
  } catch (failure) {
    $('#action-result').textContent = failure.message;
  }
}

function defaults() {
  const now = new Date();
  const local = (date) => date.toISOString().slice(0, 19);
  $('#define-sale [name="startsAt"]').value = local(now);
  $('#define-sale [name="endsAt"]').value = local(new Date(now.getTime() + 3600 * 1000));
}

$('#sign-in-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  sessionStorage.setItem(TOKEN_KEY, $('#token').value.trim());
  $('#token').value = '';
  try {
    const { status, json } = await admin('GET', '/admin/v1/watch');
    if (status === 200) {
      signedIn();
    } else {
      signOut(json.detail || 'HTTP ' + status);
    }
  } catch (failure) {
    if (token()) {
      signOut(failure.message);
    }
  }
});

$('#sign-out').addEventListener('click', () => signOut(''));

$('#define-sale').addEventListener('submit', (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const sku = form.get('skuId');
  const body = {
    name: form.get('name'), stock: Number(form.get('stock')), perUserLimit: Number(form.get('perUserLimit')),
    startsAt: utc(form.get('startsAt')), endsAt: utc(form.get('endsAt')), passRequired: form.get('passRequired') === 'on'
  };
  if (form.get('stockBuckets')) {
    body.stockBuckets = Number(form.get('stockBuckets'));
  }
  act('Define SKU ' + sku + ' with ' + body.stock + ' units? A sale defined before is replaced.', 'PUT', '/admin/v1/skus/' + sku, body);
});

$('#adjust-stock').addEventListener('submit', (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const sku = form.get('skuId');
  const body = { adjustmentId: crypto.randomUUID(), delta: Number(form.get('delta')), reason: form.get('reason') };
  act('Adjust SKU ' + sku + ' by ' + body.delta + ' units?', 'POST', '/admin/v1/skus/' + sku + '/stock-adjustments', body);
});

$('#rebuild-redis').addEventListener('submit', (event) => {
  event.preventDefault();
  act('Rebuild every sale in Redis from MySQL?', 'POST', '/admin/v1/redis/rebuild');
});

defaults();
if (token()) {
  signedIn();
}
