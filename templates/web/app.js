// mmjudge live pages: countdowns against the server's clock, and live updates over server-sent events.
(function () {
  "use strict";
  var skew = 0; // server now minus this phone's now, in ms
  function readSkew() {
    var el = document.getElementById("server-now");
    var t = el ? Date.parse(el.getAttribute("data-now")) : NaN;
    if (!isNaN(t)) skew = t - Date.now();
  }
  function two(n) { return (n < 10 ? "0" : "") + n; }
  function span(ms) {
    var s = Math.floor(Math.abs(ms) / 1000), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
    return (ms < 0 ? "+" : "") + (h ? h + ":" + two(m) : m) + ":" + two(s % 60);
  }
  function tick() {
    var now = Date.now() + skew;
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      var left = Date.parse(el.getAttribute("data-deadline")) - now;
      el.textContent = span(left);
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
      el.textContent = span(now - Date.parse(el.getAttribute("data-since")));
    });
  }
  function localTimes() {
    document.querySelectorAll("time[datetime]").forEach(function (el) {
      var d = new Date(el.getAttribute("datetime"));
      if (!isNaN(d)) el.textContent = two(d.getHours()) + ":" + two(d.getMinutes());
    });
  }
  var busy = false, again = false;
  // Someone is typing in a field (a code, a life total): the page is not replaced under their fingers.
  function typing() {
    var a = document.activeElement;
    return a && /^(INPUT|SELECT|TEXTAREA)$/.test(a.tagName) && a.value;
  }
  var waiting = false;
  function whenDone() {
    if (waiting) return;
    waiting = true;
    setTimeout(function () { waiting = false; refresh(); }, 1000);
  }
  function refresh() {
    if (typing()) { whenDone(); return; }
    if (busy) { again = true; return; }
    busy = true;
    fetch(location.href, { credentials: "same-origin" }).then(function (r) { return r.text(); }).then(function (html) {
      // Typing began while the page was on its way: try again once they are done.
      if (typing()) { whenDone(); return; }
      var doc = new DOMParser().parseFromString(html, "text/html");
      var fresh = doc.querySelector("main"), old = document.querySelector("main");
      if (fresh && old) old.replaceWith(fresh);
      readSkew(); localTimes(); tick(); byReason();
      document.body.setAttribute("data-updated", String(Date.now()));
    }).catch(function () {}).then(function () {
      busy = false;
      if (again) { again = false; setTimeout(refresh, 200); }
    });
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
    readSkew(); localTimes(); tick(); fillPin(); byReason();
    document.addEventListener("change", function (e) { if (e.target && e.target.name === "by") byReason(); });
    setInterval(tick, 1000);
    var watch = (document.body.getAttribute("data-watch") || "").split(/\s+/).filter(Boolean);
    if (!watch.length || !window.EventSource) return;
    var es = new EventSource("/events"), seen = false;
    es.addEventListener("hello", function () { if (seen) refresh(); seen = true; });
    watch.forEach(function (name) { es.addEventListener(name, refresh); });
  });
})();
