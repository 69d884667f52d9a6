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
      readSkew(); mm.localTimes(); tick(); byReason();
      mm.updated();
    });
  }, true);
  // A form's field that matters for one reason only (the turn at time): shown, and sent, with that reason.
  function byReason() {
    document.querySelectorAll("[data-shown-by]").forEach(function (el) {
      var f = el.closest("form"), by = f && f.elements.namedItem("by");
      var on = !by || by.value === el.getAttribute("data-shown-by");
      el.hidden = !on;
      el.querySelectorAll("input").forEach(function (i) { i.disabled = !on; });
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
  }
  document.addEventListener("DOMContentLoaded", function () {
    readSkew(); mm.localTimes(); tick(); fillPin(); byReason();
    document.addEventListener("change", function (e) {
      if (e.target && e.target.name === "by") byReason();
      var f = e.target && e.target.closest && e.target.closest("#penalty-form");
      if (f) preview(f);
    });
    setInterval(tick, 1000);
    mm.live(mm.topics(document.body), refresh);
  });
})();
