// cardstock live preview. The server sends every game once ("full"), then one
// "update" per build with only the faces that changed, each new image pushed
// just before it (a binary frame: 32 bytes of hash, then the PNG as a data:
// URL, which an image loads from at once). The first
// load fetches images by content hash (/img/<hash>.png), so an unchanged face is
// never fetched or sent again.
'use strict';

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}
const pushed = new Map(); // hash -> data: URL of an image the server pushed
const loaded = new Map(); // hash -> an <img> that loaded (and decoded) a pushed image
const imgUrl = (hash) => pushed.get(hash) || `/img/${hash}.png`;
const CSS_PX_PER_MM = 96 / 25.4;
const store = {
  get(key, fallback) {
    try { const v = localStorage.getItem('cardstock.' + key); return v == null ? fallback : JSON.parse(v); } catch (_) { return fallback; }
  },
  set(key, v) { try { localStorage.setItem('cardstock.' + key, JSON.stringify(v)); } catch (_) { /* private mode */ } },
};

const state = {
  games: new Map(),
  current: null,
  view: 'faces',
  set: '',
  side: '',
  changed: false, // only the faces changed since the last print record
  q: '',
  selected: null,
  zoom: store.get('zoom', 2.6),
  scale: store.get('screenScale', 1),
  sheetsDirty: true,
};
const figures = new Map(); // face id -> <figure>
window.cardstock = state; // for the curious (and the browser test)
state.imgUrl = (hash) => imgUrl(hash);

function loadGame(g) {
  return {
    id: g.game, name: g.name, profile: g.profile, profileName: g.profile_name,
    ok: g.ok, took: g.took_ms, build: g.build, dpi: g.dpi, proof: g.proof,
    sets: g.sets || [], order: (g.faces || []).map((f) => f.id),
    faces: new Map((g.faces || []).map((f) => [f.id, f])),
    sheets: g.sheets || [], diagnostics: g.diagnostics || [],
    rulebook: g.rulebook || [],
  };
}
const game = () => state.games.get(state.current);

// ---- connection

let retry = 500;
function connect() {
  const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
  ws.binaryType = 'arraybuffer';
  ws.onmessage = (e) => {
    retry = 500;
    if (typeof e.data !== 'string') { receiveImage(e.data); return; }
    state.messageAt = performance.timeOrigin + performance.now(); // for the benchmark
    const m = JSON.parse(e.data);
    if (m.type === 'full') full(m);
    else if (m.type === 'update') update(m);
  };
  ws.onclose = () => {
    setStatus('off', 'Disconnected: is cardstock serve still running? Retrying…');
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  };
}

/**
 * A pushed image: kept as its data: URL until no face shows it, and loaded and
 * decoded as it comes, while its message is still on the way, so that the face
 * given it shows it in the next frame.
 */
function receiveImage(data) {
  const text = new TextDecoder().decode(data);
  const hash = text.slice(0, 32);
  if (!pushed.has(hash)) {
    const url = text.slice(32);
    pushed.set(hash, url);
    const ahead = new Image();
    ahead.src = url;
    ahead.decode().catch(() => {});
    loaded.set(hash, ahead);
  }
  state.pushedSince = (state.pushedSince || []).concat([hash]);
}

/** Lets go of pushed images no face of any game shows any more. */
function forgetPushed() {
  const live = new Set();
  for (const g of state.games.values()) for (const f of g.faces.values()) live.add(f.hash);
  for (const hash of [...pushed.keys()]) {
    if (!live.has(hash)) { pushed.delete(hash); loaded.delete(hash); }
  }
}

function full(m) {
  state.fulls = (state.fulls || 0) + 1;
  state.games = new Map(m.games.map((g) => [g.game, loadGame(g)]));
  if (!state.games.has(state.current)) state.current = m.games.length ? m.games[0].game : null;
  renderAll();
}

