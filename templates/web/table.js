// The table's own device: each player signs in once with their code (the server answers a sign-in for the match,
// which this device keeps and its writes send instead of the code: the code itself is never kept here), declares
// cards with completion, takes back their last declaration, taps the decision clock; the sheet and the clock
// follow live updates (see common.js). Times shown are the server's. A tap or a card kept to send later (queue.js)
// shows at once, marked "not sent yet"; refused when sent, the page says so beside it.
(function () {
  "use strict";
  var mm = window.mmjudge, root, table, key, served = null, clock = null, clockKey = null, queue, sheet = null;
  var refused = []; // writes the queue sent later and the server refused: { item, message }
  // The sign-ins kept on this device, by seat: { signin, player }. Anything else kept under the key (a code kept
  // by an earlier version of this page) is dropped.
  function signins() {
    var all = {}, clean = {}, dirty = false;
    try { all = JSON.parse(localStorage.getItem(key) || "{}") || {}; } catch (e) { all = {}; }
    Object.keys(all).forEach(function (seat) {
      var s = all[seat];
      if (s && typeof s === "object" && typeof s.signin === "string") clean[seat] = s; else dirty = true;
    });
    if (dirty) keep(clean);
    return clean;
  }
  function keep(c) { try { localStorage.setItem(key, JSON.stringify(c)); } catch (e) {} }
  function post(path, body) {
    return fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
      .then(function (r) {
        return r.text().then(function (t) {
          if (!r.ok) { var e = new Error(mm.refusalOf(r.status, t)); e.status = r.status; throw e; }
          return JSON.parse(t);
        });
      });
  }
  // Each seat's one answer line: what the device did for that player ("Declared B1: Demonic Tutor", `done`),
  // a refusal ("Not done: ...", the default), or a write kept to send later (`waiting`). It goes right under what
  // the player used (`near`: the sign-in, the declaring buttons, Call a judge), scrolled into view (seat B's
  // section may start below the screen). A seat's answer is replaced by its next one, and cleared once the other
  // seat acts on this device or after a while (SAID_MS, a refusal REFUSAL_MS): an old line never reads as news.
  // Each message shown counts, so a late answer (the card-name completion) can tell whether something was said
  // after it was asked: it then leaves the line alone (a refusal's reason stays).
  var SAID_MS = 15000, REFUSAL_MS = 30000;
  function say(sec, text, how, near) {
    var el = sec.querySelector("p.answer");
    sec.said = (sec.said || 0) + 1;
    clearTimeout(sec.saidTimer);
    el.textContent = text || "";
    how = text ? how || "error" : "";
    el.className = how ? "answer " + how : "answer";
    el.setAttribute("role", how === "error" ? "alert" : "status");
    if (!text) return;
    if (!near) {
      var signed = sec.querySelector(".signed");
      near = signed && !signed.hidden ? sec.querySelector("form.declare") : sec.querySelector("form.signin");
    }
    if (near && near.hidden) near = near.nextElementSibling || near;
    if (near && el.previousElementSibling !== near) near.parentNode.insertBefore(el, near.nextSibling);
    if (el.scrollIntoView) el.scrollIntoView({ block: "nearest" });
    var said = sec.said;
    sec.saidTimer = setTimeout(function () { if (sec.said === said) quiet(sec); }, how === "error" ? REFUSAL_MS : SAID_MS);
  }
  // A seat's answer line emptied (it no longer holds), without counting as something said.
  function quiet(sec) {
    var el = sec && sec.querySelector("p.answer");
    if (!el || !el.textContent) return;
    clearTimeout(sec.saidTimer);
    el.textContent = ""; el.className = "answer"; el.setAttribute("role", "status");
    sec.clockRefused = false;
  }
  // A player acts on this device: what the other seat was told before no longer holds (a refusal there must not
  // read as this player's).
  function acting(sec) {
    document.querySelectorAll("section.player").forEach(function (s) { if (s !== sec) quiet(s); });
  }
  // A write not done, worded as on every page: the offline line when the network carried nothing (fetch's
  // TypeError), else "Not done: " and the reason (the server's refusal, or the page's own, as a code for the other
  // seat).
  function refusal(err) { return err instanceof TypeError ? mm.OFFLINE : mm.refused(err.message); }
  function section(seat) { return document.querySelector('section.player[data-seat="' + seat + '"]'); }
  function show(sec) {
    var c = signins()[sec.getAttribute("data-seat")];
    sec.querySelector(".signin").hidden = !!c;
    sec.querySelector(".signed").hidden = !c;
    sec.querySelector(".signedas").hidden = !c;
    drawCall();
    drawReport();
  }
  // The judge call open at the table (the sheet's `call`), said in each player's section in place of "Call a
  // judge" while it is open: "A judge is called to table 3 by Ana (since 09:14)."
  var call = null;
  function calledWords(c) {
    return "A judge is called to table " + table + (c.caller ? " by " + c.caller : "") + " (since " + mm.wall(Date.parse(c.since)) + ").";
  }
  function drawCall() {
    document.querySelectorAll("section.player").forEach(function (sec) {
      var line = sec.querySelector("p.called"), button = sec.querySelector('[data-act="call"]');
      var words = call ? calledWords(call) : "";
      if (line.textContent !== words) line.textContent = words;
      line.hidden = !call;
      button.parentNode.hidden = !!call;
    });
  }
  // The words of what the device did, as recorded: the card's name as the reference has it, and what was typed
  // when the server read it as another spelling ("Declared B1: Demonic Tutor (typed “demonic tutr”)").
  function declaredWords(d) {
    if (d.unnamed || !d.card) return "Noted " + d.shorthand + ": unnamed";
    var typed = d.typed && d.taken ? " (typed \u201c" + d.typed + "\u201d)" : "";
    return "Declared " + d.shorthand + ": " + d.card + typed;
  }
  function takenBackWords(d) {
    var n = d.removed || {};
    return "Taken back: " + n.shorthand + ": " + (n.unnamed || !n.card ? "unnamed" : n.card);
  }
  // Where the answer to a write kept to send later goes: beside what sent it, while the player is signed in.
  function nearOf(sec, item) {
    if (sec.querySelector(".signed").hidden || !item) return null;
    if (item.path === "/api/call") return sec.querySelector(".callrow");
    return sec.querySelector(item.path.indexOf("/api/clock/") === 0 ? ".clockbtns" : "form.declare");
  }
  // A write kept on this device to send later, said as such beside what sent it.
  var KEPT = " is kept on this device and sent when the network is back";
  // The result: once a player is signed in on this device, either reports it (a button per signed-in player);
  // the report waiting for the other player's word shows here, with a Confirm button when that player is signed in
  // on this device too (recorded "confirmed on the table's device"). Once the match has its result, it says so.
  function drawReport() {
    var box = document.getElementById("report");
    if (!box) return;
    var ins = signins(), over = served && served.table && served.table.result;
    box.hidden = !over && !Object.keys(ins).length;
    var said = document.getElementById("over");
    said.hidden = !over; said.textContent = over ? "Recorded: " + over + "." : "";
    document.getElementById("reporting").hidden = !!over;
    box.querySelectorAll("[data-as]").forEach(function (b) { b.hidden = !ins[b.getAttribute("data-as")]; });
    var w = sheet && sheet.report, line = document.getElementById("waiting"), confirms = document.getElementById("confirms");
    // Two reports that differ (one may have come from a player's own phone): nothing to confirm, a judge decides.
    var differ = !w && sheet && sheet.reports_differ;
    line.hidden = !w && !differ;
    var judge = call ? "a judge is called to this table" : "call a judge to this table";
    line.textContent = w ? w.text + "." : differ ? "The two reports differ: " + differ + ". A judge decides: " + judge + " (or one of you reports again below what the other reported)." : "";
    line.className = differ ? "waiting differ" : "waiting";
    document.getElementById("confirm-hint").hidden = !!differ;
    confirms.textContent = "";
    if (w && !over) {
      ["A", "B"].forEach(function (seat) {
        if (nameOf(seat) !== w.waiting_for) return;
        if (ins[seat]) {
          var b = document.createElement("button");
          b.type = "button"; b.textContent = "Confirm as " + w.waiting_for; b.setAttribute("data-confirm", seat);
          confirms.appendChild(b);
        } else {
          var p = document.createElement("p");
          p.textContent = w.waiting_for + " confirms it here after signing in above, or on their own phone.";
          confirms.appendChild(p);
        }
      });
    }
    confirms.hidden = !confirms.childNodes.length;
    document.getElementById("instead").hidden = !w;
    // What the page re-read adds above the answer (the report now waiting, the result) must not push it out of
    // view: an answer given in the last few seconds is scrolled back into view.
    var answer = box.querySelector(".answer");
    // A Done line of a report now disputed is no longer what stands: the line above says it.
    if (differ && /\bdone\b/.test(answer.className)) answer.textContent = "";
    if (Date.now() - answeredAt < 5000 && answer.textContent && answer.scrollIntoView) answer.scrollIntoView({ block: "nearest" });
  }
  // Said under the result's controls, scrolled into view (the section lies below both players').
  var answeredAt = 0;
  function sayReport(text, done) {
    var el = document.querySelector("#report .answer");
    el.textContent = text || ""; answeredAt = Date.now();
    el.className = done ? "answer done" : "answer error";
    el.setAttribute("role", done ? "status" : "alert");
    if (text && el.scrollIntoView) el.scrollIntoView({ block: "nearest" });
  }
  function wireReport() {
    var form = document.getElementById("report-form");
    if (!form) return;
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var seat = e.submitter && e.submitter.getAttribute("data-as"), c = signins()[seat];
      if (!c) { sayReport("sign in above first, then report as yourself"); return; }
      var body = { table: table, signin: c.signin, winner: form.winner.value, by: form.by.value };
      if (form.life_a.value.trim() || form.life_b.value.trim()) { body.life_a = form.life_a.value.trim(); body.life_b = form.life_b.value.trim(); }
      post("/api/self-report", body).then(function (d) {
        sayReport("Done: " + d.summary, true);
        load();
      }).catch(function (err) { sayReport(mm.refused(err.message)); });
    });
    document.getElementById("confirms").addEventListener("click", function (e) {
      var seat = e.target && e.target.getAttribute && e.target.getAttribute("data-confirm"), w = sheet && sheet.report;
      var c = seat && signins()[seat];
      if (!c || !w) return;
      post("/api/self-report/confirm", { table: table, signin: c.signin, report: w.id }).then(function (d) {
        sayReport("Done: " + d.summary, true);
        load();
      }).catch(function (err) { sayReport(mm.refused(err.message)); });
    });
  }
  // Asks the server whether a kept sign-in still acts (a judge may have given the player a new code): one that
  // does not is dropped and the sign-in offered again, saying why.
  function verify(sec) {
    var seat = sec.getAttribute("data-seat"), c = signins()[seat];
    if (!c) return;
    post("/api/player/code", { table: table, signin: c.signin }).catch(function (err) {
      if (err.status !== 403) return; // offline, or the server busy: the sign-in stays
      var all = signins(); delete all[seat]; keep(all); show(sec); say(sec, err.message);
    });
  }
  function hhmm(at) { return mm.wall(Date.parse(at), true); }
  function drawSheet(doc) {
    sheet = doc;
    var judge = root.getAttribute("data-judge") === "1";
    ["A", "B"].forEach(function (seat) {
      var ol = document.querySelector('ol[data-col="' + seat + '"]');
      if (!ol) return;
      ol.textContent = "";
      (doc.notes || []).filter(function (n) { return n.seat === seat; }).forEach(function (n) {
        var li = document.createElement("li");
        li.textContent = n.shorthand + ": " + (n.card || "(unnamed)");
        if (n.voided) li.className = "void";
        var t = document.createElement("small");
        t.textContent = "#" + n.id + " · " + hhmm(n.at);
        li.appendChild(t);
        var text = (doc.texts || {})[n.id];
        if (text) {
          if (judge) { var p = document.createElement("small"); p.className = "text"; p.textContent = text; li.appendChild(p); }
          else li.title = text;
        }
        ol.appendChild(li);
      });
      // The cards kept on this device to send later (shown at once, marked), and those refused when sent.
      var mark = function (item, words, cls) {
        var b = item.body || {}, li = document.createElement("li");
        li.className = cls;
        li.textContent = item.path === "/api/note/undo" ? "taking back the last declaration"
          : (b.cost || "") + ": " + (b.unnamed ? "(unnamed)" : b.card || "");
        var t = document.createElement("small");
        t.className = "unsent";
        t.textContent = words;
        li.appendChild(t);
        ol.appendChild(li);
      };
      waiting().forEach(function (item) {
        if (item.tag === seat && /^\/api\/note/.test(item.path)) mark(item, "not sent yet · " + hhmm(new Date(item.at).toISOString()), "waiting");
      });
      refused.forEach(function (r) {
        if (r.item.tag === seat && /^\/api\/note/.test(r.item.path)) mark(r.item, mm.refused(r.message), "refused");
      });
    });
  }
  function waiting() { return queue ? queue.items() : []; }
  function nameOf(seat) { var s = section(seat); return s ? s.getAttribute("data-name") : ""; }
  function otherOf(seat) { return nameOf(seat === "A" ? "B" : "A"); }
  // When a decision started at `start` (ms) goes over its limit, as the server computes it: the final window's
  // limit once the table's final window is open; a decision begun before it ends no later than the window's
  // opening plus that limit.
  function deadlineOf(t, start) {
    var fw = Date.parse(t.final_window_at || ""), usual = (t.decision_limit || 0) * 1000, last = (t.window_limit || 0) * 1000;
    if (!isNaN(fw) && last && start >= fw) return start + last;
    var end = start + usual;
    if (!isNaN(fw) && last) end = Math.min(end, fw + last);
    return end;
  }
  // The clock as the server last gave it, with the taps kept on this device to send later played on top, in order,
  // at the moments they were made: the clock moves at once, marked as not sent yet.
  function overlay(c) {
    var taps = waiting().filter(function (i) { return i.path.indexOf("/api/clock/") === 0; });
    if (!c || !taps.length) return c;
    var t = JSON.parse(JSON.stringify(c.table)), deadline = c.decision_deadline;
    taps.forEach(function (i) {
      var tap = i.path.slice("/api/clock/".length), at = new Date(i.at).toISOString();
      if (tap === "start" || tap === "hand-over" || tap === "pass") {
        t.decision = { player: tap === "start" ? nameOf(i.tag) : otherOf(i.tag), started_at: at };
        deadline = t.decision_limit ? new Date(deadlineOf(t, i.at)).toISOString() : null;
      } else if (tap === "stop") {
        t.decision = null;
        deadline = null;
      }
      t.decision_deadline = deadline;
    });
    return { now: c.now, table: t, decision_deadline: deadline, unsent: taps.length };
  }
  function drawClock(c) {
    served = c;
    mm.serverNow(c.now);
    redraw();
  }
  // The clock shown: the server's with what waits played on top, a mark while a tap is not sent yet, and a tap
  // refused when it was sent said beside the clock.
  function redraw() {
    if (!served) return;
    clock = overlay(served);
    var t = clock.table, box = document.getElementById("dclock");
    document.getElementById("dwho").textContent = t.decision ? t.decision.player + " is deciding" : "No decision running";
    var note = document.getElementById("dunsent"), last = refused.filter(function (r) { return r.item.path.indexOf("/api/clock/") === 0; }).pop();
    if (clock.unsent) { note.textContent = "not sent yet: this device sends it when the network is back"; note.className = "dunsent waiting"; }
    else if (last) { note.textContent = mm.refused("a tap made offline: " + last.message); note.className = "dunsent refused"; }
    else { note.textContent = ""; note.className = "dunsent"; }
    note.hidden = !note.textContent;
    box.classList.toggle("unsent", !!clock.unsent);
    // Once the clock changes hands, a refusal one player was shown (pressed out of turn) no longer holds.
    var k = t.decision ? t.decision.player + "@" + t.decision.started_at : "none";
    if (clockKey !== null && k !== clockKey) {
      document.querySelectorAll("section.player").forEach(function (s) { if (s.clockRefused) { s.clockRefused = false; say(s, ""); } });
    }
    clockKey = k;
    tick();
    box.classList.toggle("running", !!t.decision);
    if (sheet) drawSheet(sheet);
    drawReport();
  }
  // One large button per player, its words following the clock, disabled when it is not that player's to press.
  function drawButtons() {
    var t = clock && clock.table, secs = document.querySelectorAll("section.player");
    var names = Array.prototype.map.call(secs, function (s) { return s.getAttribute("data-name"); });
    secs.forEach(function (sec) {
      var me = sec.getAttribute("data-name"), big = sec.querySelector(".dbig"), stop = sec.querySelector(".dstop");
      if (!big) return;
      var other = names.filter(function (n) { return n !== me; })[0] || "";
      var d = t && t.decision, tap = "start", words = "Start my decision", off = false;
      if (t && t.result) { words = "The match is over"; off = true; }
      else if (inspecting()) { words = "Deck inspection: no decision timed yet"; off = true; }
      else if (!t || !t.decision_limit) { words = "The round has not started"; off = true; }
      else if (d && d.player === me) { tap = "hand-over"; words = "Done: " + other + "'s turn"; }
      else if (d) { words = d.player + " is deciding"; off = true; }
      big.setAttribute("data-tap", tap);
      if (big.textContent !== words) big.textContent = words;
      big.disabled = off;
      if (stop) stop.hidden = !(d && d.player === me);
      // Once the match has its result, nothing more is declared or taken back: the buttons go, the reason shows.
      var over = !!(t && t.result);
      sec.querySelector("form.declare").hidden = over;
      sec.querySelector("p.closed").hidden = !over;
    });
  }
  // The decision limit as the server computes it: a running decision's own (its deadline, which the final window
  // may have shortened), else the limit in force now, switching by itself when the table's final window opens.
  function limitNow(t) {
    if (!t || !t.decision_limit) return 0;
    if (t.decision && clock.decision_deadline) {
      return Math.round((Date.parse(clock.decision_deadline) - Date.parse(t.decision.started_at)) / 1000);
    }
    var fw = Date.parse(t.final_window_at || "");
    return !isNaN(fw) && t.window_limit && mm.now() >= fw ? t.window_limit : t.decision_limit;
  }
  // During deck inspection (until the instant the page names) no decision is timed yet.
  function inspecting() {
    var el = document.querySelector(".inspection[data-until]");
    return !!el && mm.now() < Date.parse(el.getAttribute("data-until"));
  }
  function tick() {
    drawButtons();
    document.querySelectorAll(".final[data-final]").forEach(function (f) { f.classList.toggle("now", mm.now() >= Date.parse(f.getAttribute("data-final"))); });
    var el = document.getElementById("dleft"), box = document.getElementById("dclock");
    var t = clock && clock.table;
    document.getElementById("dlimit").textContent = inspecting() ? "deck inspection: decisions are timed once the round's clock starts"
      : limitNow(t) ? "limit " + limitNow(t) + " s" : "the round has not started";
    if (!clock || !clock.decision_deadline) { el.textContent = "–"; box.classList.remove("over"); return; }
    var left = Math.round((Date.parse(clock.decision_deadline) - mm.now()) / 1000);
    el.textContent = left >= 0 ? String(left) : "+" + (-left);
    box.classList.toggle("over", left < 0);
  }
  var load = mm.refresher(function () {
    return fetch("/api/table/" + table + "/notes").then(function (r) { return r.json(); }).then(function (doc) {
      if (doc.notes) drawSheet(doc);
      if (doc.notes) { call = doc.call || null; drawCall(); }
      if (doc.clock) drawClock(doc.clock);
    });
  }, false);
  function completer(sec) {
    var cost = sec.querySelector(".cost"), card = sec.querySelector(".card");
    var list = sec.querySelector("datalist"), timer = null, asked = 0, own = -1;
    card.addEventListener("input", function () {
      clearTimeout(timer);
      var said = sec.said || 0; // what was said when the name was typed
      timer = setTimeout(function () {
        if (!cost.value.trim()) return;
        var q = "/api/cards/cost?cost=" + encodeURIComponent(cost.value.trim()) + "&table=" + table + "&q=" + encodeURIComponent(card.value);
        var mine = ++asked;
        fetch(q).then(function (r) { return r.json(); }).then(function (d) {
          if (mine !== asked) return; // a later question is on its way: its answer counts
          list.textContent = "";
          (d.cards || []).forEach(function (n) { var o = document.createElement("option"); o.value = n; list.appendChild(o); });
          // Only the completion's own message, or one said before the name was typed, is replaced.
          if ((sec.said || 0) !== said && sec.said !== own) return;
          say(sec, d.error || "");
          own = sec.said;
        }).catch(function () {});
      }, 120);
    });
  }
  function wire(sec) {
    var seat = sec.getAttribute("data-seat");
    var signin = function () { var c = signins()[seat]; return c ? c.signin : ""; };
    sec.querySelector(".signin").addEventListener("submit", function (e) {
      e.preventDefault();
      acting(sec);
      var field = sec.querySelector('[name="code"]'), c = field.value.trim();
      post("/api/player/code", { table: table, seat: seat, code: c }).then(function (d) {
        field.value = "";
        if (d.seat !== seat) throw new Error("that is " + d.player + "'s code: sign in on " + d.player + "'s side");
        var all = signins(); all[seat] = { signin: d.signin, player: d.player }; keep(all); show(sec);
        say(sec, "Signed in: " + d.player, "done");
      }).catch(function (err) { say(sec, refusal(err)); });
    });
    // A write refused for a sign-in that no longer acts: the sign-in is checked, and offered again if it ended.
    function failed(err, near) { say(sec, refusal(err), "error", near); if (err.status === 403) verify(sec); }
    var form = sec.querySelector(".declare");
    function declare(body) {
      acting(sec);
      body.table = table; body.signin = signin(); body.cost = form.cost.value.trim();
      // No cost typed: said here in the player's words, nothing sent (the server would answer with how costs are
      // written).
      if (!body.cost) { say(sec, mm.refused("type the card's printed cost first (B1 for {1}{B}, 0 for no cost)"), "error", form); form.cost.focus(); return; }
      body.client_id = seat + "-" + Date.now() + "-" + Math.random().toString(36).slice(2, 8);
      var what = body.cost + ": " + (body.unnamed ? "unnamed" : body.card);
      // Through the queue (queue.js): kept and sent again when the network fails, recorded once; kept, it shows
      // in the sheet at once, marked as not sent yet.
      queue.send("/api/note", body, seat, body.client_id).then(function (d) {
        form.card.value = "";
        if (d && d.queued) { say(sec, "Not sent yet: " + what + KEPT, "waiting", form); redraw(); return; }
        say(sec, declaredWords(d), "done", form);
        load();
      }).catch(function (err) { failed(err, form); });
    }
    form.addEventListener("submit", function (e) { e.preventDefault(); declare({ card: form.card.value.trim() }); });
    sec.querySelector('[data-act="unnamed"]').addEventListener("click", function () { declare({ unnamed: true }); });
    sec.querySelector('[data-act="undo"]').addEventListener("click", function () {
      acting(sec);
      queue.send("/api/note/undo", { table: table, signin: signin() }, seat).then(function (d) {
        if (d && d.queued) { say(sec, "Not sent yet: taking back your last declaration" + KEPT, "waiting", form); redraw(); return; }
        say(sec, takenBackWords(d), "done", form);
        load();
      }).catch(function (err) { failed(err, form); });
    });
    // Call a judge: answered in place of the button ("A judge is called to table 3 by Ana (since 09:14).") while
    // the call is open; a refusal under it.
    var callrow = sec.querySelector(".callrow");
    sec.querySelector('[data-act="call"]').addEventListener("click", function () {
      acting(sec);
      queue.send("/api/call", { table: table, signin: signin() }, seat).then(function (d) {
        if (d && d.queued) { say(sec, "Not sent yet: your call for a judge" + KEPT, "waiting", callrow); return; }
        quiet(sec);
        call = { id: d.id, caller: d.caller, since: d.since };
        drawCall();
        var line = sec.querySelector("p.called");
        if (line.scrollIntoView) line.scrollIntoView({ block: "nearest" });
        load();
      }).catch(function (err) { failed(err, callrow); });
    });
    sec.querySelector('[data-act="signout"]').addEventListener("click", function () {
      acting(sec);
      var all = signins(); delete all[seat]; keep(all); show(sec);
      say(sec, nameOf(seat) + " signed out on this device: sign in again with your code", "done");
    });
    sec.querySelectorAll("[data-tap]").forEach(function (b) {
      b.addEventListener("click", function () {
        acting(sec);
        queue.send("/api/clock/" + b.getAttribute("data-tap"), { table: table, signin: signin() }, seat).then(function (d) {
          sec.clockRefused = false; say(sec, "");
          if (d.clock) drawClock(d.clock); else redraw();
        }).catch(function (err) { failed(err, sec.querySelector(".clockbtns")); sec.clockRefused = true; });
      });
    });
    completer(sec);
    show(sec);
  }
  document.addEventListener("DOMContentLoaded", function () {
    root = document.getElementById("device");
    if (!root) return;
    table = Number(root.getAttribute("data-table"));
    key = "mmjudge-table-" + table + "-match-" + root.getAttribute("data-match");
    queue = mm.queue("table-" + table + "-match-" + root.getAttribute("data-match"), {
      // Sent at last: a seat's "Not sent yet" line says what was recorded.
      sent: function (seat, doc, item) {
        var sec = section(seat), words = doc && item && (item.path === "/api/note" ? declaredWords(doc)
          : item.path === "/api/note/undo" ? takenBackWords(doc) : "");
        if (sec && sec.querySelector("p.answer.waiting")) {
          if (words) say(sec, words, "done", nearOf(sec, item)); else if (item && item.path === "/api/call") quiet(sec);
        }
        redraw(); load();
      },
      // Refused when it was sent at last: said beside what it was (the card in the sheet, the clock), and in the
      // player's own line.
      refused: function (seat, message, item) {
        if (item) refused.push({ item: item, message: message });
        var sec = section(seat);
        if (sec) { say(sec, mm.refused(message), "error", nearOf(sec, item)); verify(sec); }
        redraw();
        load();
      }
    });
    document.querySelectorAll("section.player").forEach(wire);
    wireReport();
    document.querySelectorAll("section.player").forEach(verify);
    load();
    setInterval(tick, 250);
    mm.live(mm.topics(root), load);
  });
})();
