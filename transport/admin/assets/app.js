// The operator dashboard in the browser: four pages over /admin/api, writes sent with the session's CSRF token.
'use strict';

(() => {
  /** The session's synchronizer token, sent in X-CSRF-Token with every write. */
  let csrf = null;
  let refreshTimer = null;
  /** Polls a running reload's stage while the data or health page shows it. */
  let reloadTimer = null;
  let chart = null;
  const main = document.getElementById('main');

  // ---- DOM helpers: text only through textContent, never HTML from data ----

  /** An element with attributes / properties and children (strings become text nodes). */
  function h(tag, props, ...children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(props ?? {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
      else if (k === 'class') el.className = v;
      else if (k in el && k !== 'list') el[k] = v;
      else el.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of children.flat())
      if (c !== null && c !== undefined && c !== false) el.append(c instanceof Node ? c : String(c));
    return el;
  }
  const num = (n) => (n === null || n === undefined ? '—' : Number(n).toLocaleString('en-US'));
  const ms = (n) =>
    n === null || n === undefined ? '—' : n < 1 ? `${(n * 1000).toFixed(0)} µs` : `${n.toFixed(n < 10 ? 2 : 0)} ms`;
  const when = (iso) => (iso ? new Date(iso).toLocaleString() : '—');
  /** `5 min ago`, `3 h ago`, `2 d ago` (from this browser's clock; the exact instant is in the title). */
  const ago = (iso) => {
    const s = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
    return s < 60
      ? 'just now'
      : s < 3600
        ? `${Math.floor(s / 60)} min ago`
        : s < 86400
          ? `${Math.floor(s / 3600)} h ago`
          : `${Math.floor(s / 86400)} d ago`;
  };
  /** An SVG element (sparklines): attributes only, no inline style (the page's CSP forbids it). */
  function svg(tag, attrs, ...children) {
    const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
    for (const [k, v] of Object.entries(attrs ?? {})) el.setAttribute(k, String(v));
    el.append(...children);
    return el;
  }
  /** Seven bars, oldest day first, scaled to the largest; an empty day is a thin grey mark. */
  function sparkline(values, kind) {
    const W = 8,
      H = 18,
      max = Math.max(...values);
    return svg(
      'svg',
      {
        class: `spark ${kind}`,
        width: values.length * W,
        height: H,
        viewBox: `0 0 ${values.length * W} ${H}`,
        'aria-hidden': 'true',
      },
      ...values.map((v, i) => {
        const bar = v === 0 ? 1 : Math.max(2, Math.round((v / max) * H));
        return svg('rect', { x: i * W + 1, y: H - bar, width: W - 2, height: bar, class: v === 0 ? 'zero' : '' });
      }),
    );
  }
  /** A key's requests and rows of the last days: a sparkline each with the total; each day's figures in the title. */
  function history(days, requests, rows) {
    const perDay = days.map((d, i) => `${d}: ${num(requests[i])} requests, ${num(rows[i])} rows`).join('\n');
    const sum = (a) => a.reduce((x, y) => x + y, 0);
    const line = (name, values, kind) =>
      h(
        'div',
        { class: 'spark-line' },
        h('span', { class: 'spark-name' }, name),
        sparkline(values, kind),
        h('span', { class: 'spark-total' }, num(sum(values))),
      );
    return h(
      'div',
      {
        class: 'spark-box',
        title: perDay,
        role: 'img',
        'aria-label': `last ${days.length} days, oldest first: ${perDay.replace(/\n/g, '; ')}`,
        'data-requests': requests.join(','),
        'data-rows': rows.join(','),
      },
      line('req', requests, 'req'),
      line('rows', rows, 'rows'),
    );
  }
  const duration = (s) => {
    const d = Math.floor(s / 86400),
      hh = Math.floor((s % 86400) / 3600),
      mm = Math.floor((s % 3600) / 60);
    return d ? `${d} d ${hh} h` : hh ? `${hh} h ${mm} min` : mm ? `${mm} min ${s % 60} s` : `${s} s`;
  };
  const stat = (label, value, sub, id) =>
    h(
      'div',
      { class: 'stat' },
      h('div', { class: 'label' }, label),
      h('div', { class: 'value', id }, value),
      sub ? h('div', { class: 'sub' }, sub) : null,
    );
  const message = (id) => h('p', { id, class: 'message', role: 'status' });
  const seconds = (s) => (s < 60 ? `${Math.max(1, Math.round(s))} s` : duration(Math.round(s)));
  /** `read 0.21 s · store 0.05 s · open 0.04 s · publish 0.01 s`: how long each stage of a pass took. */
  const stageTimes = (stages) => (stages ?? []).map((x) => `${x.stage} ${x.seconds.toFixed(2)} s`).join(' · ');
  /** One line for a load: when, what it did, how long, and the stages (the load at start says so). */
  function loadText(e) {
    if (!e) return 'none since the server started';
    const what = `${e.kind}${e.version ? ` ${e.version}` : ''}`;
    const stages = e.stages?.length ? ` (${stageTimes(e.stages)})` : '';
    return `${when(e.finished)} · ${e.at_start ? 'at server start: ' : ''}${what} · took ${e.seconds.toFixed(2)} s${stages}`;
  }
  /** A running reload: stage n of m, a bar (rows read of the estimate, or stored; moving when the stage counts none), figures. */
  function reloadProgress(run) {
    if (!run) return null;
    const title = run.stage === null ? 'Reloading…' : `Stage ${run.step} of ${run.steps}: ${run.label}`;
    const bar = h('progress', {
      id: 'reload-bar',
      max: 1,
      value: run.fraction ?? undefined,
      'aria-label': 'reload progress',
    });
    let detail = '';
    if ((run.stage === 'read' || run.stage === 'store') && run.total_rows > 0) {
      detail = `${num(run.rows)} of ${run.stage === 'read' ? 'about ' : ''}${num(run.total_rows)} K-line rows ${run.stage === 'read' ? 'read' : 'stored'} (${Math.round((run.fraction ?? 0) * 100)} %)`;
      detail += run.seconds_left === null ? ', estimating time left' : `, about ${seconds(run.seconds_left)} left`;
    } else if (run.stage !== null) detail = `${run.stage_seconds.toFixed(1)} s in this stage`;
    const done = run.done?.length ? `done: ${stageTimes(run.done)}` : null;
    return h(
      'div',
      { class: 'progress-box', id: 'reload-progress', 'data-stage': run.stage ?? '' },
      h('div', { id: 'reload-stage' }, title),
      bar,
      h('div', { class: 'small muted', id: 'reload-detail' }, detail, done ? ` · ${done}` : null),
    );
  }
  /** Polls GET /admin/api/reload every 250 ms while a pass runs: `show(running)` each time; `ended()` once it stops. */
  // `asked`: a reload this page asked for and whose answer has not come; until it does, a read
  // that finds no pass running (it came before the pass began) keeps following.
  function followReload(show, ended, asked = () => false) {
    clearTimeout(reloadTimer);
    const page = current();
    const tick = async () => {
      let r;
      try {
        r = await api('GET', '/admin/api/reload');
      } catch {
        return;
      }
      if (current() !== page) return;
      show(r.running);
      if (r.running || asked()) reloadTimer = setTimeout(tick, 250);
      else ended?.();
    };
    tick();
  }
  function say(el, text, kind) {
    el.textContent = text;
    el.className = `message ${kind ?? ''}`;
  }

  // ---- talking to /admin/api ----

  class ApiError extends Error {
    constructor(status, problem) {
      super(problem?.detail ?? `HTTP ${status}`);
      this.status = status;
      this.code = problem?.code ?? null;
    }
  }

  /** A JSON request; a 401 means the session ended: back to the sign-in form. */
  async function api(method, path, body) {
    const headers = { accept: 'application/json' };
    if (method !== 'GET') {
      headers['x-csrf-token'] = csrf ?? '';
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const version = res.headers.get('x-data-version');
    if (version) document.getElementById('top-version').textContent = version;
    const data = await res.json().catch(() => null);
    if (res.status === 401) {
      location.reload(); // served the sign-in form now
      throw new ApiError(401, data);
    }
    if (!res.ok) throw new ApiError(res.status, data);
    return data;
  }
  const post = (path, body = {}) => api('POST', path, body);

  // ---- pages ----

  async function dataPage() {
    const d = await api('GET', '/admin/api/data');
    const reloadMsg = message('reload-result');
    const progressBox = h('div', { id: 'reload-progress-slot' });
    const showRun = (run) => progressBox.replaceChildren(...[reloadProgress(run)].filter(Boolean));
    const button = h('button', { id: 'reload-button', type: 'button', onclick: reload }, 'Reload snapshot');
    async function reload() {
      button.disabled = true;
      say(reloadMsg, 'Reloading… (the same as SIGHUP)');
      let answered = false;
      const answer = post('/admin/api/reload').finally(() => (answered = true)); // answers once the pass is over; its stages show meanwhile
      followReload(showRun, undefined, () => !answered);
      try {
        const r = await answer;
        clearTimeout(reloadTimer);
        const took = `${r.seconds.toFixed(2)} s${r.stages?.length ? `: ${stageTimes(r.stages)}` : ''}`;
        const text = {
          loaded: `Loaded: now serving ${r.version} (${took}).`,
          unchanged: `Unchanged: the folder holds the version already served, ${r.version} (${took}).`,
          rejected: `Rejected, still serving ${r.serving}: ${r.reason}`,
          failed: `Failed, still serving ${r.serving}: ${r.reason}`,
        }[r.kind];
        await render(); // fresh figures, then the outcome under the button
        say(
          document.getElementById('reload-result'),
          text,
          r.kind === 'loaded' || r.kind === 'unchanged' ? 'ok' : 'error',
        );
      } catch (e) {
        clearTimeout(reloadTimer);
        showRun(null);
        say(reloadMsg, `Reload refused: ${e.message}`, 'error');
        button.disabled = false;
      }
    }
    if (d.reload.running) {
      // A reload started elsewhere (SIGHUP, another operator): follow it, then show its outcome.
      button.disabled = true;
      showRun(d.reload.running);
      requestAnimationFrame(() => followReload(showRun, () => render()));
    }
    const last = d.reload.last;
    const rejected = d.reload.last_rejected;
    const manifest = d.manifest ?? {};
    return [
      h(
        'div',
        { class: 'grid' },
        h(
          'div',
          { class: 'stat wide' },
          h('div', { class: 'label' }, 'Data version (X-Data-Version)'),
          h('div', { class: 'value mono', id: 'data-version' }, d.version ?? 'none loaded'),
          manifest.created ? h('div', { class: 'sub' }, `snapshot created ${manifest.created}`) : null,
        ),
        stat('Symbols', num(d.totals.symbols), `${d.markets.filter((m) => m.symbols > 0).length} markets with data`),
        stat('K-line rows', num(d.totals.rows)),
        stat(
          'Macro series',
          d.macro ? num(d.macro_series) : 'none',
          d.macro ? `distinct series keys · ${num(d.macro_indicators)} indicators` : 'no macro.csv in the snapshot',
          'macro-series',
        ),
      ),
      h(
        'section',
        { class: 'card' },
        h('h2', null, 'Markets'),
        h(
          'div',
          { class: 'scroll' },
          h(
            'table',
            { id: 'markets' },
            h(
              'thead',
              null,
              h(
                'tr',
                null,
                h('th', null, 'Market'),
                h('th', { class: 'num' }, 'Symbols'),
                h('th', { class: 'num' }, 'Rows'),
                h('th', null, 'First day'),
                h('th', null, 'Last day'),
              ),
            ),
            h(
              'tbody',
              null,
              d.markets.map((m) =>
                h(
                  'tr',
                  null,
                  h('td', null, m.market),
                  h('td', { class: 'num' }, num(m.symbols)),
                  h('td', { class: 'num' }, num(m.rows)),
                  h('td', null, m.start_date ?? '—'),
                  h('td', null, m.end_date ?? '—'),
                ),
              ),
            ),
          ),
        ),
      ),
      h(
        'section',
        { class: 'card' },
        h('h2', null, 'Snapshot reload'),
        h(
          'p',
          { class: 'muted' },
          'Re-reads the snapshot folder exactly as SIGHUP does: a valid new version is swapped in without dropping a request; a broken one is rejected and the current one stays.',
        ),
        button,
        progressBox,
        reloadMsg,
        h(
          'table',
          { class: 'stack' },
          h(
            'tbody',
            null,
            h(
              'tr',
              null,
              h('th', null, 'Last reload'),
              h('td', { id: 'last-reload', 'data-at-start': last?.at_start ? 'true' : null }, loadText(last)),
            ),
            h(
              'tr',
              null,
              h('th', null, 'Last rejected snapshot'),
              h(
                'td',
                { id: 'last-rejected' },
                rejected ? `${when(rejected.finished)} · ${rejected.reason}` : 'none since the server started',
              ),
            ),
            manifest.note ? h('tr', null, h('th', null, 'Manifest note'), h('td', null, String(manifest.note))) : null,
          ),
        ),
      ),
    ];
  }

  async function keysPage() {
    const d = await api('GET', '/admin/api/keys');
    const msg = message('keys-message');
    const issued = h('div', { id: 'issued' });

    /** The key text, once, with a copy button; it is in no later answer. */
    function showKey(title, key) {
      const code = h('code', { id: 'new-key' }, key);
      const copyMsg = h('span', { class: 'small muted' });
      const copy = h(
        'button',
        {
          type: 'button',
          id: 'copy-key',
          onclick: async () => {
            try {
              await navigator.clipboard.writeText(key);
              copyMsg.textContent = 'Copied.';
            } catch {
              getSelection().selectAllChildren(code);
              copyMsg.textContent = document.execCommand('copy') ? 'Copied.' : 'Selected: press Ctrl+C.';
            }
          },
        },
        'Copy',
      );
      issued.replaceChildren(
        h(
          'p',
          { class: 'small' },
          h('strong', null, title),
          ' It is shown only now and stored only as a hash: copy it and hand it over.',
        ),
        h('div', { class: 'secret' }, code, copy, copyMsg),
      );
    }

    /** The plans in force (PLANS_FILE's figures and plans included): a choice per plan, its figures beside its name. */
    const limit = (n) => (n === null ? 'unlimited' : num(n));
    /** A key's plan's stream connections (`?` for a plan not in force). */
    const limitOf = (plan) => {
      const p = d.plans.find((x) => x.name === plan);
      return p === undefined ? '?' : limit(p.connections);
    };
    const planOptions = (selected) =>
      d.plans.map((p) =>
        h(
          'option',
          { value: p.name, selected: p.name === selected },
          `${p.name} (${limit(p.rpm)}/min, ${limit(p.daily_quota)} rows/day)`,
        ),
      );
    const plan = h('select', { id: 'new-plan', name: 'plan' }, planOptions('pro'));
    const org = h('input', { id: 'new-org', name: 'org', placeholder: 'Desk A', maxLength: 200 });
    const contact = h('input', {
      id: 'new-contact',
      name: 'contact',
      type: 'email',
      placeholder: 'ops@example.com (optional)',
    });
    const create = h(
      'form',
      {
        class: 'inline',
        id: 'create-form',
        onsubmit: async (e) => {
          e.preventDefault();
          try {
            const r = await post('/admin/api/keys', { plan: plan.value, org: org.value, contact: contact.value });
            await refreshTable();
            showKey(`New ${r.record.plan} key ${r.record.id}.`, r.key);
            say(msg, `Created key ${r.record.id}.`, 'ok');
            org.value = contact.value = '';
          } catch (err) {
            say(msg, `Not created: ${err.message}`, 'error');
          }
        },
      },
      h('label', null, 'Plan', plan),
      h('label', null, 'Organisation', org),
      h('label', null, 'Contact e-mail', contact),
      h('button', { type: 'submit', id: 'create-key' }, 'Create key'),
    );

    const COLUMNS = [
      'Id',
      'Plan',
      'Status',
      'Organisation',
      'Contact',
      'Created',
      'Last used',
      'Live streams',
      `Last ${d.days.length} days`,
      'Actions',
    ];
    const tbody = h('tbody');
    const heading = h('h2', null, 'Keys');
    async function refreshTable() {
      const fresh = await api('GET', '/admin/api/keys');
      fillTable(fresh);
    }
    async function act(id, action, body, done) {
      try {
        const r = await post(`/admin/api/keys/${encodeURIComponent(id)}/${action}`, body);
        await refreshTable();
        done(r);
      } catch (err) {
        if (err.code === 'mail_not_configured')
          say(msg, 'Mail is not configured on this server (SMTP_URL is not set): nothing was sent.', 'error');
        else say(msg, `${action} ${id}: ${err.message}`, 'error');
      }
    }
    /** One row form under a key's row at a time (contact or plan). */
    function openRowForm(tr, row, focus) {
      tr.parentElement?.querySelectorAll('tr.row-form').forEach((r) => r.remove());
      tr.after(row);
      focus.focus();
    }
    /** Changes a key's plan: its limits change at once, today's usage stays. */
    function planRow(k, tr) {
      const select = h('select', { id: `plan-of-${k.id}`, 'aria-label': `plan of ${k.id}` }, planOptions(k.plan));
      const row = h(
        'tr',
        { class: 'row-form', 'data-form': 'plan' },
        h(
          'td',
          { colSpan: COLUMNS.length },
          h(
            'form',
            {
              class: 'inline',
              onsubmit: (e) => {
                e.preventDefault();
                if (select.value === k.plan) return void row.remove();
                act(k.id, 'plan', { plan: select.value }, (r) =>
                  say(
                    msg,
                    `Key ${k.id}: plan ${r.previous_plan} → ${r.record.plan}, its limits apply now; today's ${num(r.usage_today.rows)} rows and ${num(r.usage_today.requests)} requests are kept.`,
                    'ok',
                  ),
                );
              },
            },
            h('label', null, `New plan of ${k.id}`, select),
            h('button', { type: 'submit', 'data-action': 'save-plan' }, 'Save'),
            h('button', { type: 'button', class: 'ghost', onclick: () => row.remove() }, 'Cancel'),
          ),
        ),
      );
      openRowForm(tr, row, select);
    }
    function contactRow(k, tr) {
      const input = h('input', {
        type: 'email',
        value: k.contact ?? '',
        placeholder: 'ops@example.com',
        'aria-label': `contact of ${k.id}`,
      });
      const row = h(
        'tr',
        { class: 'row-form', 'data-form': 'contact' },
        h(
          'td',
          { colSpan: COLUMNS.length },
          h(
            'form',
            {
              class: 'inline',
              onsubmit: (e) => {
                e.preventDefault();
                act(k.id, 'contact', { contact: input.value }, () =>
                  say(
                    msg,
                    input.value ? `Contact of ${k.id} set to ${input.value}.` : `Contact of ${k.id} removed.`,
                    'ok',
                  ),
                );
              },
            },
            h('label', null, `Contact e-mail of ${k.id}`, input),
            h('button', { type: 'submit' }, 'Save'),
            h('button', { type: 'button', class: 'ghost', onclick: () => row.remove() }, 'Cancel'),
          ),
        ),
      );
      openRowForm(tr, row, input);
    }
    function fillTable({ keys, days, mail_configured: mailConfigured }) {
      tbody.replaceChildren(
        ...keys.map((k) => {
          const rotate = h(
            'button',
            {
              type: 'button',
              class: 'small danger',
              onclick: () => {
                if (!rotate.classList.contains('confirm')) {
                  rotate.classList.add('confirm');
                  rotate.textContent = 'Really rotate?';
                  setTimeout(() => {
                    rotate.classList.remove('confirm');
                    rotate.textContent = 'Rotate';
                  }, 5000);
                  return;
                }
                act(k.id, 'rotate', {}, (r) => {
                  showKey(`Key ${k.id} rotated: the old key no longer works.`, r.key);
                  say(msg, `Rotated key ${k.id}.`, 'ok');
                });
              },
            },
            'Rotate',
          );
          // data-label: the column's name, shown beside each cell when a narrow window stacks the rows.
          const tr = h(
            'tr',
            { class: k.disabled ? 'disabled' : '', 'data-key-id': k.id },
            h('td', { class: 'mono', 'data-label': 'Id' }, k.id),
            h('td', { 'data-label': 'Plan', 'data-role': 'plan' }, k.plan),
            h(
              'td',
              { 'data-label': 'Status' },
              h(
                'span',
                { class: `badge ${k.disabled ? 'bad' : 'ok'}`, 'data-role': 'status' },
                k.disabled ? 'disabled' : 'enabled',
              ),
            ),
            h('td', { 'data-label': 'Organisation' }, k.org || '—'),
            h('td', { 'data-label': 'Contact' }, k.contact ?? h('span', { class: 'muted' }, 'none')),
            h('td', { class: 'small', 'data-label': 'Created' }, when(k.created)),
            h(
              'td',
              { class: 'small', 'data-label': 'Last used', 'data-role': 'last-used' },
              k.last_used
                ? h('time', { dateTime: k.last_used, title: k.last_used }, ago(k.last_used))
                : h('span', { class: 'muted' }, 'never'),
            ),
            h(
              'td',
              {
                class: 'num',
                'data-label': 'Live streams',
                'data-role': 'streams',
                title: 'WebSocket connections of /api/v1/stream open now, and the most its plan allows',
              },
              `${num(k.streams)} / ${limitOf(k.plan)}`,
            ),
            h(
              'td',
              { 'data-label': `Last ${days.length} days`, 'data-role': 'history' },
              history(days, k.requests_by_day, k.rows_by_day),
            ),
            h(
              'td',
              { class: 'row-actions' },
              h(
                'div',
                { class: 'actions' },
                k.disabled
                  ? h(
                      'button',
                      {
                        type: 'button',
                        class: 'small',
                        'data-action': 'enable',
                        onclick: () => act(k.id, 'enable', {}, () => say(msg, `Enabled key ${k.id}.`, 'ok')),
                      },
                      'Enable',
                    )
                  : h(
                      'button',
                      {
                        type: 'button',
                        class: 'small danger',
                        'data-action': 'disable',
                        onclick: () =>
                          act(k.id, 'disable', {}, () =>
                            say(msg, `Disabled key ${k.id}: it is refused from now on.`, 'ok'),
                          ),
                      },
                      'Disable',
                    ),
                rotate,
                h(
                  'button',
                  { type: 'button', class: 'small', 'data-action': 'plan', onclick: () => planRow(k, tr) },
                  'Plan',
                ),
                h(
                  'button',
                  { type: 'button', class: 'small', 'data-action': 'contact', onclick: () => contactRow(k, tr) },
                  'Contact',
                ),
                h(
                  'button',
                  {
                    type: 'button',
                    class: 'small',
                    'data-action': 'mail',
                    disabled: !mailConfigured,
                    title: mailConfigured
                      ? 'Mail id, plan and how to rotate (never the key) to the contact'
                      : 'Mail is not configured: SMTP_URL is not set on the server',
                    onclick: () =>
                      act(k.id, 'mail', {}, (r) =>
                        say(msg, `Mailed the details of ${k.id} (not the key) to ${r.sent_to}.`, 'ok'),
                      ),
                  },
                  'Mail',
                ),
              ),
            ),
          );
          return tr;
        }),
      );
      document.getElementById('mail-notice')?.classList.toggle('hidden', mailConfigured);
      heading.textContent = `Keys (${keys.length})`;
    }
    fillTable(d);
    const plansCard = h(
      'section',
      { class: 'card' },
      h('h2', null, 'Plans'),
      h(
        'div',
        { class: 'scroll' },
        h(
          'table',
          { id: 'plans' },
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              h('th', null, 'Plan'),
              h('th', { class: 'num' }, 'Requests a minute'),
              h('th', { class: 'num' }, 'Rows a day'),
              h('th', { class: 'num' }, 'Batch symbols'),
              h('th', { class: 'num' }, 'Rows a call'),
              h('th', { class: 'num', title: 'Rows a day a key may export (/{market}/export)' }, 'Export rows a day'),
              h('th', { class: 'num' }, 'Streams per key'),
              h('th', { class: 'num' }, 'Subscriptions per stream'),
            ),
          ),
          h(
            'tbody',
            null,
            d.plans.map((p) =>
              h(
                'tr',
                { 'data-plan': p.name },
                h('td', null, p.name),
                h('td', { class: 'num' }, limit(p.rpm)),
                h('td', { class: 'num' }, limit(p.daily_quota)),
                h('td', { class: 'num' }, num(p.batch)),
                h('td', { class: 'num' }, num(p.rows_per_call)),
                h('td', { class: 'num' }, p.export_rows === 0 ? 'none' : limit(p.export_rows)),
                h('td', { class: 'num' }, limit(p.connections)),
                h('td', { class: 'num' }, limit(p.subscriptions)),
              ),
            ),
          ),
        ),
      ),
      h('p', { class: 'small muted' }, 'Set by PLANS_FILE at start (without it: the built-in plans).'),
    );
    return [
      h('section', { class: 'card' }, h('h2', null, 'Create a key'), create, issued, msg),
      d.mail_configured
        ? null
        : h(
            'div',
            { class: 'notice', id: 'mail-notice' },
            'Mail is not configured on this server (SMTP_URL is not set): the Mail buttons are disabled.',
          ),
      h(
        'section',
        { class: 'card' },
        heading,
        h(
          'table',
          { id: 'keys', class: 'stack' },
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              COLUMNS.map((t) => h('th', null, t)),
            ),
          ),
          tbody,
        ),
      ),
      plansCard,
    ];
  }

  async function usagePage() {
    const d = await api('GET', '/admin/api/usage');
    const total = d.keys.reduce(
      (a, k) => ({ rows: a.rows + k.rows, requests: a.requests + k.requests, refused: a.refused + k.refused_429 }),
      { rows: 0, requests: 0, refused: 0 },
    );
    const shown = d.per_minute.reduce((n, p) => n + p.requests, 0);
    const sinceStart = d.per_minute.length < 60; // the series starts at the server's start
    const chartBox = h('div', { id: 'chart' });
    const cell = (label, value, props) => h('td', { class: 'num', 'data-label': label, ...props }, value);
    const out = [
      h(
        'div',
        { class: 'grid' },
        stat('Quota day', d.day, 'usage resets at 00:00 QUOTA_TZ'),
        stat('Rows today', num(total.rows), 'all keys'),
        stat('Requests today', num(total.requests), `all keys · ${num(total.refused)} refused 429`),
        stat(
          sinceStart ? 'Requests since start' : 'Requests, last hour',
          num(shown),
          sinceStart ? `server started ${when(d.started)}` : 'answered by the API',
        ),
      ),
      h(
        'section',
        { class: 'card' },
        h('h2', null, sinceStart ? 'Requests per minute since the server started' : 'Requests per minute, last hour'),
        chartBox,
      ),
      h(
        'section',
        { class: 'card' },
        h('h2', null, 'Per key today'),
        h(
          'div',
          { class: 'scroll' },
          h(
            'table',
            { id: 'usage' },
            h(
              'thead',
              null,
              h(
                'tr',
                null,
                h('th', null, 'Key'),
                h('th', null, 'Plan'),
                h('th', null, 'Organisation'),
                h('th', { class: 'num' }, 'Rows'),
                h('th', { class: 'num' }, 'Requests'),
                h('th', { class: 'num', title: 'Requests refused 429: rate limit or daily quota' }, 'Refused (429)'),
                h('th', { class: 'num' }, 'Daily quota'),
                h('th', { class: 'num' }, 'Remaining'),
                h(
                  'th',
                  { class: 'num', title: 'Rows exported today (/{market}/export), apart from the rows above' },
                  'Exported',
                ),
                h('th', { class: 'num' }, 'Export rows left'),
              ),
            ),
            h(
              'tbody',
              null,
              d.keys.map((k) =>
                h(
                  'tr',
                  { class: k.disabled ? 'disabled' : '', 'data-key-id': k.id },
                  h('td', { class: 'mono' }, k.id),
                  h('td', null, k.plan),
                  h('td', null, k.org || '—'),
                  cell('Rows', num(k.rows)),
                  cell('Requests', num(k.requests)),
                  cell('Refused (429)', num(k.refused_429), {
                    'data-role': 'refused',
                    title: `${num(k.rate_limited)} over the rate limit · ${num(k.quota_exhausted)} over the daily quota`,
                  }),
                  cell('Daily quota', k.daily_quota === null ? 'unlimited' : num(k.daily_quota)),
                  cell('Remaining', k.remaining === null ? 'unlimited' : num(k.remaining)),
                  cell('Exported', num(k.exported), { 'data-role': 'exported' }),
                  cell(
                    'Export rows left',
                    k.export_quota === null
                      ? 'unlimited'
                      : k.export_quota === 0
                        ? 'not in plan'
                        : num(k.export_remaining),
                    { 'data-role': 'export-left' },
                  ),
                ),
              ),
            ),
          ),
        ),
      ),
      routesCard(d.by_route),
    ];
    requestAnimationFrame(() => drawChart(chartBox, d.per_minute)); // once the page is in place and has a width
    return out;
  }

  /** Requests by route since the server started: every answer the server counted (API, health, /metrics, 404s). */
  function routesCard(routes) {
    const title = h('h2', null, 'Requests by route since start');
    if (routes === null)
      return h(
        'section',
        { class: 'card' },
        title,
        h(
          'p',
          { class: 'muted', id: 'routes-missing' },
          'This server does not pass its per-route counts to the dashboard.',
        ),
      );
    const plans = (r) =>
      Object.entries(r.by_plan)
        .sort((a, b) => b[1] - a[1])
        .map(([p, n]) => `${p} ${num(n)}`)
        .join(' · ');
    return h(
      'section',
      { class: 'card' },
      title,
      h(
        'div',
        { class: 'scroll' },
        h(
          'table',
          { id: 'routes' },
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              h('th', null, 'Route'),
              h('th', { class: 'num' }, 'Requests'),
              h('th', { class: 'num' }, 'Rows'),
              h('th', { class: 'num' }, '2xx/3xx'),
              h('th', { class: 'num' }, '4xx'),
              h('th', { class: 'num' }, '429'),
              h('th', { class: 'num' }, '5xx'),
              h('th', null, 'By plan'),
            ),
          ),
          h(
            'tbody',
            null,
            routes.length === 0
              ? h('tr', null, h('td', { colSpan: 8, class: 'muted' }, 'No requests yet.'))
              : routes.map((r) =>
                  h(
                    'tr',
                    { 'data-route': r.route },
                    h('td', { class: 'mono' }, r.route),
                    h('td', { class: 'num', 'data-role': 'requests' }, num(r.requests)),
                    h('td', { class: 'num' }, num(r.rows)),
                    h('td', { class: 'num' }, num(r.ok)),
                    h('td', { class: 'num' }, num(r.client_errors)),
                    h('td', { class: 'num' }, num(r.too_many)),
                    h('td', { class: 'num' }, num(r.server_errors)),
                    h('td', { class: 'small' }, plans(r)),
                  ),
                ),
          ),
        ),
      ),
    );
  }

  function drawChart(box, points) {
    if (chart) chart.destroy();
    chart = null;
    if (typeof uPlot !== 'function') {
      box.textContent = 'The chart library did not load.';
      return;
    }
    const data = [points.map((p) => p.t), points.map((p) => p.requests), points.map((p) => p.errors)];
    // The x axis spans the minutes the series has (from the server's start, at most an hour), at least a few.
    const first = points[0]?.t ?? Math.floor(Date.now() / 60_000) * 60;
    const last = Math.max(points.at(-1)?.t ?? first, first + 5 * 60);
    const dots = points.length < 3 ? { points: { show: true } } : {}; // a line needs two points: dots until then
    chart = new uPlot(
      {
        width: Math.max(280, box.clientWidth || 800),
        height: 280,
        scales: {
          x: { time: true, range: () => [first, last] },
          y: { range: (_u, _min, max) => [0, Math.max(5, max)] },
        },
        series: [
          {},
          { label: 'requests / min', stroke: '#2457c5', fill: 'rgba(36,87,197,0.12)', width: 2, ...dots },
          { label: 'errors / min', stroke: '#b42318', width: 1.5, ...dots },
        ],
        axes: [{}, { label: 'requests' }],
      },
      data,
      box,
    );
  }

  async function healthPage() {
    const d = await api('GET', '/admin/api/health');
    const badge = { ok: 'ok', draining: 'warn', not_ready: 'bad' }[d.status] ?? 'warn';
    const reloadSlot = h('div', { id: 'reload-progress-slot' });
    const showRun = (run) =>
      reloadSlot.replaceChildren(
        ...(run
          ? [h('section', { class: 'card' }, h('h2', null, 'Snapshot reload in progress'), reloadProgress(run))]
          : []),
      );
    if (d.reload) {
      showRun(d.reload);
      requestAnimationFrame(() => followReload(showRun, () => render()));
    }
    return [
      reloadSlot,
      h(
        'div',
        { class: 'grid' },
        stat(
          'Status',
          h('span', { class: `badge ${badge}` }, d.status),
          d.data_version ? `serving ${d.data_version}` : null,
        ),
        stat('Uptime', duration(d.uptime_s), `since ${when(d.started)}`, 'uptime'),
        stat('Requests / s', d.rps_10s.toFixed(1), `last 10 s · ${d.rps_60s.toFixed(1)} over 60 s`, 'rps'),
        stat('Requests since start', num(d.requests_total), `${num(d.errors_total)} answered with an error`),
      ),
      h(
        'div',
        { class: 'grid' },
        stat('p50 latency', ms(d.p50_ms_1m), 'last 1–2 minutes', 'p50'),
        stat('p99 latency', ms(d.p99_ms_1m), 'last 1–2 minutes', 'p99'),
        stat('p50 / p99, last hour', `${ms(d.p50_ms_1h)} / ${ms(d.p99_ms_1h)}`),
        stat('p50 / p99, since start', `${ms(d.p50_ms_all)} / ${ms(d.p99_ms_all)}`),
      ),
      h(
        'div',
        { class: 'grid' },
        stat(
          'Memory (RSS)',
          `${num(d.memory_mb.rss)} MiB`,
          `heap ${num(d.memory_mb.heap_used)} MiB · external ${num(d.memory_mb.external)} MiB`,
        ),
        stat('Process', `pid ${d.pid}`, `Node ${d.node}`),
        stat('Operator sessions', num(d.sessions)),
      ),
      h(
        'p',
        { class: 'muted small' },
        "Latency is measured inside the server from a request's arrival to its answer, in buckets ~19 % wide (figures within ~±9 %).",
      ),
    ];
  }

  const PAGES = { data: dataPage, keys: keysPage, usage: usagePage, health: healthPage };
  const REFRESH = { usage: 10_000, health: 5_000 };

  function current() {
    const name = location.hash.slice(1);
    return Object.hasOwn(PAGES, name) ? name : 'data';
  }

  async function render() {
    const name = current();
    clearTimeout(refreshTimer);
    clearTimeout(reloadTimer);
    for (const a of document.querySelectorAll('#nav a')) a.classList.toggle('active', a.dataset.page === name);
    document.title = `${name[0].toUpperCase()}${name.slice(1)} · Market data operator dashboard`;
    try {
      const nodes = await PAGES[name]();
      if (name !== current()) return; // the operator moved on meanwhile
      main.replaceChildren(...nodes.filter(Boolean));
      main.dataset.page = name;
    } catch (e) {
      main.replaceChildren(
        h('div', { class: 'card' }, h('p', { class: 'message error' }, `Could not load this page: ${e.message}`)),
      );
    }
    // A page following a running reload refreshes itself when the reload ends.
    if (REFRESH[name] && !document.getElementById('reload-progress'))
      refreshTimer = setTimeout(() => {
        if (!document.hidden && current() === name) render();
      }, REFRESH[name]);
  }

  document.getElementById('sign-out').addEventListener('click', async () => {
    try {
      await post('/admin/api/sign-out');
    } finally {
      location.reload();
    }
  });
  window.addEventListener('hashchange', render);
  window.addEventListener('resize', () => {
    const box = document.getElementById('chart');
    if (chart && box) chart.setSize({ width: Math.max(280, box.clientWidth), height: 280 });
  });

  api('GET', '/admin/api/session').then(
    (s) => {
      csrf = s.csrf;
      render();
    },
    () => {},
  );
})();
