"""The hand page's script (see :mod:`.html_proof`): replay the hand, check every proof.

The check is ``dealerbot verify``'s (docs/fairness.md, "How to check a proof"): each card's
fields are read as strictly as :func:`.document.parse_document` reads them, its leaf hashed
and its audit path walked to the commitment with SHA-256 (the browser's Web Crypto; this
page's own SHA-256 where the browser offers none, e.g. a page not in a secure context), and
the streets must not go down as the positions go up. On top, every card the replay shows
must be opened by a proof at the same seat, street and face. Any failure, or any error in
the script itself, shows as a failure: the page never says "check" by default.

Every text reaches the page through ``textContent`` or a text node, never as markup.
"""

SCRIPT = r"""
"use strict";
(() => {
const $ = (id) => document.getElementById(id);
const SCHEME = "dealerbot-merkle-v1", DECK_SIZE = 52;
const HEX64 = /^[0-9a-f]{64}$/, HEX32 = /^[0-9a-f]{32}$/, CARD = /^[2-9TJQKA][cdhs]$/;
const STREETS = {3: "3rd", 4: "4th", 5: "5th", 6: "6th", 7: "7th"};
const FACES = ["down", "up", "community"];
const HIDDEN = "\u{1F0A0}";

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = String(text);
  return node;
}
function put(parent, child) {  // attach a child and return it
  parent.appendChild(child);
  return child;
}
function add(parent, ...kids) {  // attach children (text as text nodes), return the parent
  for (const kid of kids) {
    parent.appendChild(typeof kid === "string" ? document.createTextNode(kid) : kid);
  }
  return parent;
}

// SHA-256 --------------------------------------------------------------------------------
const K = new Uint32Array([
  0x428a2f98,0x71374491,0xb5c0fbcf,0xe9b5dba5,0x3956c25b,0x59f111f1,0x923f82a4,0xab1c5ed5,
  0xd807aa98,0x12835b01,0x243185be,0x550c7dc3,0x72be5d74,0x80deb1fe,0x9bdc06a7,0xc19bf174,
  0xe49b69c1,0xefbe4786,0x0fc19dc6,0x240ca1cc,0x2de92c6f,0x4a7484aa,0x5cb0a9dc,0x76f988da,
  0x983e5152,0xa831c66d,0xb00327c8,0xbf597fc7,0xc6e00bf3,0xd5a79147,0x06ca6351,0x14292967,
  0x27b70a85,0x2e1b2138,0x4d2c6dfc,0x53380d13,0x650a7354,0x766a0abb,0x81c2c92e,0x92722c85,
  0xa2bfe8a1,0xa81a664b,0xc24b8b70,0xc76c51a3,0xd192e819,0xd6990624,0xf40e3585,0x106aa070,
  0x19a4c116,0x1e376c08,0x2748774c,0x34b0bcb5,0x391c0cb3,0x4ed8aa4a,0x5b9cca4f,0x682e6ff3,
  0x748f82ee,0x78a5636f,0x84c87814,0x8cc70208,0x90befffa,0xa4506ceb,0xbef9a3f7,0xc67178f2]);
const ror = (x, n) => (x >>> n) | (x << (32 - n));
function sha256Own(msg) {  // FIPS 180-4, for browsers without Web Crypto here
  const len = msg.length, size = Math.ceil((len + 9) / 64) * 64;
  const buf = new Uint8Array(size);
  buf.set(msg);
  buf[len] = 0x80;
  const view = new DataView(buf.buffer);
  view.setUint32(size - 8, Math.floor(len / 0x20000000));
  view.setUint32(size - 4, (len * 8) >>> 0);
  const H = new Uint32Array([0x6a09e667,0xbb67ae85,0x3c6ef372,0xa54ff53a,
                             0x510e527f,0x9b05688c,0x1f83d9ab,0x5be0cd19]);
  const W = new Uint32Array(64);
  for (let off = 0; off < size; off += 64) {
    for (let i = 0; i < 16; i++) W[i] = view.getUint32(off + 4 * i);
    for (let i = 16; i < 64; i++) {
      const a = W[i - 15], b = W[i - 2];
      W[i] = W[i - 16] + (ror(a, 7) ^ ror(a, 18) ^ (a >>> 3)) + W[i - 7]
        + (ror(b, 17) ^ ror(b, 19) ^ (b >>> 10));
    }
    let [a, b, c, d, e, f, g, h] = H;
    for (let i = 0; i < 64; i++) {
      const s1 = ror(e, 6) ^ ror(e, 11) ^ ror(e, 25);
      const t1 = (h + s1 + ((e & f) ^ (~e & g)) + K[i] + W[i]) >>> 0;
      const t2 = ((ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      h = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    H[0] += a; H[1] += b; H[2] += c; H[3] += d; H[4] += e; H[5] += f; H[6] += g; H[7] += h;
  }
  const out = new Uint8Array(32);
  for (let i = 0; i < 8; i++) new DataView(out.buffer).setUint32(4 * i, H[i]);
  return out;
}
const subtle = globalThis.crypto && globalThis.crypto.subtle;
async function sha256(bytes) {
  return subtle ? new Uint8Array(await subtle.digest("SHA-256", bytes)) : sha256Own(bytes);
}
function join(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}
const fromHex = (hex) => Uint8Array.from(hex.match(/../g), (b) => parseInt(b, 16));
const toHex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const text = new TextEncoder();

// RFC 9162 2.1.3.2 for leaf `position` of a 52-leaf tree, as docs/fairness.md writes it.
async function leadsTo(c, commitment) {
  let r = await sha256(join([0], text.encode(`${SCHEME}:${c.position}:${c.card}:${c.salt}`)));
  let fn = c.position, sn = DECK_SIZE - 1;
  for (const p of c.path) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = await sha256(join([1], fromHex(p), r));
      while (fn % 2 === 0 && fn !== 0) { fn >>= 1; sn >>= 1; }
    } else {
      r = await sha256(join([1], r, fromHex(p)));
    }
    fn >>= 1; sn >>= 1;
  }
  return sn === 0 && toHex(r) === commitment;
}

function problem(c) {  // why a card entry cannot be checked, or null
  if (!c || typeof c !== "object") return "it is not a card entry";
  if (!Number.isInteger(c.position) || c.position < 0 || c.position >= DECK_SIZE)
    return "its position is not 0 to 51";
  if (typeof c.card !== "string" || !CARD.test(c.card)) return "its card is not written like As";
  if (typeof c.salt !== "string" || !HEX32.test(c.salt))
    return "its salt is not 32 lowercase hex characters";
  if (!Array.isArray(c.path) || !c.path.every((p) => typeof p === "string" && HEX64.test(p)))
    return "its path is not a list of 64 lowercase hex characters each";
  if (!Number.isInteger(c.street) || !(c.street in STREETS)) return "its street is not 3 to 7";
  if (!FACES.includes(c.face)) return "its face is not down, up or community";
  if ((c.seat === null) !== (c.face === "community"))
    return "only the community card, and it alone, has no seat";
  if (c.seat !== null && !Number.isInteger(c.seat)) return "its seat is not a number";
  return null;
}

// The page -------------------------------------------------------------------------------
function show(data) {
  const doc = data.proof, hand = data.hand, words = data.words || {ranks: {}, suits: {}};
  if (!doc || typeof doc !== "object" || !hand || typeof hand !== "object")
    throw new Error("its data holds no proof document or no hand");
  const seats = Array.isArray(hand.seats) ? hand.seats : [];
  const pretty = (c) => typeof c === "string" && CARD.test(c)
    ? (words.ranks[c[0]] || c[0]) + (words.suits[c[1]] || c[1]) : String(c);
  const nameOf = (n) => {
    const seat = seats.find((s) => s.seat === n);
    return seat ? String(seat.name) : "?";
  };
  const seatText = (n) => `Seat ${n} ${nameOf(n)}` + (n === hand.hero ? " (you)" : "");
  const chips = (n) => Number(n).toLocaleString("en-US");
  const where = (c) => {
    const at = c.seat === null ? "community"
      : Number.isInteger(c.seat) ? seatText(c.seat + 1) : "Seat ?";
    const street = STREETS[c.street] || "?";
    return `${pretty(c.card)} at position ${c.position} (${at}, ${street} street, ${c.face})`;
  };
  const title = `Hand #${hand.number} at ${hand.table} \u00b7 ${hand.game}`;
  document.title = title;
  $("title").textContent = title;
  $("where").textContent =
    `Hand id ${hand.hand_id} \u00b7 ${hand.started} \u00b7 stakes ${hand.stakes}`;
  const commitment = typeof doc.commitment === "string" ? doc.commitment : "";
  $("commitment").textContent = commitment || "(none)";
  const start = `${commitment.slice(0, 12)}\u2026`;
  $("compare").textContent = hand.hero !== null && hand.hero !== undefined
    ? `Check that it matches the commitment in your deal DM of hand #${hand.number}; `
      + `the table showed its start, ${start}, when the hand began.`
    : "You were not dealt in: check that it starts like the commitment the table showed "
      + `when hand #${hand.number} began (${start}), or ask a player for his deal DM.`;
  return {doc, hand, seats, pretty, seatText, chips, where, commitment};
}

async function check(v) {
  const {doc, commitment} = v;
  const failures = [];
  let usable = true;
  if (doc.scheme !== SCHEME) {
    failures.push(`This file's scheme is not ${SCHEME}, the one this page checks.`);
    usable = false;
  }
  if (!HEX64.test(commitment)) {
    failures.push("The commitment is not 64 lowercase hex characters.");
    usable = false;
  }
  const cards = Array.isArray(doc.cards) ? doc.cards : [];
  if (!cards.length) failures.push("The file opens no card, so it proves nothing.");
  const results = [], seen = new Set();
  for (const c of cards) {
    let reason = problem(c);
    if (!reason && seen.has(c.position)) reason = `position ${c.position} appears twice`;
    if (!reason) seen.add(c.position);
    if (!reason && !usable) reason = "there is no commitment to check it against";
    if (!reason && !(await leadsTo(c, commitment))) reason = "it does not match the commitment";
    results.push({c, reason});
  }
  let latest = null;  // the deck is dealt street by street from the top
  for (const r of results.filter((r) => !r.reason).sort((a, b) => a.c.position - b.c.position)) {
    if (latest && r.c.street < latest.c.street) {
      r.reason = "it is dealt before a card of an earlier street";
      continue;
    }
    if (!latest || r.c.street > latest.c.street) latest = r;
  }
  for (const r of results) {
    if (r.reason) failures.push(`Proof FAILED for ${v.where(r.c)}: ${r.reason}.`);
  }
  return {results, failures};
}

function cardNode(v, card, face, mark) {
  if (card === null || card === undefined) {
    const node = el("span", "card hidden", HIDDEN);
    node.title = "face down, never shown to you";
    return node;
  }
  const red = typeof card === "string" && (card[1] === "h" || card[1] === "d");
  const cls = `card ${face === "up" ? "up" : ""} ${red ? "red" : ""} ${mark}`;
  const node = el("span", cls, v.pretty(card));
  node.dataset.mark = mark;
  node.title = {proved: "proved", failed: "its proof FAILED", unproved: "no proof opens it"}[mark];
  return node;
}

function replay(v, checked) {
  const {hand, seats, pretty, seatText, chips} = v;
  const byCard = new Map();
  for (const r of checked.results) {
    if (r.c && typeof r.c.card === "string") {
      byCard.set(r.c.card, [...(byCard.get(r.c.card) || []), r]);
    }
  }
  const markOf = (card, seat, street, face, whose) => {
    const list = byCard.get(card) || [];
    const match = list.find((r) => r.c.street === street && r.c.face === face
      && (seat === null ? r.c.seat === null : r.c.seat === seat - 1));
    if (!list.length) {
      checked.failures.push(`The replay shows ${pretty(card)} as ${whose}, but no proof opens it.`);
      return "unproved";
    }
    if (!match) {
      checked.failures.push(`The replay shows ${pretty(card)} as ${whose}, `
        + `but its proof puts it elsewhere: ${v.where(list[0].c)}.`);
      return "failed";
    }
    return match.reason ? "failed" : "proved";
  };
  const box = $("replay");
  add(box, el("h2", "", "The hand, street by street"));
  const list = put(box, el("ul"));
  for (const s of seats) {
    add(list, el("li", "", `${seatText(s.seat)}: ${chips(s.stack)} chips`));
  }
  const antes = Array.isArray(hand.antes) ? hand.antes : [];
  const same = antes.every((a) => a.amount === antes[0].amount && !a.all_in);
  if (antes.length && same) {
    add(box, el("p", "", `Each player antes ${chips(antes[0].amount)}.`));
  } else if (antes.length) {
    add(box, el("p", "", "Antes: " + antes.map((a) => `${v.seatText(a.seat)} ${chips(a.amount)}`
      + (a.all_in ? " (all-in)" : "")).join(", ")));
  }
  const marks = new Map();  // "seat:index" -> mark
  seats.forEach((s) => (s.cards || []).forEach((k, i) => {
    if (k.card !== null) {
      const whose = `${seatText(s.seat)}'s ${STREETS[k.street]} street card`;
      marks.set(`${s.seat}:${i}`, markOf(k.card, s.seat, k.street, k.face, whose));
    }
  }));
  const communityMark = hand.community
    ? markOf(hand.community, null, 7, "community", "the community card") : "";
  for (const st of Array.isArray(hand.streets) ? hand.streets : []) {
    const part = put(box, el("div", "street"));
    add(part, el("h3", "", `${st.name} street`));
    for (const s of seats) {
      const dealt = (s.cards || []).map((k, i) => [k, i]).filter(([k]) => k.street === st.street);
      if (!dealt.length) continue;
      const row = put(part, add(el("div", "seat"), el("span", "who", seatText(s.seat))));
      for (const [k, i] of dealt) {
        add(row, cardNode(v, k.card, k.face, marks.get(`${s.seat}:${i}`)));
      }
    }
    if (st.street === 7 && hand.community) {
      add(part, add(el("div", "seat"), el("span", "who", "Community card"),
        cardNode(v, hand.community, "up", communityMark)));
    }
    const acts = put(part, el("ul"));
    for (const a of Array.isArray(st.actions) ? st.actions : []) {
      add(acts, el("li", "", `${seatText(a.seat)} ${a.text}`));
    }
    add(part, el("p", "muted", `Pot: ${chips(st.pot)}`));
  }
  const res = hand.result || {};
  const out = $("result");
  add(out, el("h2", "", "Result"));
  const lines = put(out, el("ul"));
  for (const r of res.returned || []) {
    add(lines, el("li", "", `${chips(r.amount)} returned to ${seatText(r.seat)}`));
  }
  for (const p of res.pots || []) {
    const won = (p.winners || []).map((w) => `${seatText(w.seat)} ${chips(w.amount)}`).join(", ");
    add(lines, el("li", "", `${p.name} ${chips(p.amount)}: ${won || "nobody"}`));
  }
  for (const s of res.shown || []) add(lines, el("li", "", `${seatText(s.seat)} shows ${s.hand}`));
  if (res.no_low) add(lines, el("li", "", "No low hand qualified."));
  for (const s of res.stacks || []) {
    const net = s.after - s.before;
    const sign = net > 0 ? "+" : net < 0 ? "\u2212" : "\u00b1";
    const change = `${chips(s.before)} \u2192 ${chips(s.after)} (${sign}${chips(Math.abs(net))})`;
    add(lines, el("li", "", `${seatText(s.seat)}: ${change}`));
  }
  add(out, el("h3", "", "Every player's cards"));
  for (const s of seats) {
    const row = put(out, add(el("div", "seat"), el("span", "who", seatText(s.seat))));
    (s.cards || []).forEach((k, i) => {
      add(row, cardNode(v, k.card, k.face, marks.get(`${s.seat}:${i}`)));
    });
  }
}

function proofList(v, checked) {
  const box = $("proofs");
  add(box, el("h2", "", `Proofs (${checked.results.length})`));
  const list = put(box, el("ul", "proofs"));
  for (const r of checked.results) {
    const item = put(list, el("li", r.reason ? "fail" : "ok"));
    item.dataset.position = String(r.c && r.c.position);
    const what = r.c && typeof r.c === "object" ? v.where(r.c) : "?";
    add(item, (r.reason ? "\u2717 " : "\u2713 ") + what + (r.reason ? `: ${r.reason}` : ""));
    if (r.c && typeof r.c === "object") {
      const more = put(item, el("details"));
      add(more, el("summary", "muted", "salt and path"));
      add(more, el("div", "hex", `salt ${r.c.salt}`));
      for (const p of Array.isArray(r.c.path) ? r.c.path : []) {
        add(more, el("div", "hex", String(p)));
      }
    }
  }
}

function verdict(checked, problemText) {
  const box = $("verdict");
  box.textContent = "";
  const failures = problemText ? [problemText] : checked.failures;
  const n = checked ? checked.results.length : 0;
  const good = checked ? checked.results.filter((r) => !r.reason).length : 0;
  if (!failures.length) {
    box.className = "verdict ok";
    box.dataset.state = "ok";
    const all = n === 1 ? "The one proof checks" : `All ${n} proofs check`;
    add(box, `\u2713 ${all} against the commitment: every card you saw was in the deck, `
      + "at its place, before the first card was dealt.");
  } else {
    box.className = "verdict failed";
    box.dataset.state = "failed";
    const count = checked ? ` (${good} of ${n} proofs check)` : "";
    add(box, el("div", "", `\u2717 Check FAILED${count}`));
    const list = put(box, el("ul"));
    for (const f of failures) add(list, el("li", "", f));
  }
  const how = subtle ? "SHA-256 by the browser's Web Crypto"
    : "SHA-256 by this page's own code (this browser offers no Web Crypto here)";
  add(box, el("div", "muted", `Checked with ${how}, offline.`));
}

async function main() {
  let data;
  try {
    data = JSON.parse($("hand-data").textContent);
  } catch (e) {
    verdict(null, "This file is damaged: its data cannot be read.");
    return;
  }
  try {
    const v = show(data);
    const checked = await check(v);
    replay(v, checked);
    proofList(v, checked);
    verdict(checked, null);
  } catch (e) {
    verdict(null, `This page could not check the file: ${e && e.message ? e.message : e}.`);
  }
}
main();
})();
"""