function update(m) {
  const g = state.games.get(m.game);
  if (!g) return;
  // The header shows each game's name (and, with several, whether it built).
  const header = g.ok !== m.ok || (m.name && m.name !== g.name);
  g.ok = m.ok; g.took = m.took_ms; g.build = m.build;
  if (m.diagnostics) g.diagnostics = m.diagnostics; // absent: the same as the last build's
  if (m.name) g.name = m.name;
  // What this update brought, for the tests: the faces and the images pushed,
  // whether every sheet came and how many placements' pictures did.
  state.lastUpdate = {
    build: m.build, faces: (m.faces || []).map((f) => f.id), images: state.pushedSince || [],
    sheets: !!m.sheets, placed: (m.placed || []).length,
  };
  state.pushedSince = [];
  const changed = [];
  for (const f of m.faces || []) {
    changed.push({ face: f, before: g.faces.get(f.id) });
    g.faces.set(f.id, f);
  }
  let structure = false;
  if (m.order) {
    g.order = m.order;
    const keep = new Set(m.order);
    for (const id of [...g.faces.keys()]) if (!keep.has(id)) g.faces.delete(id);
    structure = true;
  }
  if (m.sets) { g.sets = m.sets; structure = true; }
  if (m.sheets) { g.sheets = m.sheets; state.sheetsDirty = true; }
  // Only new pictures on the same sheets: [sheet, placement, hash].
  for (const [s, i, hash] of m.placed || []) { g.sheets[s].placements[i].hash = hash; state.sheetsDirty = true; }
  if (m.rulebook) { g.rulebook = m.rulebook; state.rulesDirty = true; }
  if (m.ok) forgetPushed();
  if (m.game !== state.current) { if (header) renderGames(); return; }
  if (structure) { renderSetOptions(); layoutFaces(); }
  // The new images first: they decode while the rest is drawn.
  for (const { face, before } of changed) {
    const fig = figures.get(face.id);
    if (fig) fillFace(fig, face, before ? 'swap' : 'new');
  }
  if (header) renderGames();
  renderStatus(true);
  if (m.diagnostics) renderProblems();
  // Only the changed faces can have come into or gone out of the filter,
  // unless the faces were laid out again.
  applyFilter(structure ? null : changed.map((c) => c.face.id));
  if (state.view === 'sheets' && state.sheetsDirty) renderSheets();
  if (state.view === 'rules' && state.rulesDirty) renderRules();
  const sel = changed.find((c) => c.face.id === state.selected);
  if (sel || (structure && !g.faces.has(state.selected))) renderDetail(sel && sel.before);
  if (!$('#real').hidden && sel) openReal();
}

// ---- header, status, problems

function renderGames() {
  const nav = $('#games');
  nav.replaceChildren();
  if (state.games.size === 1) {
    const g = game();
    nav.append(el('span', 'title', g.name || g.id), el('span', 'sub', `${g.profileName || g.profile} · ${g.dpi} dpi`));
    document.title = `${g.name || g.id} · cardstock preview`;
    return;
  }
  for (const g of state.games.values()) {
    const b = el('button', null, g.name || g.id);
    b.type = 'button';
    if (!g.ok) b.textContent += ' ⚠';
    b.setAttribute('aria-current', String(g.id === state.current));
    b.onclick = () => { state.current = g.id; state.selected = null; renderAll(); };
    nav.append(b);
  }
}

function setStatus(kind, text, flash) {
  const s = $('#status');
  // A flash restarts by taking the other of its two names (no forced layout).
  const again = flash ? (s.classList.contains('flash') ? ' flash2' : ' flash') : '';
  s.className = `status ${kind}${again}`;
  if (s.textContent !== text) s.textContent = text;
}

function renderStatus(flash) {
  const g = game();
  if (!g) { setStatus('off', 'No game'); return; }
  const errors = g.diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = g.diagnostics.length - errors;
  const plural = (n, w) => `${n} ${w}${n === 1 ? '' : 's'}`;
  if (g.ok) {
    setStatus('ok', `Build ${g.build} · ${Math.round(g.took)} ms` + (warnings ? ` · ${plural(warnings, 'warning')}` : ''), flash);
  } else {
    setStatus('bad', `Build ${g.build} failed · ${plural(errors, 'error')}`, flash);
  }
  document.body.classList.toggle('stale', !g.ok && g.faces.size > 0);
  const stale = $('#stale');
  if (stale.hidden !== (g.ok || g.faces.size === 0)) stale.hidden = !stale.hidden;
}

