// The head judge's set-up page: a file is sent as the request's body with the upload's progress, then its job is
// followed at the progress address its answer names until it ends (a reload of the page follows it again: the
// address is kept for this tab); a form's fields are sent as JSON. Every write carries a key (Idempotency-Key),
// kept for this tab until its answer came: sent again after no answer (a second tap, a reload, a dropped network),
// the server answers the first try (a job started once) rather than running it twice. The outcome or the refusal
// is shown beside the form, then each step's state is read again from the page.
(function () {
  "use strict";
  var mm = window.mmjudge;
  var list = document.getElementById("steps");
  if (!list) return;
  var csrf = list.getAttribute("data-csrf") || "";

  // The answer at the end of its form, scrolled into view (a long step may push it below the screen).
  function show(form, ok, text) {
    var said = form.querySelector(".said"), error = form.querySelector(".error");
    said.hidden = !ok; error.hidden = ok;
    var el = ok ? said : error;
    el.textContent = text;
    if (el.scrollIntoView) el.scrollIntoView({ block: "nearest" });
  }

  function bar(form, value) {
    var p = form.querySelector("progress");
    if (!p) return;
    p.hidden = value === null;
    if (value === undefined || value === null) p.removeAttribute("value");
    else p.value = value;
  }

  // A job's progress address, kept for this tab while it runs, so that a reload follows it again.
  function kept(form) { return "mmjudge-job " + form.getAttribute("data-route"); }
  function keep(form, url) { try { sessionStorage.setItem(kept(form), url); } catch (e) { /* private mode */ } }
  function forget(form) { try { sessionStorage.removeItem(kept(form)); } catch (e) { /* private mode */ } }

  // The key of a form's write of `what` (its fields, its file): the one kept for this tab while the same write
  // has had no answer, else a new one, kept until the answer comes.
  function keyName(form) { return "mmjudge-key " + form.getAttribute("data-route"); }
  function keyFor(form, what) {
    var held = null;
    try { held = JSON.parse(sessionStorage.getItem(keyName(form)) || "null"); } catch (e) { /* private mode */ }
    if (held && held.what === what && held.key) return held.key;
    var key = "s-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 10);
    try { sessionStorage.setItem(keyName(form), JSON.stringify({ what: what, key: key })); } catch (e) { /* private mode */ }
    return key;
  }
  function answeredKey(form) { try { sessionStorage.removeItem(keyName(form)); } catch (e) { /* private mode */ } }

  var leaving = false;
  window.addEventListener("pagehide", function () { leaving = true; });

  // The tables offered for the libraries: the page's own figure (the players' count) until the judge types one.
  var tables = document.getElementById("build-tables");
  if (tables) tables.addEventListener("input", function () { tables.setAttribute("data-typed", "1"); });

  // Each step's state and mark, read again from the page as it is now.
  function refresh() {
    fetch(location.pathname, { credentials: "same-origin" })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html");
        list.querySelectorAll(".step").forEach(function (step) {
          var now = fresh.getElementById(step.id);
          if (!now) return;
          step.className = now.className;
          // A refusal said before this step changed no longer holds ("only 1 table exists" once rebuilt).
          var was = step.querySelector(".state"), is = now.querySelector(".state");
          if (was && is && was.textContent !== is.textContent) {
            step.querySelectorAll(".error").forEach(function (e) { e.hidden = true; });
          }
          ["h2", ".state"].forEach(function (sel) {
            var a = step.querySelector(sel), b = now.querySelector(sel);
            if (a && b) a.innerHTML = b.innerHTML;
          });
        });
        var offered = fresh.getElementById("build-tables");
        if (tables && offered && !tables.getAttribute("data-typed")) tables.value = offered.value;
      })
      .catch(function () {});
  }

  function ended(form, button, doc) {
    forget(form);
    button.disabled = false;
    bar(form, null);
    if (doc.error) { show(form, false, doc.error); return; }
    show(form, true, (doc.summary || "done"));
    var once = form.querySelector(".pin-once");
    if (once && doc.pin) {
      once.querySelector(".whose").textContent = doc.name ? doc.name + "'s" : "Their";
      once.querySelector(".pin").textContent = doc.pin;
      once.querySelector(".qr").innerHTML = doc.qr || "";
      once.hidden = false;
    }
    var then = form.getAttribute("data-then");
    if (then) { location.href = then; return; }
    refresh();
  }

  // Follows a job at the progress address the server gave (`url`), until it ended.
  function follow(form, button, url) {
    keep(form, url);
    fetch(url, { credentials: "same-origin" })
      .then(function (r) { return r.text().then(function (text) { return { status: r.status, text: text }; }); })
      .then(function (a) {
        var job = {};
        try { job = JSON.parse(a.text); } catch (e) { /* a page, not the job */ }
        if (a.status >= 400 || !job.job) throw new Error(mm.refusalOf(a.status, a.text));
        if (job.status) {
          // A job the second laptop has not saved keeps its key: sent again, it is settled, never run twice.
          if (job.status !== 503) answeredKey(form);
          ended(form, button, job.outcome || { error: job.error });
          return;
        }
        show(form, true, job.phase + (job.of ? " (" + Math.round(100 * job.done / job.of) + "%)" : ""));
        bar(form, job.of ? Math.round(100 * job.done / job.of) : undefined);
        setTimeout(function () { follow(form, button, url); }, 400);
      })
      .catch(function (err) {
        if (leaving) return; // a reload: the job is followed again from its kept number
        ended(form, button, { error: err.message || "the server did not answer: try again" });
      });
  }

  // The server's answer to a write: a job to follow, a refusal, or done. An answer of the server's own trouble
  // (5xx: busy, the second laptop) keeps the write's key, so a tap again is the same write.
  function answered(form, button, status, text) {
    var doc = {};
    try { doc = JSON.parse(text); } catch (e) { /* a page, or nothing */ }
    if (status === 202 && doc.progress) { follow(form, button, doc.progress); return; }
    if (status < 500) answeredKey(form);
    if (status >= 400 || doc.error) { ended(form, button, { error: mm.refusalOf(status, text) }); return; }
    ended(form, button, doc);
  }

  function upload(form, button) {
    var input = form.querySelector("input[type=file]");
    var file = input.files && input.files[0];
    if (!file) { show(form, false, "choose the file first"); button.disabled = false; return; }
    if (!file.size) { show(form, false, file.name + " is empty: choose the file that holds them"); button.disabled = false; return; }
    var query = ["file=" + encodeURIComponent(file.name)];
    form.querySelectorAll("input:not([type=file])").forEach(function (f) {
      if (f.type === "checkbox") { if (f.checked) query.push(f.name + "=true"); }
      else if (f.value.trim()) query.push(f.name + "=" + encodeURIComponent(f.value.trim()));
    });
    var xhr = new XMLHttpRequest();
    xhr.open("POST", form.getAttribute("data-route") + "?" + query.join("&"));
    xhr.setRequestHeader("X-CSRF-Token", csrf);
    xhr.setRequestHeader("Idempotency-Key", keyFor(form, query.join("&") + " " + file.size + " " + file.lastModified));
    xhr.upload.onprogress = function (e) {
      if (e.lengthComputable) { bar(form, Math.round(100 * e.loaded / e.total)); show(form, true, "sending the file (" + Math.round(100 * e.loaded / e.total) + "%)"); }
    };
    xhr.onload = function () { answered(form, button, xhr.status, xhr.responseText); };
    xhr.onerror = function () { ended(form, button, { error: "the file did not arrive: check the laptop's network and try again" }); };
    bar(form, 0);
    xhr.send(file);
  }

  function write(form, button) {
    var body = {};
    form.querySelectorAll("input, select").forEach(function (f) {
      if (f.type === "checkbox") { if (f.checked) body[f.name] = true; }
      else if (f.type === "radio") { if (f.checked) body[f.name] = f.value; }
      else if (f.type === "number") body[f.name] = parseInt(f.value, 10) || 0;
      else body[f.name] = f.value;
    });
    if (form.querySelector("progress")) bar(form, undefined);
    var sent = JSON.stringify(body);
    fetch(form.getAttribute("data-route"), {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf, "Idempotency-Key": keyFor(form, sent) },
      body: sent
    })
      .then(function (r) { return r.text().then(function (text) { answered(form, button, r.status, text); }); })
      .catch(function () { ended(form, button, { error: "the server did not answer: check the laptop and try again" }); });
  }

  // Back from the dashboard shows the page as the browser kept it: read it anew, round 1 may be paired since.
  window.addEventListener("pageshow", function (e) {
    var how = (performance.getEntriesByType && performance.getEntriesByType("navigation")[0] || {}).type;
    if (e.persisted || how === "back_forward") location.reload();
  });

  list.querySelectorAll("form").forEach(function (form) {
    var running = null;
    try { running = sessionStorage.getItem(kept(form)); } catch (e) { /* private mode */ }
    if (running && running.charAt(0) === "/") {
      var button = form.querySelector("button");
      button.disabled = true;
      show(form, true, "still working on the file sent before the page was reloaded…");
      follow(form, button, running);
    }
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var button = form.querySelector("button");
      button.disabled = true;
      show(form, true, "sending…");
      if (form.classList.contains("upload")) upload(form, button); else write(form, button);
    });
  });
})();
