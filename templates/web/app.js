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
      if (fresh && old) old.replaceWith(fresh);
      // The server's now comes with the live stream's hello (a page answered 304 carries an older one).
      mm.localTimes(); tick(); byReason();
      mm.updated();
    });
  }, true);
  // What a live event changed: a table's new row of the pairings put in place (nothing fetched); a change at
  // another table than the player's own on their page, nothing to do; anything else, the page fetched again.
  function changed(c) {
    if (c.topic !== "round" && c.table) {
      var rows = document.querySelector('table[data-round="' + c.round + '"]');
      var old = rows && rows.querySelector('tr[data-table="' + c.table + '"]');
      if (old && c.row) {
        var body = document.createElement("tbody");
        body.innerHTML = c.row;
        if (body.firstElementChild) { old.replaceWith(body.firstElementChild); mm.updated(); return; }
      }
      var mine = document.querySelector("[data-my-table]");
      if (mine && mine.getAttribute("data-my-table") !== String(c.table)) { mm.updated(); return; }
    }
    refresh();
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
  function fillPin() {
    var m = /(?:^#|&)pin=(\d+)/.exec(location.hash), pin = document.getElementById("pin");
    if (m && pin) { pin.value = m[1]; history.replaceState(null, "", location.pathname + location.search); }
  }
  document.addEventListener("DOMContentLoaded", function () {
    readSkew(); mm.localTimes(); tick(); fillPin(); byReason();
    document.addEventListener("change", function (e) { if (e.target && e.target.name === "by") byReason(); });
    setInterval(tick, 1000);
    mm.live(mm.topics(document.body), changed);
  });
})();