function renderProblems() {
  const g = game();
  const box = $('#problems');
  box.replaceChildren();
  const list = g ? g.diagnostics : [];
  box.hidden = list.length === 0;
  for (const d of list) {
    const div = el('div', `diag ${d.severity}`);
    const head = el('div', 'head');
    head.append(el('span', 'sev', d.severity));
    if (d.file) head.append(el('code', 'loc', d.line ? `${d.file}:${d.line}:${d.column}` : d.file));
    head.append(el('span', 'msg', d.message));
    div.append(head);
    if (d.source_line != null && d.line) {
      const pre = el('pre');
      const n = String(d.line);
      pre.append(el('span', 'gutter', `${n} │ `), document.createTextNode(d.source_line + '\n'));
      const pad = ' '.repeat(n.length) + ' │ ' + ' '.repeat(Math.max(0, d.column - 1));
      pre.append(el('span', 'gutter', pad.slice(0, n.length + 3)), document.createTextNode(pad.slice(n.length + 3)));
      pre.append(el('span', 'caret', '^'.repeat(Math.max(1, d.span_chars)) + (d.label ? ' ' + d.label : '')));
      div.append(pre);
    }
    if (d.hint) div.append(el('div', 'hint', d.hint));
    if (d.context && d.context.length) div.append(el('div', 'ctx', d.context.map(([k, v]) => `${k}: ${v}`).join(' · ')));
    box.append(div);
  }
}

// ---- faces

function renderSetOptions() {
  const g = game();
  const sel = $('#set');
  sel.replaceChildren(new Option('All sets', ''));
  for (const s of g ? g.sets : []) sel.append(new Option(`${s.name} (${s.faces})`, s.id));
  if (g && !g.sets.some((s) => s.id === state.set)) state.set = '';
  sel.value = state.set;
}

function fmt(n) { return String(Math.round(n * 100) / 100); }

/** Puts a figure for every face in order under its set, reusing the ones there. */
function layoutFaces() {
  const g = game();
  const main = $('#faces');
  const sections = new Map();
  main.replaceChildren();
  if (!g || g.order.length === 0) {
    main.append(el('p', 'empty', g && !g.ok ? 'No faces yet: the first build has errors (above).' : 'No faces.'));
  }
  for (const s of g ? g.sets : []) {
    const sec = el('section', 'set');
    sec.dataset.set = s.id;
    const h = el('h2', null, s.name);
    const counts = `${s.faces} face${s.faces === 1 ? '' : 's'} · ${s.parts} part${s.parts === 1 ? '' : 's'} · ${s.kind}`;
    const small = el('small', null, counts);
    if (s.expected != null && s.expected !== s.parts) small.append(' · ', el('span', 'bad', `rules say ${s.expected}`));
    h.append(small);
    const grid = el('div', 'grid');
    sec.append(h, grid);
    main.append(sec);
    sections.set(s.id, grid);
  }
  const seen = new Set();
  for (const id of g ? g.order : []) {
    const f = g.faces.get(id);
    let fig = figures.get(id);
    if (!fig) { fig = makeFace(id); figures.set(id, fig); fillFace(fig, f, 'first'); }
    seen.add(id);
    const grid = sections.get(f.set);
    if (grid) grid.append(fig);
  }
  for (const id of [...figures.keys()]) if (!seen.has(id)) figures.delete(id);
}

function makeFace(id) {
  const fig = el('figure', 'face');
  fig.dataset.id = id;
  fig.tabIndex = 0;
  const pic = el('span', 'pic');
  const img = el('img');
  img.decoding = 'async';
  pic.append(img);
  const cap = el('figcaption');
  cap.append(el('span', 'label'), el('span', 'qty'));
  fig.append(pic, cap);
  fig.onclick = () => select(id);
  fig.onkeydown = (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); select(id); } };
  return fig;
}

function faceWidth(f) {
  const w = (f.trim_mm[0] + 2 * f.bleed_mm) * state.zoom;
  return Math.max(40, Math.min(w, 420));
}

