// A print page opened from the phone: its Print button opens the browser's print dialog (the bar itself is not
// printed: see print.css).
document.addEventListener("DOMContentLoaded", function () {
  "use strict";
  var b = document.getElementById("print-now");
  if (b) b.addEventListener("click", function () { window.print(); });
});
