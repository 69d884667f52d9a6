// Writes a page could not send: when a write fails for the network (fetch rejects; a refusal is not that), the
// page keeps it in this browser's storage with its key and the moment it was made (the server's clock, see
// common.js), shows how many wait and since when it is offline, and sends them in order when the network is back
// (the `online` event, the live stream reopening, and every few seconds). Each write carries its key
// (`Idempotency-Key`), so one sent twice is recorded once; only a replay sends the moment it was made (`at`) and
// why it was kept (`queued`: "unreachable" when no answer came, 503 when the server could not take it; a write
// held back by 429 for its own pace says nothing, and counts from its arrival).
// A write refused on replay shows its refusal; a judge whose login ended is sent to log in, the queue kept.
//
// `mmjudge.queue(name, hooks)` gives `send(path, body, tag)` (JSON; resolves with the answer, or `{queued: true}`;
// rejects with the refusal) and `flush()`; each queue is also listed in `mmjudge.queues` for failover.js, whose
// `moveTo(base)` replays the players' code writes waiting (JSON, or a player's form: they carry a code and no
// session) on the promoted second laptop at `base`, each with its key, and leaves a judge's writes waiting. A page
// that names its forms' queue (`data-queue`: the player's page, the judges' table page) gets it as
// `mmjudge.formQueue`, and `mmjudge.shownOnce(form, submitter)` sends a form whose answer holds a secret: app.js's
// one form listener sends each form through them.
(function () {
  "use strict";
  var mm = window.mmjudge;
  if (!mm) return;
  var EVERY = 4000;

  function newKey() {
    return "q-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 10);
  }
  function stamp(ms) { return new Date(ms).toISOString(); }
  function refusalOf(r, text) { return mm.refusalOf(r.status, text); }
  function Refused(status, message) { this.status = status; this.message = message; }
  Refused.prototype = Object.create(Error.prototype);
  // A server that cannot take the write now (503: the second laptop before a head judge puts it in charge, or a
  // server too busy; 429 with Retry-After: sent too fast, wait a moment): kept and sent again, as for a dropped
  // network, with its words shown.
  function Unavailable(message, status) { this.message = message; this.status = status; }
  Unavailable.prototype = Object.create(Error.prototype);

  // Sends one write: JSON (`item.body` an object) or a form (`item.form` its encoded fields). Resolves with the
  // answer (a form's: `{page: URL}`); rejects with a TypeError for the network, a Refused for a refusal.
  // With `base` (another laptop's address), the write goes there, without this site's cookies.
  function post(item, replay, base) {
    var headers = { "Idempotency-Key": item.key }, body;
    if (item.form !== undefined) {
      headers["Content-Type"] = "application/x-www-form-urlencoded";
      var fields = new URLSearchParams(item.form);
      if (replay) {
        // A judge who logged in again since has a new session: the page's own CSRF token is the one that counts.
        var csrf = document.querySelector('input[name="csrf"]');
        if (csrf && fields.has("csrf")) fields.set("csrf", csrf.value);
        if (item.takesAt) fields.set("at", stamp(item.at));
        if (item.takesAt && item.queued) fields.set("queued", String(item.queued));
      }
      body = fields.toString();
    } else {
      headers["Content-Type"] = "application/json";
      var b = JSON.parse(JSON.stringify(item.body));
      if (replay && item.takesAt) b.at = stamp(item.at);
      if (replay && item.takesAt && item.queued) b.queued = item.queued;
      body = JSON.stringify(b);
    }
    var init = { method: "POST", headers: headers, body: body, credentials: base ? "omit" : "same-origin" };
    if (base) { init.mode = "cors"; init.redirect = "manual"; }
    return fetch((base || "") + item.path, init).then(function (r) {
      if (r.type === "opaqueredirect") return { page: null }; // a form's write done elsewhere: its page is there
      return r.text().then(function (text) {
        // A try held back for wrong codes is not kept: the wait is minutes, and the code may be wrong again.
        var kept = r.status === 503 || (r.status === 429 && r.headers.get("Retry-After") && !r.headers.get("mmjudge-wrong-tries"));
        if (kept) throw new Unavailable(refusalOf(r, text), r.status);
        if (!r.ok) throw new Refused(r.status, refusalOf(r, text));
        if (item.form !== undefined) return { page: r.url };
        try { return JSON.parse(text); } catch (e) { return {}; }
      });
    });
  }

  // The routes that take the moment a replayed write was made: the server's list, given on the page's <body>.
  function takesAt(path) {
    return ((document.body && document.body.getAttribute("data-takes-at")) || "").split(/\s+/).indexOf(path) >= 0;
  }

  mm.queue = function (name, hooks) {
    hooks = hooks || {};
    var store = "mmjudge-queue-" + name, sending = false;
    function read() {
      try { var s = JSON.parse(localStorage.getItem(store) || "{}"); return { items: s.items || [], since: s.since || null }; }
      catch (e) { return { items: [], since: null }; }
    }
    function write(s) { try { localStorage.setItem(store, JSON.stringify(s)); } catch (e) {} show(); }
    function status() {
      var el = document.getElementById("queue-status");
      if (!el) {
        el = document.createElement("p");
        el.id = "queue-status";
        el.className = "queue-status";
        el.setAttribute("role", "status");
        el.hidden = true;
        var main = document.querySelector("main") || document.body;
        main.parentNode.insertBefore(el, main);
      }
      return el;
    }
    function show(refusal) {
      var s = read(), el = status(), parts = [];
      if (s.items.length) parts.push(s.items.length + " waiting to send");
      if (s.since) parts.push("offline since " + mm.wall(s.since) + ": showing what was known then");
      if (refusal) parts.push(refusal);
      el.textContent = parts.join(" · ");
      el.hidden = !parts.length;
      el.classList.toggle("offline", !!s.since);
      document.body.setAttribute("data-waiting", String(s.items.length));
    }
    function offline() { var s = read(); if (!s.since) { s.since = mm.now(); write(s); } }
    function online() { var s = read(); if (s.since) { s.since = null; write(s); } }
    // Why a write waits, as its replay says (`queued`): its first try answered 503, or no answer came (the
    // network, or it waited behind others); a 429 (its own pace) says nothing.
    function why(err) {
      if (err instanceof Unavailable) return err.status === 503 ? 503 : undefined;
      return "unreachable";
    }
    function enqueue(item, reachable) {
      var s = read(); s.items.push(item); if (!s.since && !reachable) s.since = item.at; write(s);
    }
    function noted(item, err) {
      if (item.queued) return;
      var q = why(err);
      if (!q) return;
      var s = read();
      s.items.forEach(function (i) { if (i.key === item.key) i.queued = q; });
      write(s);
    }
    function login() { location.assign("/login"); }

    // Sends the waiting writes in order, one at a time; stops at the first the network does not carry.
    function flush() {
      if (sending) return Promise.resolve();
      var first = read().items[0];
      if (!first) { online(); return Promise.resolve(); }
      sending = true;
      return post(first, true).then(function (doc) {
        drop(first);
        online();
        if (hooks.sent) hooks.sent(first.tag, doc, first);
        if (!read().items.length && hooks.drained) hooks.drained();
        return true;
      }, function (err) {
        if (err instanceof Unavailable) { noted(first, err); online(); show(err.message); return false; }
        if (!(err instanceof Refused)) { noted(first, err); offline(); return false; }
        online();
        if (err.status === 401) { login(); return false; }
        drop(first);
        if (hooks.refused) hooks.refused(first.tag, err.message, first); else show(err.message);
        return true;
      }).then(function (more) {
        sending = false;
        if (more) return flush();
      });
    }
    // Replays on the promoted laptop at `base` the players' code writes waiting, in order, each with its key;
    // a judge's write stays (the judge logs in again there). Resolves with `{pending}` (a write not taken there
    // yet: try again later) and `{kept}` (a judge's writes left waiting).
    function moveTo(base) {
      if (sending) return Promise.resolve({ pending: true, kept: 0 });
      sending = true;
      function next() {
        var items = read().items, item = items.filter(portable)[0];
        var kept = items.length - items.filter(portable).length;
        if (!item) return { pending: false, kept: kept };
        return post(item, true, base).then(function () {
          drop(item);
          return next();
        }, function (err) {
          if (!(err instanceof Refused) || err.status >= 500) return { pending: true, kept: kept };
          drop(item);
          if (hooks.refused) hooks.refused(item.tag, err.message, item); else show(err.message);
          return next();
        });
      }
      return Promise.resolve().then(next).then(function (out) { sending = false; return out; },
        function () { sending = false; return { pending: true, kept: 0 }; });
    }
    function drop(item) {
      var s = read();
      s.items = s.items.filter(function (i) { return i.key !== item.key; });
      write(s);
    }

    // One write now: sent at once when nothing waits (kept if the network fails), else queued behind the others.
    function sendItem(item) {
      item.key = item.key || newKey();
      item.at = mm.now();
      item.takesAt = takesAt(item.path);
      if (read().items.length) { item.queued = "unreachable"; enqueue(item); flush(); return Promise.resolve({ queued: true }); }
      return post(item, false).then(function (doc) { online(); return doc; }, function (err) {
        if (err instanceof Unavailable) { item.queued = why(err); enqueue(item, true); show(err.message); return { queued: true }; }
        if (err instanceof Refused) {
          online();
          if (err.status === 401 && item.form !== undefined) { enqueue(item); login(); return { queued: true }; }
          throw err;
        }
        item.queued = "unreachable";
        enqueue(item);
        return { queued: true };
      });
    }

    window.addEventListener("online", flush);
    document.addEventListener("mmjudge-live", flush);
    setInterval(flush, EVERY);
    show();
    setTimeout(flush, 0);
    var q = {
      send: function (path, body, tag, key) { return sendItem({ path: path, body: body, tag: tag, key: key }); },
      form: function (path, fields) { return sendItem({ path: path, form: fields }); },
      waiting: function () { return read().items.length; },
      // What waits, in order (a page shows each as done but not sent yet).
      items: function () { return read().items; },
      flush: flush,
      moveTo: moveTo
    };
    (mm.queues = mm.queues || []).push(q);
    return q;
  };

  // A player's write, which another laptop takes without this site's session: it carries a table code or a
  // table's sign-in (JSON), or is a player's form with a code (which has no CSRF token).
  function portable(item) {
    if (item.form === undefined) return !!(item.body && (item.body.code || item.body.signin));
    var fields = new URLSearchParams(item.form);
    return !!fields.get("code") && !fields.has("csrf");
  }

  // A form whose answer holds a secret shown once (`data-shown-once` names its field: a player's new code on the
  // judges' table page): sent now, never kept to send later (its answer must be seen), and the secret shown
  // beside the form, where a live refresh keeps it.
  function shownOnce(form, by) {
    // Sent as JSON (a form's answer is a page, which would not hold the secret), its CSRF token in the header.
    var field = form.getAttribute("data-shown-once"), data = new FormData(form), body = {}, csrf = "";
    if (by && by.name) data.append(by.name, by.value);
    data.forEach(function (v, k) { if (k === "csrf") csrf = v; else body[k] = v; });
    var init = {
      method: "POST", credentials: "same-origin", body: JSON.stringify(body),
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf, "Idempotency-Key": newKey() }
    };
    fetch(form.getAttribute("action"), init).then(function (r) {
      return r.text().then(function (text) {
        if (r.status === 401) { location.assign("/login"); return; }
        if (!r.ok) { mm.answer(form, refusalOf(r, text), "refused"); return; }
        var d = {};
        try { d = JSON.parse(text); } catch (e) {}
        var secret = d[field];
        if (!secret) { mm.answer(form, d.summary || "done", "shown"); return; }
        var el = mm.answer(form, (d.name ? "new code for " + d.name : "shown once") + ": ", "shown");
        var b = document.createElement("strong");
        b.className = "secret";
        b.textContent = secret;
        el.appendChild(b);
        el.appendChild(document.createTextNode(" (shown once: give it to the player alone; the old code no longer acts)"));
      });
    }, function () { mm.answer(form, mm.OFFLINE, "refused"); });
  }
  mm.shownOnce = shownOnce;

  // The queue of a page whose forms post to `/api/` (the player's page, the judges' table page), named on the page:
  // app.js's form listener sends those forms through it.
  document.addEventListener("DOMContentLoaded", function () {
    var holder = document.querySelector("[data-queue]");
    if (!holder) return;
    mm.formQueue = mm.queue(holder.getAttribute("data-queue"), {
      drained: function () { location.reload(); }
    });
  });
})();