/** Shows face `f` in `fig`: a new image replaces the old one once it is loaded. */
function fillFace(fig, f, how) {
  const img = $('img', fig);
  img.alt = `${f.label} ${f.side}`;
  img.width = f.px[0];
  img.height = f.px[1];
  fig.style.width = `${faceWidth(f)}px`;
  fig.dataset.set = f.set;
  fig.dataset.side = f.side;
  $('.label', fig).textContent = f.side === 'back' ? `${f.label} · back` : f.label;
  $('.qty', fig).textContent = `×${f.copies}`;
  fig.title = `${f.id} — ${f.template}`;
  fig._text = [f.id, f.label, f.set_name, f.template, JSON.stringify(f.data), JSON.stringify(f.item)].join(' ').toLowerCase();
  if (img.dataset.hash === f.hash) return;
  img.dataset.hash = f.hash;
  if (how === 'first') { img.src = imgUrl(f.hash); return; }
  // The old picture stays until the new one loaded; a pushed one loaded (and
  // was decoded) as it came (`receiveImage`): then it is shown in the next
  // frame, decoded in it if it was not yet rather than left blank.
  img.decoding = 'sync';
  img.src = imgUrl(f.hash);
  const mark = () => {
    if (img.dataset.hash !== f.hash) return; // a newer build came first
    // The mark restarts by taking the other of its two names (no forced layout).
    const again = fig.classList.contains('fresh') ? 'fresh2' : 'fresh';
    fig.classList.remove('fresh', 'fresh2');
    fig.classList.add(again);
  };
  if (img.complete) mark();
  else img.addEventListener('load', mark, { once: true });
}

function matches(f) {
  if (state.set && f.set !== state.set) return false;
  if (state.side && f.side !== state.side) return false;
  if (state.changed && !f.changed) return false;
  return true;
}

/** The "changed since print N" filter: shown when the game has a print record. */
function renderChangedFilter() {
  const g = game();
  const faces = g ? [...g.faces.values()] : [];
  const since = faces.find((f) => f.since != null);
  const b = $('#changed');
  b.hidden = !since;
  if (!since) { state.changed = false; b.setAttribute('aria-pressed', 'false'); return; }
  const text = `Changed since print ${since.since} (${faces.filter((f) => f.changed).length})`;
  if (b.textContent !== text) b.textContent = text;
}

/**
 * Shows the faces the search and filters let through, and hides the rest: of
 * every face, or of the faces `only` names (an update's: nothing else changed).
 */
function applyFilter(only) {
  const g = game();
  if (!g) return;
  renderChangedFilter();
  const words = state.q.toLowerCase().split(/\s+/).filter(Boolean);
  let flipped = false;
  for (const id of only || figures.keys()) {
    const fig = figures.get(id);
    if (!fig) continue;
    const f = g.faces.get(id);
    const ok = !!f && matches(f) && words.every((w) => fig._text.includes(w));
    if (fig.hidden === ok) { fig.hidden = !ok; flipped = true; }
  }
  if (flipped || !only) {
    for (const sec of $$('#faces .set')) {
      const hide = !$$('.face', sec).some((f) => !f.hidden);
      if (sec.hidden !== hide) sec.hidden = hide;
    }
  }
  let shown = 0;
  for (const fig of figures.values()) if (!fig.hidden) shown++;
  const count = $('#count');
  const text = shown === g.faces.size ? `${shown} faces` : `${shown} of ${g.faces.size} faces`;
  if (count.textContent !== text) count.textContent = text;
  if (state.view === 'sheets' && !only) for (const fig of $$('#sheets .sheet')) fig.hidden = !!state.set && !fig._sets.has(state.set);
}

// ---- sheets

function renderSheets() {
  state.sheetsDirty = false;
  const g = game();
  const main = $('#sheets');
  main.replaceChildren();
  if (!g || g.sheets.length === 0) { main.append(el('p', 'empty', 'No sheets.')); return; }
  const files = new Map();
  for (const s of g.sheets) {
    if (!files.has(s.file)) files.set(s.file, []);
    files.get(s.file).push(s);
  }
  for (const [file, sheets] of files) {
    const box = el('section', 'file');
    box.append(el('h2', null, file));
    const pages = el('div', 'pages');
    for (const s of sheets) pages.append(renderSheet(g, s));
    box.append(pages);
    main.append(box);
  }
  applyFilter();
}

