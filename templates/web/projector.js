// mmjudge projector page: counts down against the server's clock, switches phase by itself (deck inspection,
// round, final window, time) from the absolute instants the page holds, and re-reads itself on live updates
// (see common.js).
(function () {
  "use strict";
  var mm = window.mmjudge, clock = mm.left, wall = mm.wall;
  function root() { return document.getElementById("projector"); }
  function instant(el, name) { var v = el && el.getAttribute("data-" + name); return v ? Date.parse(v) : NaN; }
  function readSkew() { var r = root(); if (r) mm.serverNow(r.getAttribute("data-now")); }
  function set(el, text) { if (el && el.textContent !== text) el.textContent = text; }
  function byId(id) { return document.getElementById(id); }
  // "15 minutes", "minute" (the final minute).
  function minutes(n) { return n === "1" ? "minute" : n + " minutes"; }

  function tick() {
    var r = root(), now = mm.now();
    if (!r) return;
    set(byId("wall"), wall(now, true));
    var phase = r.getAttribute("data-phase");
    if (!phase) return;
    var start = instant(r, "start"), end = instant(r, "end"), win = instant(r, "window");
    var from = instant(r, "inspection-from"), until = instant(r, "inspection-until");
    var called = isNaN(end) ? "" : "Time is called at " + wall(end) + "; final window from " + wall(win);
    var label = null, left = "", ends = "", inspecting = false;
    if (phase === "paired" || phase === "closed") {
      label = null; // the server's words stand until the next update
    } else if (!isNaN(until) && now < until) {
      inspecting = true;
      label = now < from ? "Deck inspection starts in" : "Deck inspection — time left";
      left = clock((now < from ? from : until) - now);
      ends = "The round's clock starts at " + wall(until);
    } else if (now < start) {
      label = "Round starts in"; left = clock(start - now); ends = called;
    } else if (now >= end) {
      label = "Finish the turn, then the higher life total wins"; left = "TIME"; ends = called;
    } else {
      label = "Round time left"; left = clock(end - now); ends = called;
    }
    var top = byId("top");
    if (label !== null) {
      set(byId("label"), label); set(byId("left"), left); set(byId("ends"), ends);
      var inWindow = !inspecting && now >= start && now >= win;
      var long = r.getAttribute("data-decision"), short = r.getAttribute("data-final-decision");
      set(byId("limit"), (inWindow ? short : long) + " s");
      set(byId("limit-note"), inWindow ? "final window: the shorter limit is in force"
        : short + " s in the final " + minutes(r.getAttribute("data-window-minutes")) + ", from " + wall(win));
      if (top) {
        top.classList.toggle("window", inWindow);
        top.classList.toggle("over", now >= end && !inspecting);
        top.classList.toggle("inspection", inspecting);
      }
    }
    document.querySelectorAll(".t[data-end]").forEach(function (t) {
      var tEnd = instant(t, "end"), tWin = instant(t, "window"), over = now >= tEnd, inWin = now >= tWin && now >= start;
      t.classList.toggle("over", over);
      t.classList.toggle("window", inWin && !over);
      set(t.querySelector(".tl"), over ? "TIME" : clock(tEnd - now) + " left");
      set(t.querySelector(".ext"), "+" + clock(Number(t.getAttribute("data-ext")) * 1000));
      set(t.querySelector(".lim"), (inWin ? r.getAttribute("data-final-decision") : r.getAttribute("data-decision")) + " s");
    });
    var overCount = 0;
    document.querySelectorAll("li.o[data-end]").forEach(function (li) {
      // Time is called at the table's end, or at the round's close (its `data-end` then) when it came first.
      var over = !(now < start) && now >= instant(li, "end");
      li.hidden = !over;
      if (over) overCount += 1;
    });
    var none = byId("no-over");
    if (none) none.hidden = overCount > 0;
  }
  var refresh = mm.refresher(function () {
    return fetch(location.href, { credentials: "same-origin" }).then(function (res) { return res.text(); }).then(function (html) {
      var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("projector"), old = root();
      if (fresh && old) old.replaceWith(fresh);
      // The server's now comes with the live stream's hello (a page answered 304 carries an older one).
      mm.localTimes(); tick();
      mm.updated();
    });
  }, false);
  // The round's progress chart, as the server draws it on the next read: a table's result adds its point (now,
  // the tables finished) to the step line and takes the table off those named as playing; nothing fetched.
  function progressed(c) {
    var svg = document.querySelector("#progress svg[data-x]");
    if (!svg) return;
    var x = svg.getAttribute("data-x").split(" ").map(Number), y = svg.getAttribute("data-y").split(" ").map(Number);
    var minutes = Math.max(0, (mm.now() - Date.parse(svg.getAttribute("data-start"))) / 60000);
    var px = (x[0] + (x[1] - x[0]) * Math.min(minutes / x[2], 1)).toFixed(1);
    var py = (y[0] + (y[1] - y[0]) * Math.min(c.finished / Math.max(y[2], 1), 1)).toFixed(1);
    var steps = svg.querySelector("path[data-steps]");
    if (steps) steps.setAttribute("d", steps.getAttribute("d") + " H" + px + " V" + py);
    var dot = document.createElementNS("http://www.w3.org/2000/svg", "circle");
    dot.setAttribute("cx", px); dot.setAttribute("cy", py); dot.setAttribute("r", "2.5");
    dot.setAttribute("fill", "currentColor");
    svg.appendChild(dot);
    var list = document.querySelector("#progress [data-playing]"), gone = list && list.querySelector('[data-table="' + c.table + '"]');
    if (gone) {
      gone.remove();
      var left = Array.prototype.map.call(list.querySelectorAll("[data-table]"), function (el) { return el.outerHTML; });
      list.innerHTML = left.join(", ");
    }
  }
  // A table's result: the table leaves the lists of tables playing and the count moves on, nothing fetched;
  // anything else (a result taken back, the round, a clock), the page fetched again.
  function changed(c) {
    var r = root();
    if (r && c.topic === "result" && c.done === true && typeof c.finished === "number" && c.table) {
      r.querySelectorAll('li.o[data-table="' + c.table + '"], .extended .t[data-table="' + c.table + '"]').forEach(function (el) {
        el.remove();
      });
      r.querySelectorAll("p.count").forEach(function (p) { p.textContent = c.finished + " of " + c.tables + " tables finished."; });
      progressed(c);
      tick();
      mm.updated();
      return;
    }
    refresh();
  }
  document.addEventListener("DOMContentLoaded", function () {
    readSkew(); mm.localTimes(); tick();
    setInterval(tick, 250);
    if (!mm.live(mm.topics(root()), changed)) setInterval(refresh, 15000);
  });
})();
