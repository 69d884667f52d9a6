// The table's own device: players sign in with their codes (kept on this device for the match), declare cards
// with completion, take back their last declaration, tap the decision clock; the sheet and the clock follow
// live updates (see common.js). Times shown are the server's.
(function () {
  "use strict";
  var mm = window.mmjudge, root, table, key, clock = null, clockKey = null, queue;
  function codes() { try { return JSON.parse(localStorage.getItem(key) || "{}"); } catch (e) { return {}; } }
  function keep(c) { try { localStorage.setItem(key, JSON.stringify(c)); } catch (e) {} }
  function post(path, body) {
    return fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
      .then(function (r) { return r.json().then(function (d) { if (!r.ok) throw new Error(d.error || r.status); return d; }); });
  }
  // Each message shown counts, so a late answer (the card-name completion) can tell whether something was said
  // after it was asked: it then leaves the line alone (a refusal's reason stays).
  function say(sec, text) { sec.querySelector(".error").textContent = text || ""; sec.said = (sec.said || 0) + 1; }
  function show(sec) {
    var c = codes()[sec.getAttribute("data-seat")];
    sec.querySelector(".signin").hidden = !!c;
    sec.querySelector(".signed").hidden = !c;
  }
  function hhmm(at) { return mm.wall(Date.parse(at), true); }
  function drawSheet(doc) {
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
    });
  }
  function drawClock(c) {
    clock = c;
    mm.serverNow(c.now);
    var t = c.table, box = document.getElementById("dclock");
    document.getElementById("dwho").textContent = t.decision ? t.decision.player + " is deciding" : "No decision running";
    // Once the clock changes hands, a refusal one player was shown (pressed out of turn) no longer holds.
    var k = t.decision ? t.decision.player + "@" + t.decision.started_at : "none";
    if (clockKey !== null && k !== clockKey) {
      document.querySelectorAll("section.player").forEach(function (s) { if (s.clockRefused) { s.clockRefused = false; say(s, ""); } });
    }
    clockKey = k;
    tick();
    box.classList.toggle("running", !!t.decision);
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
    var code = function () { return codes()[seat]; };
    sec.querySelector(".signin").addEventListener("submit", function (e) {
      e.preventDefault();
      var c = sec.querySelector('[name="code"]').value.trim();
      post("/api/player/code", { table: table, code: c }).then(function (d) {
        if (d.seat !== seat) throw new Error("that is " + d.player + "'s code: sign in on " + d.player + "'s side");
        var all = codes(); all[seat] = c; keep(all); say(sec, ""); show(sec);
      }).catch(function (err) { say(sec, err.message); });
    });
    var form = sec.querySelector(".declare");
    function declare(body) {
      body.table = table; body.code = code(); body.cost = form.cost.value.trim();
      body.client_id = seat + "-" + Date.now() + "-" + Math.random().toString(36).slice(2, 8);
      // Through the queue (queue.js): kept and sent again when the network fails, recorded once.
      queue.send("/api/note", body, seat, body.client_id).then(function () { form.card.value = ""; say(sec, ""); load(); })
        .catch(function (err) { say(sec, err.message); });
    }
    form.addEventListener("submit", function (e) { e.preventDefault(); declare({ card: form.card.value.trim() }); });
    sec.querySelector('[data-act="unnamed"]').addEventListener("click", function () { declare({ unnamed: true }); });
    sec.querySelector('[data-act="undo"]').addEventListener("click", function () {
      queue.send("/api/note/undo", { table: table, code: code() }, seat).then(function () { say(sec, ""); load(); }).catch(function (err) { say(sec, err.message); });
    });
    sec.querySelector('[data-act="signout"]').addEventListener("click", function () { var all = codes(); delete all[seat]; keep(all); show(sec); });
    sec.querySelectorAll("[data-tap]").forEach(function (b) {
      b.addEventListener("click", function () {
        queue.send("/api/clock/" + b.getAttribute("data-tap"), { table: table, code: code() }, seat).then(function (d) {
          sec.clockRefused = false; say(sec, ""); if (d.clock) drawClock(d.clock);
        }).catch(function (err) { say(sec, err.message); sec.clockRefused = true; });
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
      sent: function () { load(); },
      refused: function (seat, message) {
        var sec = document.querySelector('section.player[data-seat="' + seat + '"]');
        if (sec) say(sec, message);
        load();
      }
    });
    document.querySelectorAll("section.player").forEach(wire);
    load();
    setInterval(tick, 250);
    mm.live(mm.topics(root), load);
  });
})();