function renderSheet(g, s) {
  const fig = el('figure', 'sheet');
  fig._sets = new Set(s.placements.map((p) => (g.faces.get(p.face) || {}).set));
  fig.dataset.faces = ' ' + s.placements.map((p) => p.face).join(' ') + ' ';
  fig.dataset.file = s.file;
  fig.dataset.page = String(s.page);
  if (s.size_mm) {
    const k = Math.min(250 / s.size_mm[0], 330 / s.size_mm[1]);
    const paper = el('div', 'paper');
    paper.style.width = `${s.size_mm[0] * k}px`;
    paper.style.height = `${s.size_mm[1] * k}px`;
    for (const p of s.placements) {
      const clip = el('div', 'clip');
      clip.dataset.face = p.face;
      Object.assign(clip.style, {
        left: `${p.clip[0] * k}px`, top: `${p.clip[1] * k}px`, width: `${p.clip[2] * k}px`, height: `${p.clip[3] * k}px`,
      });
      const img = el('img');
      img.alt = '';
      img.src = imgUrl(p.hash);
      // The picture at its own size, mapped onto the page as the PDF draws it
      // (turned a quarter or upside down where the layout turned it).
      const [a, b, c, d, e, f] = p.matrix;
      Object.assign(img.style, {
        left: '0px', top: '0px', width: `${p.rect[2] * k}px`, height: `${p.rect[3] * k}px`,
        transformOrigin: '0 0',
        transform: `matrix(${a}, ${b}, ${c}, ${d}, ${(e - p.clip[0]) * k}, ${(f - p.clip[1]) * k})`,
      });
      clip.append(img);
      clip.onclick = () => select(p.face);
      paper.append(clip);
    }
    if (s.marks) {
      const marks = el('img', 'marks');
      marks.alt = '';
      marks.src = imgUrl(s.marks);
      paper.append(marks);
    }
    fig.append(paper);
  } else {
    const row = el('div', 'imagefile');
    for (const p of s.placements) {
      const img = el('img');
      img.alt = p.face;
      img.src = imgUrl(p.hash);
      img.onclick = () => select(p.face);
      row.append(img);
    }
    fig.append(row);
  }
  const cap = el('figcaption');
  if (s.page) cap.append(el('b', null, `p. ${s.page}`), ' · ');
  cap.append(s.label);
  fig.append(cap);
  return fig;
}

// ---- rulebook

/** The rulebook's pages, each the picture of the page as it prints. */
function renderRules() {
  state.rulesDirty = false;
  const g = game();
  const main = $('#rules');
  main.replaceChildren();
  if (!g || g.rulebook.length === 0) {
    main.append(el('p', 'empty', 'No rulebook: write data/<game>/rules.md (see docs/rulebook.md).'));
    return;
  }
  for (const p of g.rulebook) {
    const fig = el('figure', 'page');
    const img = el('img');
    img.alt = `page ${p.number}`;
    img.src = imgUrl(p.hash);
    img.style.width = `${p.size_mm[0] * 2.2}px`;
    fig.append(img, el('figcaption', null, `p. ${p.number}`));
    main.append(fig);
  }
}

// ---- detail

function select(id) {
  state.selected = id;
  for (const f of $$('.face.selected')) f.classList.remove('selected');
  const fig = figures.get(id);
  if (fig) fig.classList.add('selected');
  renderDetail();
}

