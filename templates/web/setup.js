// The set-up page: the token from the address's #token= (never sent to the server but in the request's body),
// the form sent as JSON, then the head judge's PIN shown once.
(function () {
  "use strict";
  var form = document.getElementById("setup");
  if (!form) return;
  var token = (location.hash.match(/token=([0-9a-fA-F]+)/) || [])[1] || "";
  if (!token) {
    document.getElementById("no-token").hidden = false;
    form.hidden = true;
    return;
  }
  var error = document.getElementById("setup-error");
  form.addEventListener("submit", function (e) {
    e.preventDefault();
    error.hidden = true;
    var button = form.querySelector("button");
    button.disabled = true;
    var body = {
      token: token,
      event: form.event.value,
      rounds: parseInt(form.rounds.value, 10) || 0,
      head_judge: form.head_judge.value
    };
    fetch("/api/setup", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
      .then(function (r) { return r.json().then(function (doc) { return { ok: r.ok, doc: doc }; }); })
      .then(function (a) {
        if (!a.ok) throw new Error(a.doc.error || "the event was not created: try again");
        history.replaceState(null, "", "/setup");
        form.hidden = true;
        document.getElementById("created-summary").textContent = a.doc.summary;
        var title = document.querySelector("header.bar .event");
        if (title) title.textContent = body.event;
        document.getElementById("pin").textContent = a.doc.pin;
        if (a.doc.qr) document.getElementById("login-qr").innerHTML = a.doc.qr;
        document.getElementById("created").hidden = false;
        // The set-up form leaves the tab's history: Back from the next page never shows it again.
        document.getElementById("next").addEventListener("click", function (e) {
          e.preventDefault();
          location.replace(this.href);
        });
      })
      .catch(function (err) {
        error.textContent = err.message || "the server did not answer: check the laptop and try again";
        error.hidden = false;
        button.disabled = false;
      });
  });
})();
