// What every live page shares: the server's clock (pages count against the server's now, not the phone's), clock
// text, and the live refresh over server-sent events with its guard for someone typing. Each page's own script
// (app.js, projector.js, table.js) uses `window.mmjudge` and keeps only what is its own.
(function () {
  "use strict";
  var skew = 0; // the server's now minus this device's now, in ms

  function two(n) { return (n < 10 ? "0" : "") + n; }

  var mm = {
    two: two,
    // Takes the server's now (an RFC 3339 instant the page or an answer carries) as the clock to count against.
    serverNow: function (instant) {
      var t = Date.parse(instant || "");
      if (!isNaN(t)) skew = t - Date.now();
    },
    // The server's now, in ms.
    now: function () { return Date.now() + skew; },
    // A signed span, M:SS or H:MM:SS, "+" once past (a countdown over its deadline, or a count up).
    span: function (ms) {
      var s = Math.floor(Math.abs(ms) / 1000), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
      return (ms < 0 ? "+" : "") + (h ? h + ":" + two(m) : m) + ":" + two(s % 60);
    },
    // Time left, M:SS or H:MM:SS, rounded up and never below 0:00 (the big clocks).
    left: function (ms) {
      var s = Math.ceil(Math.max(ms, 0) / 1000), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60;
      return (h > 0 ? h + ":" + two(m) : m) + ":" + two(s % 60);
    },
    // An instant as this device's wall clock, HH:MM (with seconds when asked).
    wall: function (ms, seconds) {
      var d = new Date(ms);
      return two(d.getHours()) + ":" + two(d.getMinutes()) + (seconds ? ":" + two(d.getSeconds()) : "");
    },
    // Every <time datetime> shown as the wall clock of this device.
    localTimes: function (root) {
      (root || document).querySelectorAll("time[datetime]").forEach(function (el) {
        var t = Date.parse(el.getAttribute("datetime"));
        if (!isNaN(t)) el.textContent = mm.wall(t);
      });
    },
    // Whether someone is typing in a field (a code, a life total): the page is not replaced under their fingers.
    // A confirmation opened on the page (End the round..., More... on a player) counts too: a refresh would close
    // it under the judge's thumb. Any other disclosure opened (the numbers behind a chart, "Your decisions", "That's
    // not what happened") holds nothing back: the page read again keeps it open (app.js), so the page stays live.
    typing: function () {
      var a = document.activeElement;
      if (a && /^(INPUT|SELECT|TEXTAREA)$/.test(a.tagName) && a.value) return true;
      // A form someone began filling and has not sent (an infraction chosen, then the button tapped).
      return !!document.querySelector("main details.confirm[open], main form[data-filling]");
    },
    // A refresh that runs one at a time: `load` returns a promise; a call while one is on its way runs once more
    // after it. With `guard`, a refresh is put off while someone types and tried again a second after they stop,
    // and one that arrives while they type is dropped and tried again the same way.
    refresher: function (load, guard) {
      var busy = false, again = false, waiting = false;
      function later() {
        if (waiting) return;
        waiting = true;
        setTimeout(function () { waiting = false; run(); }, 1000);
      }
      function run() {
        if (guard && mm.typing()) { later(); return; }
        if (busy) { again = true; return; }
        busy = true;
        Promise.resolve().then(function () {
          return load(function () { if (guard && mm.typing()) { later(); return false; } return true; });
        }).catch(function () {}).then(function () {
          busy = false;
          if (again) { again = false; setTimeout(run, 200); }
        });
      }
      return run;
    },
    // Listens to the live stream for these topics (the names the server gives the page in `data-watch`) and
    // calls `refresh` for each with what changed (the event's JSON data: id, topic, and where: round, table,
    // player, a table's new row); `hello` sets the server's now. A phone that reconnects (it slept, the Wi-Fi
    // dropped) is sent what it missed, or one `round` to reload everything. A server holding all the phones it
    // can answers 503, on which the browser gives the stream up: it is opened again 10 to 30 s later, and the
    // page read again then (a new stream cannot be told what it missed). Returns false where the browser has no
    // live stream.
    live: function (topics, refresh) {
      if (!topics.length || !window.EventSource) return false;
      var seen = false;
      function data(e) {
        try { var d = JSON.parse(e.data); return d && typeof d === "object" ? d : {}; } catch (x) { return {}; }
      }
      (function open() {
        var es = new EventSource("/events"), reopened = seen;
        mm.stream = es; // failover.js: an open stream is a primary that answers
        es.addEventListener("hello", function (e) {
          var d = data(e);
          if (d.now) mm.serverNow(d.now);
          if (seen) document.dispatchEvent(new Event("mmjudge-live")); // queue.js sends what waits
          if (reopened) { reopened = false; refresh({ topic: "round" }); }
          seen = true;
        });
        topics.forEach(function (name) { es.addEventListener(name, function (e) { refresh(data(e)); }); });
        es.onerror = function () {
          if (es.readyState === 2) { es.close(); setTimeout(open, 10000 + Math.random() * 20000); }
        };
      })();
      return true;
    },
    // The topics an element names in its `data-watch` attribute (space-separated; the server writes it from
    // its one list of topics).
    topics: function (el) {
      return ((el && el.getAttribute("data-watch")) || "").split(/\s+/).filter(Boolean);
    },
    // Marks the page as updated (the browser checks wait for it).
    updated: function () { document.body.setAttribute("data-updated", String(Date.now())); }
  };
  // A page moved to the second laptop (failover.js) brings what the device kept for it, in its address's fragment:
  // kept here too (the table's sign-ins, the name searched), the fragment taken off the address.
  var carried = /^#mmjudge-carry=(.+)$/.exec(location.hash);
  if (carried) {
    try {
      var kept = JSON.parse(decodeURIComponent(carried[1]));
      Object.keys(kept).forEach(function (k) {
        if (/^mmjudge(-table-|\.name$)/.test(k) && typeof kept[k] === "string") localStorage.setItem(k, kept[k]);
      });
    } catch (e) {}
    history.replaceState(null, "", location.pathname + location.search);
  }
  // What someone fills in a form marks it until it is sent (see `typing`).
  function filling(e) { var f = e.target && e.target.form; if (f) f.setAttribute("data-filling", ""); }
  document.addEventListener("input", filling, true);
  document.addEventListener("change", filling, true);
  document.addEventListener("submit", function (e) { if (e.target && e.target.removeAttribute) e.target.removeAttribute("data-filling"); }, true);
  // An answer where the eye is: a form's outcome (done, refused, or kept to send later) in one role="alert"
  // line right after the form that sent it, scrolled into view; the page's earlier answer (and its "Done" line)
  // goes, so a glance never reads an old success. A refusal has its own style.
  mm.answer = function (form, text, how) {
    var old = document.querySelectorAll(".answer, p.done");
    for (var i = 0; i < old.length; i++) old[i].parentNode.removeChild(old[i]);
    if (/[?&]done=/.test(location.search)) {
      history.replaceState(null, "", location.pathname + location.search.replace(/([?&])done=[^&]*&?/, "$1").replace(/[?&]$/, "") + location.hash);
    }
    var el = document.createElement("p");
    el.className = "answer " + how;
    el.id = "answer";
    el.setAttribute("role", "alert");
    el.textContent = how === "refused" ? mm.refused(text) : (how === "waiting" ? "Not sent yet: " : "Done: ") + text;
    // A live refresh may have put a fresh <main> in place while the answer was on its way: the answer goes
    // beside the same form in the page as it is now.
    var sent = form;
    if (form && !document.contains(form)) form = formOf(mm.formKey(form)) || form;
    if (how === "refused") carry(sent, form);
    if (form && form.parentNode && document.contains(form)) form.parentNode.insertBefore(el, form.nextSibling);
    else (document.querySelector("main") || document.body).insertBefore(el, null);
    el.scrollIntoView({ block: "center" });
    answered = { key: form ? mm.formKey(form) : null, el: el, form: how === "refused" ? form : null };
    return el;
  };
  var answered = null; // the form last answered on this page, its answer, and (refused) the form as filled
  // What someone filled in a refused form, carried into the same form of a fresh page: a live refresh must not
  // empty the form whose refusal says to change a field and send it again.
  function carry(from, to) {
    if (!from || !to || from === to) return;
    var fields = from.elements;
    for (var i = 0; i < fields.length; i++) {
      var f = fields[i], name = f.name;
      if (!name || f.type === "hidden" || f.type === "submit" || f.tagName === "BUTTON") continue;
      var same = to.elements.namedItem(name);
      if (!same) continue;
      if (same instanceof RadioNodeList) {
        for (var j = 0; j < same.length; j++) if (same[j].value === f.value && (f.type === "radio" || f.type === "checkbox")) same[j].checked = f.checked;
      } else if (f.type === "checkbox" || f.type === "radio") same.checked = f.checked;
      else same.value = f.value;
    }
  }
  function formOf(key) {
    var forms = document.querySelectorAll("form");
    for (var i = 0; i < forms.length; i++) {
      if (mm.formKey(forms[i]) === key || mm.formKey(forms[i], forms[i].querySelector("button[formaction]")) === key) return forms[i];
    }
    return null;
  }
  // After a live refresh put a fresh <main> in place: the answer stays beside its form (a refusal is kept as it
  // was; a "Done" line is the fresh page's own), without scrolling again.
  mm.keepAnswer = function () {
    if (!answered) return;
    var form = answered.key && formOf(answered.key);
    var el = answered.el.classList.contains("done") ? document.getElementById("done") : answered.el;
    if (!el) return;
    if (form && answered.form && answered.form !== form) { carry(answered.form, form); answered.form = form; }
    // A fresh page fetched before the answer came may carry the earlier "Done" line: it goes, as in `answer`.
    if (el !== document.getElementById("done")) {
      var stale = document.querySelectorAll("p.done, .answer");
      for (var i = 0; i < stale.length; i++) if (stale[i] !== el) stale[i].parentNode.removeChild(stale[i]);
    }
    if (form) form.parentNode.insertBefore(el, form.nextSibling);
    else if (!el.parentNode || !document.contains(el)) (document.querySelector("main") || document.body).insertBefore(el, null);
    openAround(el);
  };
  // An answer placed beside a form inside a closed disclosure (a player's More…) opens it, or it would not show.
  function openAround(el) {
    for (var d = el.parentNode; d; d = d.parentNode) if (d.tagName === "DETAILS") d.open = true;
  }
  // A form, named so that the page it goes back to finds it again: its address, its id, its hidden fields.
  mm.formKey = function (form, submitter) {
    var parts = [(submitter && submitter.getAttribute("formaction")) || form.getAttribute("action") || "", form.id || ""];
    var hidden = form.querySelectorAll('input[type="hidden"]');
    for (var i = 0; i < hidden.length; i++) {
      if (hidden[i].name !== "csrf" && hidden[i].name !== "back") parts.push(hidden[i].name + "=" + hidden[i].value);
    }
    return parts.join("|");
  };
  // Before a form's write goes back to its page: remember which form sent it, so the page shows its "Done"
  // line beside that form (see `placeDone`).
  mm.sentFrom = function (form, submitter) {
    try { sessionStorage.setItem("mmjudge-sent-from", mm.formKey(form, submitter)); } catch (e) {}
  };
  // The "Done" line of a page a form's write went back to, moved beside that form (when it is still there) and
  // scrolled into view.
  mm.placeDone = function () {
    var done = document.getElementById("done"), key = null;
    try { key = sessionStorage.getItem("mmjudge-sent-from"); sessionStorage.removeItem("mmjudge-sent-from"); } catch (e) {}
    if (!key) return;
    if (!done) { showOutcome(key); return; }
    var form = formOf(key);
    if (form) form.parentNode.insertBefore(done, form.nextSibling);
    openAround(done);
    answered = { key: key, el: done };
    done.scrollIntoView({ block: "center" });
  };
  // A page whose form's outcome shows in the form's place (a player's call for a judge: "A judge is called to
  // your table (since 09:14).") marks that line `data-answer-of` with the form's address: it is scrolled into view
  // when the form's write came back to the page, as a refusal is beside its form.
  function showOutcome(key) {
    var action = key.split("|")[0], lines = document.querySelectorAll("[data-answer-of]");
    for (var i = 0; i < lines.length; i++) {
      if (lines[i].getAttribute("data-answer-of") !== action) continue;
      openAround(lines[i]);
      lines[i].scrollIntoView({ block: "center" });
      return;
    }
  }
  // A refusal's one line, the one way every page reads it: the JSON `error`, or a refused page's role="alert" text.
  mm.refusalOf = function (status, text) {
    try { var d = JSON.parse(text); if (d && d.error) return d.error; } catch (e) {}
    try {
      var doc = new DOMParser().parseFromString(text, "text/html");
      var alert = doc.querySelector('[role="alert"]');
      if (alert && alert.textContent.trim()) return alert.textContent.trim();
    } catch (e) {}
    return "the server answered " + status + ": try again";
  };
  // The one wording of a refused write, wherever a page shows it (beside its form, under a card on the table's
  // device, beside a report): "Not done: " and the refusal's one line.
  // A refusal resting on a rule reads as what happened first, the rule's id last: "MM.3e: a template is declared
  // once per game: ..." as "a template is declared once per game: ... (rule MM.3e)".
  mm.refused = function (text) {
    var cited = /^([A-Z]{2,4}\.[0-9][0-9a-z.]*): ([\s\S]+)$/.exec(text || "");
    return "Not done: " + (cited ? cited[2] + " (rule " + cited[1] + ")" : text);
  };
  // The one line for a write the network did not carry and no queue keeps for later.
  mm.OFFLINE = "this phone is offline: tap it again when the network is back";
  window.mmjudge = mm;
})();