function value(v) {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

function renderDetail(before) {
  const g = game();
  const f = g && g.faces.get(state.selected);
  const panel = $('#detail');
  document.body.classList.toggle('has-detail', !!f);
  if (!f) { panel.hidden = true; return; }
  panel.hidden = false;
  $('#detail-title').textContent = `${f.label} — ${f.side}`;
  const img = $('#detail-img');
  img.src = imgUrl(f.hash);
  img.alt = `${f.label} ${f.side}`;
  const facts = $('#detail-facts');
  facts.replaceChildren();
  const fact = (k, v) => { facts.append(el('dt', null, k)); const dd = el('dd'); dd.append(v); facts.append(dd); };
  const code = (t) => el('code', null, t);
  fact('Face', code(f.id));
  fact('Set', `${f.set_name} (${f.set})`);
  fact('Template', code(f.template));
  const full = [f.trim_mm[0] + 2 * f.bleed_mm, f.trim_mm[1] + 2 * f.bleed_mm];
  fact('Size', `${fmt(f.trim_mm[0])} × ${fmt(f.trim_mm[1])} mm, bleed ${fmt(f.bleed_mm)} mm (${fmt(full[0])} × ${fmt(full[1])} mm)`);
  fact('Shape', f.shape);
  fact('Copies', String(f.copies));
  fact('Revision', `r${f.revision}`);
  if (f.since != null) fact(`Since print ${f.since}`, f.changed || 'unchanged');
  const prints = el('span');
  if (f.prints.length === 0) prints.append('—');
  f.prints.forEach((p, i) => {
    if (i) prints.append(el('br'));
    prints.append(code(p.file));
    if (p.pages.length) {
      prints.append(p.pages.length === 1 ? ', page ' : ', pages ');
      p.pages.forEach((n, j) => {
        if (j) prints.append(', ');
        const a = el('a', null, String(n));
        a.onclick = () => showOnSheet(f.id, p.file, n);
        prints.append(a);
      });
    }
  });
  fact('Prints on', prints);
  fact('Image', `${f.px[0]} × ${f.px[1]} px at ${g.dpi} dpi`);
  if (g.proof) {
    // The image is the soft proof: the face as it prints for the profile's condition.
    const moved = el('span', 'moved');
    if (!f.moved || !f.moved.length) moved.append(`as on screen (every colour within ΔE 5)`);
    (f.moved || []).forEach((m, i) => {
      if (i) moved.append(el('br'));
      const sw = (c) => { const s = el('span', 'swatch'); s.style.background = c; s.title = c; return s; };
      moved.append(sw(m.screen), ' → ', sw(m.print),
        ` ${m.screen} prints C${m.cmyk[0]} M${m.cmyk[1]} Y${m.cmyk[2]} K${m.cmyk[3]}, ΔE ${fmt(m.delta_e)}`);
    });
    fact(`In print (${g.proof})`, moved);
  }
  const src = $('#detail-source');
  src.replaceChildren();
  if (f.source) {
    // file:line:column of a TOML or CSV row; file:row:column of a workbook row.
    src.append(code(`${f.source.file}:${f.source.line}:${f.source.column}`));
    if (f.source.sheet) src.append(` (sheet ${f.source.sheet})`);
  }
  else src.append(f.data ? '' : 'This face has no data row.');
  const table = $('#detail-data');
  table.replaceChildren();
  const rows = [];
  if (f.item !== null) rows.push(['item', f.item, before && before.item]);
  if (f.data && typeof f.data === 'object') {
    for (const k of Object.keys(f.data).sort()) rows.push([k, f.data[k], before && before.data && before.data[k]]);
  }
  for (const [k, v, old] of rows) {
    const tr = el('tr');
    if (before && JSON.stringify(v) !== JSON.stringify(old)) tr.className = 'changed';
    tr.append(el('th', null, k), el('td', null, value(v)));
    table.append(tr);
  }
}

function showOnSheet(id, file, page) {
  setView('sheets');
  for (const c of $$('#sheets .clip.hit')) c.classList.remove('hit');
  const holding = $$('#sheets .sheet').filter((fig) => fig.dataset.faces.includes(` ${id} `));
  for (const fig of holding) for (const c of $$('.clip', fig)) if (c.dataset.face === id) c.classList.add('hit');
  const target = holding.find((fig) => fig.dataset.file === file && fig.dataset.page === String(page)) || holding[0];
  if (target) target.scrollIntoView({ block: 'center' });
}

// ---- real size

function pxPerMm() { return CSS_PX_PER_MM * state.scale; }

function openReal() {
  const f = game() && game().faces.get(state.selected);
  if (!f) return;
  const k = pxPerMm();
  const w = f.trim_mm[0] + 2 * f.bleed_mm;
  const h = f.trim_mm[1] + 2 * f.bleed_mm;
  $('#real').hidden = false;
  $('#real-title').textContent = `${f.label} — ${f.side}`;
  $('#real-size').textContent = `${fmt(f.trim_mm[0])} × ${fmt(f.trim_mm[1])} mm trim, ${fmt(f.bleed_mm)} mm bleed`;
  const img = $('#real-img');
  img.src = imgUrl(f.hash);
  img.style.width = `${w * k}px`;
  img.style.height = `${h * k}px`;
  const trim = $('#real-trim');
  Object.assign(trim.style, {
    left: `${f.bleed_mm * k}px`, top: `${f.bleed_mm * k}px`,
    width: `${f.trim_mm[0] * k}px`, height: `${f.trim_mm[1] * k}px`,
  });
  // The cut line's corners, as the sheets draw it (layout::shape_path).
  const corner = Math.min(f.trim_mm[0], f.trim_mm[1]) * 0.08;
  trim.style.borderRadius = f.shape === 'round' ? '50%' : f.shape === 'rounded' ? `${Math.min(corner, 3) * k}px` : '0';
  trim.hidden = !$('#trim-line').checked;
  drawRuler();
}

function drawRuler() {
  const k = pxPerMm();
  const ruler = $('#ruler');
  ruler.replaceChildren();
  const mm = 150;
  ruler.style.width = `${mm * k + 1}px`;
  for (let i = 0; i <= mm; i++) {
    const t = el('div', 'tick');
    t.style.left = `${i * k}px`;
    t.style.height = `${i % 10 === 0 ? 22 : i % 5 === 0 ? 14 : 8}px`;
    ruler.append(t);
    if (i % 10 === 0) {
      const n = el('span', 'num', String(i / 10));
      n.style.left = `${i * k}px`;
      ruler.append(n);
    }
  }
  ruler.append(el('span', 'unit', 'cm'));
  const card = $('#bankcard');
  card.style.width = `${85.6 * k}px`;
  card.style.height = `${53.98 * k}px`;
  $('#scale').value = state.scale;
  $('#scale-out').textContent = `${Math.round(state.scale * 1000) / 10} % (${fmt(96 * state.scale)} px per inch)`;
}

function setScale(v) {
  state.scale = Math.max(0.5, Math.min(2, v));
  store.set('screenScale', state.scale);
  openReal();
}

// ---- views and controls

function setView(v) {
  state.view = v;
  for (const b of $$('.views button')) b.setAttribute('aria-selected', String(b.dataset.view === v));
  $('#faces').hidden = v !== 'faces';
  $('#sheets').hidden = v !== 'sheets';
  $('#rules').hidden = v !== 'rules';
  if (v === 'sheets' && state.sheetsDirty) renderSheets();
  if (v === 'rules' && state.rulesDirty) renderRules();
  applyFilter();
}

function renderAll() {
  figures.clear();
  state.sheetsDirty = true;
  state.rulesDirty = true;
  renderGames();
  renderStatus(false);
  renderProblems();
  renderSetOptions();
  layoutFaces();
  applyFilter();
  if (state.view === 'sheets') renderSheets();
  if (state.view === 'rules') renderRules();
  renderDetail();
}

function init() {
  for (const b of $$('.views button')) b.onclick = () => setView(b.dataset.view);
  for (const b of $$('#side button')) {
    b.onclick = () => {
      state.side = b.dataset.side;
      for (const o of $$('#side button')) o.setAttribute('aria-pressed', String(o === b));
      applyFilter();
    };
  }
  $('#set').onchange = (e) => { state.set = e.target.value; applyFilter(); };
  $('#changed').onclick = (e) => {
    state.changed = !state.changed;
    e.target.setAttribute('aria-pressed', String(state.changed));
    applyFilter();
  };
  $('#q').oninput = (e) => { state.q = e.target.value; applyFilter(); };
  const zoom = $('#zoom');
  zoom.value = state.zoom;
  zoom.oninput = () => {
    state.zoom = Number(zoom.value);
    store.set('zoom', state.zoom);
    const g = game();
    if (g) for (const [id, fig] of figures) { const f = g.faces.get(id); if (f) fig.style.width = `${faceWidth(f)}px`; }
  };
  $('#detail-close').onclick = () => { state.selected = null; select(null); };
  $('#real-open').onclick = openReal;
  $('#sheet-open').onclick = () => {
    const f = game() && game().faces.get(state.selected);
    if (f) showOnSheet(f.id, f.prints[0] && f.prints[0].file, f.prints[0] && f.prints[0].pages[0]);
  };
  $('#real-close').onclick = () => { $('#real').hidden = true; };
  $('#scale').oninput = (e) => setScale(Number(e.target.value));
  $('#scale-reset').onclick = () => setScale(1);
  $('#trim-line').onchange = openReal;
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      if (!$('#real').hidden) $('#real').hidden = true;
      else if (state.selected) select(null);
    }
  });
  connect();
}

init();
