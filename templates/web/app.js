// mmjudge live pages: countdowns against the server's clock, and the page re-read on live updates (see common.js).
(function () {
  "use strict";
  var mm = window.mmjudge;
  function readSkew() {
    var el = document.getElementById("server-now");
    if (el) mm.serverNow(el.getAttribute("data-now"));
  }
  function tick() {
    var now = mm.now();
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      var left = Date.parse(el.getAttribute("data-deadline")) - now;
      el.textContent = mm.span(left);
      el.classList.toggle("over", left < 0);
    });
    // A phase shown until an instant (deck inspection), and the one shown from it (the round's clock).
    document.querySelectorAll("[data-until]").forEach(function (el) {
      el.hidden = now >= Date.parse(el.getAttribute("data-until"));
    });
    document.querySelectorAll("[data-from]").forEach(function (el) {
      el.hidden = now < Date.parse(el.getAttribute("data-from"));
    });
    // A choice offered from an instant (a result at time, once time is called at the table).
    document.querySelectorAll("[data-enabled-from]").forEach(function (el) {
      el.disabled = now < Date.parse(el.getAttribute("data-enabled-from"));
    });
    // A figure that changes at an instant (the decision limit when the table's final window opens).
    document.querySelectorAll("[data-switch-at]").forEach(function (el) {
      var text = el.getAttribute(now >= Date.parse(el.getAttribute("data-switch-at")) ? "data-after" : "data-before");
      if (el.textContent !== text) el.textContent = text;
    });
    // A table's row moves to "over time" by itself when time is called there; the counts follow. A row flagged
    // for a judge ("judge called") says no "playing" beside its flag (its `data-playing` is empty).
    var rows = document.querySelectorAll("tr[data-called-at]");
    rows.forEach(function (tr) {
      var over = now >= Date.parse(tr.getAttribute("data-called-at"));
      tr.classList.toggle("over-time", over);
      tr.classList.toggle("playing", !over);
      var word = tr.querySelector(".state-word");
      var playing = word && word.hasAttribute("data-playing") ? word.getAttribute("data-playing") : "playing";
      if (word) word.textContent = over ? word.getAttribute("data-over") : playing;
    });
    if (rows.length) {
      var count = function (cls) { return String(document.querySelectorAll("tr.table-row." + cls).length); };
      document.querySelectorAll("[data-count]").forEach(function (el) {
        var text = count(el.getAttribute("data-count"));
        if (el.textContent !== text) el.textContent = text;
      });
    }
    document.querySelectorAll("[data-since]").forEach(function (el) {
      el.textContent = mm.span(now - Date.parse(el.getAttribute("data-since")));
    });
  }
  // The page's <main> fetched again and put in place (unless someone began typing while it was on its way).
  var refresh = mm.refresher(function (stillOk) {
    return fetch(location.href, { credentials: "same-origin" }).then(function (r) { return r.text(); }).then(function (html) {
      if (!stillOk()) return;
      var doc = new DOMParser().parseFromString(html, "text/html");
      var fresh = doc.querySelector("main"), old = document.querySelector("main");
      if (fresh && old) { keepOpened(fresh); old.replaceWith(fresh); }
      mm.keepAnswer();
      // The server's now comes with the live stream's hello (a page answered 304 carries an older one).
      mm.localTimes(); tick(); byReason(); more();
      mm.updated();
    });
  }, true);
  // What a live event changed: a table's new row of the pairings put in place (nothing fetched); a change at
  // another table than the player's own on their page, nothing to do; anything else, the page fetched again.
  function changed(c) {
    // The round's count of tables finished, as the result's data gives it (the header of /pairings).
    if (typeof c.finished === "number" && typeof c.tables === "number") {
      document.querySelectorAll('[data-finished="' + c.round + '"]').forEach(function (p) {
        p.textContent = c.finished + " of " + c.tables + " tables finished.";
      });
    }
    if (c.topic !== "round" && c.table) {
      var at = 'table[data-round="' + c.round + '"]';
      if (c.row && document.querySelector(at)) {
        // Rows not loaded yet come with the change when they are.
        document.querySelectorAll(at + ' tr[data-table="' + c.table + '"]').forEach(function (old) {
          var body = document.createElement("tbody");
          body.innerHTML = c.row;
          if (body.firstElementChild) old.replaceWith(body.firstElementChild);
        });
        mm.updated();
        return;
      }
      var mine = document.querySelector("[data-my-table]");
      if (mine && mine.getAttribute("data-my-table") !== String(c.table)) { mm.updated(); return; }
    }
    refresh();
  }
  // A long list (the pairings, the standings): the name searched is remembered on this device and the page opens
  // at it next time; the next rows are loaded as the phone nears the end of the list.
  var NAME = "mmjudge.name";
  function kept() { try { return window.localStorage.getItem(NAME); } catch (e) { return null; } }
  function keep(name) { try { window.localStorage.setItem(NAME, name); } catch (e) { /* private mode */ } }
  function openAtName() {
    var name = kept();
    if (!name || !document.querySelector("form[data-remember-name]") || /[?&](name|from)=/.test(location.search)) {
      return false;
    }
    location.replace(location.pathname + (location.search ? location.search + "&" : "?") + "name=" + encodeURIComponent(name));
    return true;
  }
  function more() {
    var link = document.querySelector("a[data-more]");
    if (!link || !window.IntersectionObserver) return;
    var seen = new IntersectionObserver(function (entries) {
      if (!entries.some(function (e) { return e.isIntersecting; })) return;
      seen.disconnect();
      fetch(link.href, { credentials: "same-origin" }).then(function (r) { return r.text(); }).then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        doc.querySelectorAll("tbody[data-list]").forEach(function (fresh) {
          var old = document.querySelector('tbody[data-list="' + fresh.getAttribute("data-list") + '"]');
          while (old && fresh.firstElementChild) old.appendChild(fresh.firstElementChild);
        });
        var next = doc.querySelector("a[data-more]"), here = link.closest("p");
        if (next && here) { here.replaceWith(next.closest("p")); more(); } else if (here) here.remove();
        mm.updated();
      });
    }, { rootMargin: "600px" });
    seen.observe(link);
  }
  // A form's field that matters for one reason only (the turn at time): shown, and sent, with that reason.
  function byReason() {
    document.querySelectorAll("[data-shown-by]").forEach(function (el) {
      var f = el.closest("form"), by = f && f.elements.namedItem("by");
      var on = !by || by.value === el.getAttribute("data-shown-by");
      el.hidden = !on;
      el.querySelectorAll("input").forEach(function (i) { i.disabled = !on; });
    });
  }
  // A disclosure that loads its content when first opened (a player's decisions on /me): the page at its
  // data-load fetched then, its [data-loaded] part put in its place; a page read again keeps it open and loaded.
  function loadOnOpen(e) {
    var d = e.target;
    if (!d || !d.matches || !d.matches("details[data-load]") || !d.open || d.hasAttribute("data-done")) return;
    d.setAttribute("data-done", "");
    fetch(d.getAttribute("data-load"), { credentials: "same-origin" }).then(function (r) { return r.text(); }).then(function (html) {
      var part = new DOMParser().parseFromString(html, "text/html").querySelector("[data-loaded]");
      var link = d.querySelector("summary + p");
      if (part && link) { link.replaceWith(part); mm.localTimes(); }
    }).catch(function () { d.removeAttribute("data-done"); });
  }
  function keepOpened(fresh) {
    fresh.querySelectorAll("details[data-load]").forEach(function (d) {
      var was = document.querySelector('details[data-load="' + d.getAttribute("data-load") + '"]');
      if (was && was.open) d.replaceWith(was);
    });
    // Every other disclosure opened stays open in the page read again (found by its id, else by its summary's words).
    var opened = {};
    document.querySelectorAll("main details[open]:not([data-load])").forEach(function (d) {
      var s = d.querySelector("summary");
      opened[d.id ? "#" + d.id : "~" + (s ? s.textContent.trim() : "")] = true;
    });
    fresh.querySelectorAll("details:not([data-load])").forEach(function (d) {
      var s = d.querySelector("summary");
      if (opened[d.id ? "#" + d.id : "~" + (s ? s.textContent.trim() : "")]) d.open = true;
    });
  }
  // The penalty form: the penalty the guide gives this player now, shown before it is sent.
  function preview(form) {
    var out = document.getElementById("penalty-preview"), player = form.elements.namedItem("player");
    var infraction = form.elements.namedItem("infraction");
    if (!out || !player || !infraction) return;
    if (!infraction.value) { out.textContent = ""; return; }
    var q = "?player=" + encodeURIComponent(player.value) + "&infraction=" + encodeURIComponent(infraction.value);
    fetch("/api/penalty/preview" + q, { credentials: "same-origin" }).then(function (r) { return r.json(); }).then(function (p) {
      out.textContent = p.words || p.error || "";
    }).catch(function () { out.textContent = ""; });
  }
  function fillPin() {
    var m = /(?:^#|&)pin=(\d+)/.exec(location.hash), pin = document.getElementById("pin");
    if (m && pin) { pin.value = m[1]; history.replaceState(null, "", location.pathname + location.search); }
    // A one-time login link (`#link=`): sent in place of the PIN, which is not asked.
    var l = /(?:^#|&)link=([0-9a-f]+)/.exec(location.hash), link = document.getElementById("link");
    if (l && link && pin) {
      link.value = l[1];
      pin.required = false;
      pin.hidden = true;
      document.getElementById("pin-label").hidden = true;
      document.getElementById("link-note").hidden = false;
      history.replaceState(null, "", location.pathname + location.search);
    }
  }
  // The one listener of the pages' forms that post to /api/: each is sent by script, so its answer shows beside it
  // (mm.answer) and a refusal never leaves the page; done, the page it goes back to shows the "Done" line beside
  // the same form. A form whose answer holds a secret shown once goes through queue.js's `shownOnce`; on a page
  // with a queue (queue.js: the player's page, the judges' table page) a form goes through it (kept on the phone
  // when the network drops, sent again with its key); elsewhere it is sent at once (see `sendOnce`).
  function sendForms() {
    document.addEventListener("submit", function (e) {
      var form = e.target, by = e.submitter;
      if (e.defaultPrevented || !form.getAttribute) return;
      if (form.hasAttribute("data-shown-once") && mm.shownOnce) { e.preventDefault(); mm.shownOnce(form, by); return; }
      var action = (by && by.getAttribute("formaction")) || form.getAttribute("action") || "";
      if ((form.getAttribute("method") || "").toLowerCase() !== "post" || action.indexOf("/api/") !== 0) return;
      e.preventDefault();
      var data = new FormData(form);
      if (by && by.name) data.append(by.name, by.value);
      var fields = new URLSearchParams(data).toString(), q = mm.formQueue;
      (q ? q.form(action, fields) : sendOnce(form, action, fields)).then(function (doc) {
        if (doc.queued) mm.answer(form, "kept on this phone: it is sent when the network is back", "waiting");
        if (doc.page) { mm.sentFrom(form, by); location.assign(doc.page); }
      }, function (err) {
        if (q) q.flush();
        if (err.status === 401) { location.assign("/login"); return; }
        mm.answer(form, err.message, "refused");
      });
    });
  }
  // A form's write on a page without a queue, sent at once with its key (Idempotency-Key): the same key while the
  // same fields have had no answer (a tap again after the network dropped is the same write, recorded once), a new
  // one after an answer. Resolves with the page it went back to (`{page}`); rejects with the refusal's words (and
  // its status), or mm.OFFLINE.
  function sendOnce(form, action, fields) {
    var held = form.mmKey;
    if (!held || held.fields !== fields) {
      held = form.mmKey = { fields: fields, key: "f-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 10) };
    }
    var init = {
      method: "POST", credentials: "same-origin", body: fields,
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Idempotency-Key": held.key }
    };
    return fetch(action, init).then(function (r) {
      return r.text().then(function (text) {
        // The server's own trouble (a 5xx) keeps the key: sent again, the write is not recorded twice.
        if (r.status < 500) form.mmKey = null;
        if (r.ok) return { page: r.url };
        var refused = new Error(mm.refusalOf(r.status, text));
        refused.status = r.status;
        throw refused;
      });
    }, function () { throw new Error(mm.OFFLINE); });
  }
  document.addEventListener("DOMContentLoaded", function () {
    if (openAtName()) return;
    document.addEventListener("submit", function (e) {
      var f = e.target, input = f && f.matches && f.matches("form[data-remember-name]") && f.elements.namedItem("name");
      if (input) keep(input.value.trim());
    });
    readSkew(); mm.localTimes(); tick(); fillPin(); byReason(); more(); mm.placeDone(); sendForms();
    document.addEventListener("toggle", loadOnOpen, true);
    document.addEventListener("change", function (e) {
      if (e.target && e.target.name === "by") byReason();
      var f = e.target && e.target.closest && e.target.closest("#penalty-form");
      if (f) preview(f);
    });
    setInterval(tick, 1000);
    mm.live(mm.topics(document.body), changed);
  });
})();
