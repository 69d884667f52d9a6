// The second laptop, on the pages of a primary that has one (the server adds this script after the page's
// `<meta name="mmjudge-standby" content="ORIGIN" data-event="ID" data-timeout-ms="MS">`). The page notes when the
// primary last answered (any answer to a fetch of this page, its live stream open); while its stream is not open,
// it tries the primary's `/api/time` every few seconds. Once the primary has not answered for the timeout, the
// page asks the standby every few seconds who it is. While it is the standby, the page says the first laptop is
// not answering and that writes are kept on this phone; once it was promoted (the same event, now the primary),
// the page replays the players' writes waiting in its queues there (see queue.js `moveTo`) and opens the same page
// there, bringing the table's sign-ins along. A judge's writes waiting stay on this phone: the judge logs in again
// at the new address.
(function () {
  "use strict";
  var meta = document.querySelector('meta[name="mmjudge-standby"]');
  if (!meta || !window.fetch) return;
  var standby = meta.getAttribute("content") || "", event = meta.getAttribute("data-event") || "";
  var timeout = Number(meta.getAttribute("data-timeout-ms")) || 10000;
  var every = Math.min(3000, timeout); // how often the standby is asked, and the primary tried, while it is silent
  var own = location.origin, plain = window.fetch;
  var heard = Date.now(), trouble = 0, probing = false, asking = false, moving = false, tried = 0, asked = 0;

  function ours(input) {
    try { return new URL((input && input.url) || String(input), location.href).origin === own; } catch (e) { return false; }
  }
  // Every fetch of this page to its own server says whether the primary answers.
  window.fetch = function (input, init) {
    var p = plain.call(window, input, init);
    if (ours(input)) p.then(function () { heard = Date.now(); trouble = 0; }, function () { if (!trouble) trouble = Date.now(); });
    return p;
  };

  function state(s) { if (document.body) document.body.setAttribute("data-failover", s); }
  // What the page says about the laptops, above its content; `link` adds an address to tap.
  function say(text, link) {
    var el = document.getElementById("failover-status");
    if (!el) {
      if (!text) return;
      el = document.createElement("p");
      el.id = "failover-status";
      el.className = "queue-status offline";
      el.setAttribute("role", "status");
      var main = document.querySelector("main");
      if (main) main.parentNode.insertBefore(el, main); else document.body.insertBefore(el, document.body.firstChild);
    }
    el.textContent = text;
    if (link) {
      var a = document.createElement("a");
      a.href = link;
      a.textContent = link;
      el.appendChild(document.createTextNode(" "));
      el.appendChild(a);
    }
    el.hidden = !text;
  }

  // Tries the primary itself (2 s at most): an answer of any kind is a primary that answers.
  function probe() {
    probing = true;
    tried = Date.now();
    var ctl = window.AbortController ? new AbortController() : null;
    var limit = ctl ? setTimeout(function () { ctl.abort(); }, 2000) : 0;
    window.fetch("/api/time", { cache: "no-store", credentials: "same-origin", signal: ctl ? ctl.signal : undefined })
      .catch(function () {}).then(function () { clearTimeout(limit); probing = false; });
  }

  function ask() {
    asking = true;
    asked = Date.now();
    plain.call(window, standby + "/api/standby/whoami", { mode: "cors", credentials: "omit", cache: "no-store" })
      .then(function (r) { return r.json(); })
      .then(function (who) {
        if (moving || Date.now() - heard < timeout) return;
        if (who.event !== event) {
          state("other-event");
          say("The first laptop is not answering, and the second laptop has another event: ask a judge.");
        } else if (who.role === "primary") {
          return move();
        } else {
          state("standby");
          say("The first laptop is not answering. The second laptop is ready but not in charge yet: what you do here is kept on this phone and sent once it is.");
        }
      }, function () {
        if (moving || Date.now() - heard < timeout) return;
        state("silent");
        say("Neither laptop is answering: what you do here is kept on this phone and sent once one of them answers.");
      })
      .then(function () { asking = false; }, function () { asking = false; });
  }

  // What this device keeps for the page that the other laptop's page needs too (the table's sign-ins, the name
  // searched), in the address's fragment, which no server is sent (common.js takes it there).
  function carry() {
    var kept = {}, any = false;
    try {
      for (var i = 0; i < localStorage.length; i++) {
        var k = localStorage.key(i);
        if (/^mmjudge(-table-|\.name$)/.test(k)) { kept[k] = localStorage.getItem(k); any = true; }
      }
    } catch (e) {}
    return any ? "#mmjudge-carry=" + encodeURIComponent(JSON.stringify(kept)) : "";
  }

  // The standby was promoted: the players' writes waiting go there, then this page opens there.
  function move() {
    moving = true;
    state("moving");
    say("The event moved to the second laptop: sending what waits on this phone…");
    var queues = (window.mmjudge && window.mmjudge.queues) || [];
    return Promise.all(queues.map(function (q) { return q.moveTo(standby); })).then(function (outs) {
      var pending = outs.some(function (o) { return o.pending; });
      var kept = outs.reduce(function (n, o) { return n + o.kept; }, 0);
      if (pending) {
        moving = false;
        say("The event moved to the second laptop, which does not take what waits on this phone yet: trying again…");
      } else if (kept) {
        state("login");
        say("The event moved to the second laptop: judges log in again there. " + kept + (kept === 1 ? " judge's write waits" : " judge's writes wait") +
          " on this phone: enter " + (kept === 1 ? "it" : "them") + " again there:", standby + "/login");
      } else {
        state("moved");
        say("The event moved to the second laptop: opening it…");
        location.assign(standby + location.pathname + location.search + carry());
      }
    }, function () { moving = false; });
  }

  setInterval(function () {
    if (moving) return;
    var mm = window.mmjudge, es = mm && mm.stream, now = Date.now();
    // A stream open, or closed by the server's own answer (a server holding all the phones it can refuses it and
    // the page opens another later), is a primary that answers; one reconnecting is not.
    if (es && es.readyState !== 0 && !trouble) heard = now;
    var quiet = now - heard;
    if (quiet < timeout && document.body && document.body.getAttribute("data-failover")) { state(""); say(""); }
    if (quiet >= Math.min(2000, timeout / 2) && !probing && now - tried >= every) probe();
    if (quiet >= timeout && !asking && now - asked >= every) ask();
  }, 500);
})();
