// The organiser's day to its end from one phone (390×844), in headless Chromium, by tapping the pages and reading
// what they say:
//   1. logs in; on the set-up page switches Check-in on, then off again, by its switch (each answer beside it);
//   2. on the Judges page changes Round length by its number control; pairs round 1 and starts it;
//   3. changes Decision limit while the round runs: refused beside its form, naming the box “Change it although
//      round 1 is being played”; ticks it and sends again: done;
//   4. on table 7's device both players sign in, one reports the result and the other confirms it there;
//      records table 8's result on its page (the winner chosen; the other seven are recorded at the keyboard
//      meanwhile) and ends the round: the dashboard says the event is over and names the winner;
//   5. the home page, the winner's /me, the projector (the top 8), the points by round (from /standings, its chart
//      naming the winner) and the standings print ("Final standings", its chart naming the winner), printed to PDF
//      name the winner;
//   6. raises Rounds to 2 by its control: the event is open again and the round's steps offer round 2; lowers it
//      back to 1: over again.
// Each answer to a tap must be inside the viewport after it; every page opened must fit 390 px. Any page error,
// console error or failed request fails the check (exit 1); screenshots of each step go to SHOTS when set.
//
// Run by scripts/check-event-end.sh, which builds the event and starts the server. Environment:
//   BASE      the server's address (http://127.0.0.1:PORT)
//   JUDGE     a head judge's name, PIN its PIN
//   MMJUDGE   the binary (the keyboard's results), with MMJUDGE_DB set
//   CHROMIUM  the browser to drive
//   SHOTS     a folder for phone-width screenshots (optional)
import { chromium } from "playwright-core";
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`check-event-end.mjs: ${name} is not set (run scripts/check-event-end.sh)`);
  return v;
};
const BASE = env("BASE");
const JUDGE = env("JUDGE");
const PIN = env("PIN");
const MMJUDGE = env("MMJUDGE");
const SHOTS = process.env.SHOTS || "";
const WAIT_MS = 10000;

const problems = [];
const problem = (text) => {
  problems.push(text);
  console.error(`check-event-end: ${text}`);
};
// Refusals the check provokes on purpose: Chromium logs each refused request as a console error.
let expectedRefusals = 0;

async function shot(page, name) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `event-end-${name}.png`), fullPage: false });
}

class Stopped extends Error {}

// The standings chart's title (its first line on the page, the whole in the SVG's title) names the winner.
async function chartNamesWinner(page) {
  const title = (await page.locator("figure.chart svg > title").first().textContent()) || "";
  const words = `Final standings: ${winner.replace(/\.$/, "")}`;
  if (title.trim() !== words) throw new Error(`the standings chart is titled "${title}", not "${words}"`);
}

async function step(name, fn) {
  const t0 = Date.now();
  try {
    await fn();
    console.log(`check-event-end: ok   ${name} (${Date.now() - t0} ms)`);
  } catch (e) {
    problem(`${name}: ${e.message.split("\n")[0]}`);
    throw new Stopped(); // the steps after it depend on it
  }
}

function watchPage(page) {
  page.on("pageerror", (e) => problem(`uncaught error on ${page.url()}: ${e.message}`));
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    const text = msg.text();
    if (expectedRefusals > 0 && /status of (403|409)/.test(text)) {
      expectedRefusals -= 1;
      return;
    }
    problem(`console error on ${page.url()}: ${text}`);
  });
  page.on("requestfailed", (req) => {
    const failure = req.failure()?.errorText || "";
    if (failure.includes("ERR_ABORTED")) return;
    problem(`request failed ${req.method()} ${req.url()}: ${failure}`);
  });
  page.on("response", (res) => {
    if (res.status() >= 400 && res.status() !== 409 && !(res.status() === 403 && expectedRefusals > 0)) problem(`${res.status()} for ${res.request().method()} ${res.url()}`);
  });
}

// The page fits the phone: nothing scrolls sideways.
async function fits(page, what) {
  const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  if (wide > 0) throw new Error(`${what} is ${wide} px wider than a 390 px phone`);
}

// `el` is inside the viewport (waiting up to 3 s for the page to place and scroll it).
async function inView(page, el, what) {
  await el.waitFor({ state: "visible" });
  const ok = await el
    .evaluate((node) => new Promise((done) => {
      const t0 = Date.now();
      (function look() {
        const r = node.getBoundingClientRect();
        if (r.top >= 0 && r.bottom <= innerHeight && r.height > 0) return done(true);
        if (Date.now() - t0 > 3000) return done(false);
        requestAnimationFrame(look);
      })();
    }))
    .catch(() => false);
  if (!ok) {
    const box = await el.boundingBox();
    throw new Error(`${what}: the answer is out of view (${JSON.stringify(box)} in a 390×844 screen)`);
  }
  const text = (await el.textContent()).trim();
  if (/mmjudge |`|(^|[^\w-])--[a-z]/.test(text)) throw new Error(`${what}: the answer names a command line: ${text}`);
  console.log(`check-event-end:      ${what}: "${text}"`);
  return text;
}

// Taps `button` and waits for the page it goes back to (`/judge?done=ID`, a new ID).
async function tapAndBack(page, button, path = "/judge") {
  const before = page.url();
  await button.click();
  await page.waitForURL((u) => u.href !== before && u.pathname === path && /[?&]done=\d+/.test(u.search));
}

// The judges' page's one answer (role="alert": a Done line or a refusal), beside `form` and in view.
async function answerBeside(page, form, what) {
  const alert = page.locator('main [role="alert"]');
  await alert.first().waitFor({ timeout: WAIT_MS });
  // A live refresh may be putting a fresh page in place: one answer once it has.
  const one = await page
    .waitForFunction(() => document.querySelectorAll('main [role="alert"]').length === 1, null, { timeout: 3000 })
    .then(() => true, () => false);
  if (!one) throw new Error(`${what}: ${await alert.count()} answers on the page, not one`);
  const beside = await alert.evaluate((el, id) => {
    const f = id && document.getElementById(id);
    return !f || el.previousElementSibling === f || f.contains(el);
  }, await form.getAttribute("id"));
  if (!beside) throw new Error(`${what}: the answer is not beside its form`);
  return inView(page, alert, what);
}

const started = Date.now();
const browser = await chromium.launch({
  executablePath: env("CHROMIUM"),
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
let winner = "";
try {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  context.setDefaultTimeout(WAIT_MS);
  context.on("page", watchPage);
  const judge = await context.newPage();
  const steps = judge.locator("#round-actions");
  const setting = (key) => judge.locator(`#setting-${key}`);

  await step("the head judge logs in", async () => {
    await judge.goto(`${BASE}/login`);
    await judge.getByLabel("Name").fill(JUDGE);
    await judge.getByLabel("PIN").fill(PIN);
    await judge.getByRole("button", { name: "Log in" }).click();
    await judge.waitForURL(`${BASE}/judge`);
  });

  await step("Check-in is switched on, then off, by its switch on the set-up page", async () => {
    await judge.goto(`${BASE}/judge/setup`);
    const form = setting("check-in");
    for (const [choice, words] of [["On", /Check-in: off → on/], ["Off", /Check-in: on → off/]]) {
      await form.getByLabel(choice, { exact: true }).check();
      await form.getByRole("button", { name: "Change" }).click();
      const said = form.locator(".said");
      await said.getByText(words).waitFor();
      await inView(judge, said, `Check-in ${choice}`);
    }
    await fits(judge, "the set-up page");
    await shot(judge, "1-setup-check-in");
  });

  await step("Round length is changed by its number control on the Judges page", async () => {
    await judge.goto(`${BASE}/judge`);
    const form = setting("round-minutes");
    await form.getByLabel("Round length").fill("40");
    await tapAndBack(judge, form.getByRole("button", { name: "Change" }));
    const said = await answerBeside(judge, setting("round-minutes"), "Round length");
    if (!/Round length: 50 minutes → 40 minutes/.test(said)) throw new Error(`the answer does not say the change: ${said}`);
    await fits(judge, "the dashboard's settings");
    await shot(judge, "2-round-length");
  });

  await step("round 1 is paired and started", async () => {
    await tapAndBack(judge, steps.getByRole("button", { name: "Pair the next round" }));
    await inView(judge, judge.locator('main [role="alert"]'), "Pair the next round");
    await tapAndBack(judge, steps.getByRole("button", { name: "Start the round" }));
    await steps.getByText(/Round 1 is being played/).waitFor();
  });

  await step("Decision limit while the round runs: refused beside it, then changed with its box ticked", async () => {
    const form = setting("decision-seconds");
    await form.getByLabel("Decision limit", { exact: true }).fill("40");
    expectedRefusals += 1;
    await form.getByRole("button", { name: "Change" }).click();
    // The refusal comes back as the page (409): until it arrives, the round's Done line is still the one answer.
    await judge.locator('main [role="alert"]').filter({ hasText: /Not done/ }).waitFor();
    const refused = await answerBeside(judge, form, "Decision limit refused");
    if (!refused.includes("“Change it although round 1 is being played”")) throw new Error(`the refusal does not name the box: ${refused}`);
    await shot(judge, "3-limit-refused");
    await form.getByLabel("Change it although round 1 is being played").check();
    await tapAndBack(judge, form.getByRole("button", { name: "Change" }));
    const said = await answerBeside(judge, setting("decision-seconds"), "Decision limit changed");
    if (!/Decision limit: 45 seconds → 40 seconds/.test(said)) throw new Error(`the answer does not say the change: ${said}`);
  });

  await step("a wrong code on /me and on the table's device is answered beside its form, in view", async () => {
    const pairings = JSON.parse(execFileSync(MMJUDGE, ["--json", "pairings"], { encoding: "utf8" }));
    const seatB = pairings.tables.find((t) => t.table === 1).b.name;
    const player = await context.newPage();
    await player.goto(`${BASE}/me?name=${encodeURIComponent(seatB)}`);
    const call = player.locator("form", { has: player.getByRole("button", { name: "Call a judge" }) });
    await call.locator('[name="code"]').fill("000000");
    expectedRefusals += 1;
    await call.getByRole("button", { name: "Call a judge" }).click();
    await inView(player, player.locator('main [role="alert"]').first(), "/me: Call a judge with a wrong code");
    await fits(player, "/me");
    await shot(player, "4a-me-refused");
    await player.goto(`${BASE}/table/1`);
    const b = player.locator('section.player[data-seat="B"]');
    await b.locator('[name="code"]').fill("000000");
    expectedRefusals += 1;
    await b.getByRole("button", { name: "Sign in" }).click();
    await b.locator("p.error").filter({ hasText: /\w/ }).waitFor();
    await inView(player, b.locator("p.error"), "/table/1: seat B signs in with a wrong code");
    await fits(player, "/table/1");
    await shot(player, "4b-table-refused");
    await player.close();
  });

  await step("table 7's players sign in on its device; one reports the result there, the other confirms it there", async () => {
    const pairings = JSON.parse(execFileSync(MMJUDGE, ["--json", "pairings"], { encoding: "utf8" }));
    const codes = JSON.parse(execFileSync(MMJUDGE, ["--json", "player", "codes"], { encoding: "utf8" })).players;
    const t7 = pairings.tables.find((t) => t.table === 7);
    const codeOf = (name) => codes.find((c) => c.name === name).code;
    const device = await context.newPage();
    await device.goto(`${BASE}/table/7`);
    for (const [seat, name] of [["A", t7.a.name], ["B", t7.b.name]]) {
      const sec = device.locator(`section.player[data-seat="${seat}"]`);
      await sec.locator('[name="code"]').fill(codeOf(name));
      await sec.getByRole("button", { name: "Sign in" }).click();
      await sec.locator(".signed").waitFor();
    }
    const report = device.locator("#report");
    await report.locator('[name="winner"]').selectOption(t7.b.name);
    await report.locator('[name="by"]').selectOption("life");
    await report.getByLabel(`${t7.a.name}'s life total`).fill("0");
    await report.getByLabel(`${t7.b.name}'s life total`).fill("7");
    await report.getByRole("button", { name: `Report as ${t7.a.name}` }).click();
    await report.locator("p.answer").filter({ hasText: /^Done/ }).waitFor();
    await inView(device, report.locator("p.answer"), "/table/7: Report as seat A");
    await report.locator("#waiting").filter({ hasText: /reported/ }).waitFor();
    const confirm = report.getByRole("button", { name: `Confirm as ${t7.b.name}` });
    await confirm.waitFor();
    await shot(device, "4c-table-reported");
    await confirm.click();
    await report.locator("#over").filter({ hasText: /Recorded/ }).waitFor();
    await inView(device, report.locator("p.answer"), "/table/7: Confirm as seat B");
    const results = JSON.parse(execFileSync(MMJUDGE, ["--json", "results"], { encoding: "utf8" }));
    const m = results.tables.find((r) => r.table === 7);
    if (!m || m.winner !== t7.b.name) throw new Error(`table 7's result is not recorded for ${t7.b.name}: ${JSON.stringify(m)}`);
    const log = execFileSync(MMJUDGE, ["log"], { encoding: "utf8" });
    if (!log.includes("confirmed on the table's device")) throw new Error("the log does not say the result was confirmed on the table's device");
    await fits(device, "/table/7");
    await shot(device, "4d-table-confirmed");
    await device.close();
  });

  await step("table 8's result is recorded on its page, the round ends, and the dashboard names the winner", async () => {
    const pairings = JSON.parse(execFileSync(MMJUDGE, ["--json", "pairings"], { encoding: "utf8" }));
    for (const t of pairings.tables.filter((t) => t.table !== 8 && t.table !== 7)) {
      execFileSync(MMJUDGE, ["result", String(t.table), t.a.name, "--by", "concession"], { encoding: "utf8" });
    }
    await judge.goto(`${BASE}/judge/table/8`);
    const form = judge.locator("form", { has: judge.getByRole("button", { name: "Record result" }) });
    const seatB = pairings.tables.find((t) => t.table === 8).b.name;
    await form.locator('[name="winner"]').selectOption(seatB);
    await form.locator('[name="by"]').selectOption("concession");
    await tapAndBack(judge, form.getByRole("button", { name: "Record result" }), "/judge/table/8");
    await inView(judge, judge.locator('main [role="alert"]'), "Record result");
    await judge.goto(`${BASE}/judge`);
    await steps.getByText("End the round…").click();
    await tapAndBack(judge, steps.getByRole("button", { name: "Yes, end the round" }));
    await inView(judge, judge.locator('main [role="alert"]'), "End the round");
    const over = judge.locator("#event-end");
    await over.getByText("The event is over").waitFor();
    winner = (await over.locator(".winner").textContent()).trim();
    if (!/wins the event|share first/.test(winner)) throw new Error(`the dashboard names no winner: ${winner}`);
    await steps.getByText(/To play another round, raise Rounds/).waitFor();
    await fits(judge, "the dashboard at the end");
    await shot(judge, "4-dashboard-over");
  });

  await step("the home page, the winner's /me, the projector and the standings print name the winner", async () => {
    const standings = JSON.parse(execFileSync(MMJUDGE, ["--json", "standings"], { encoding: "utf8" }));
    if (standings.final !== true || !standings.winner?.length) throw new Error(`standings --json is not final: ${JSON.stringify(standings).slice(0, 200)}`);
    const first = standings.winner[0];
    const player = await context.newPage();
    await player.goto(`${BASE}/`);
    await player.locator("#event-end").getByText(winner).waitFor();
    await fits(player, "the home page");
    await shot(player, "5-home");
    await player.goto(`${BASE}/me?name=${encodeURIComponent(first)}`);
    await player.locator(".final-place").getByText(/You (won the event|share first place)/).waitFor();
    await fits(player, "the winner's /me");
    await shot(player, "6-me");
    await player.goto(`${BASE}/projector`);
    await player.locator("#label").getByText("The event is over").waitFor();
    const top = await player.locator("#final li").count();
    if (top !== 8) throw new Error(`the projector shows ${top} lines of the final standings, not the top 8`);
    await player.locator("#final").getByText(first).waitFor();
    await shot(player, "7-projector");
    // The standings over rounds (#47): a page of its own, linked from /standings, its chart naming the winner.
    await player.goto(`${BASE}/standings`);
    await Promise.all([player.waitForURL(/\/standings\/rounds/), player.getByRole("link", { name: "Points by round, drawn" }).click()]);
    await chartNamesWinner(player);
    await fits(player, "the points by round");
    await shot(player, "7b-points-by-round");
    await player.close();
    await judge.goto(`${BASE}/judge/print/standings`);
    await judge.getByRole("heading", { name: "Final standings" }).waitFor();
    await judge.getByText(/The event is over/).waitFor();
    await chartNamesWinner(judge);
    await shot(judge, "8-print");
    // Printed to PDF, as a judge prints it: the chart goes with the standings.
    const pdf = await judge.pdf({ format: "A4", printBackground: false });
    if (pdf.length < 10000 || pdf.subarray(0, 5).toString() !== "%PDF-") throw new Error(`the final standings printed to ${pdf.length} bytes, not a PDF`);
    if (SHOTS) writeFileSync(join(SHOTS, "event-end-8-print.pdf"), pdf);
  });

  await step("raising Rounds opens the event again, lowering it back closes it", async () => {
    await judge.goto(`${BASE}/judge`);
    await setting("rounds").getByLabel("Rounds").fill("2");
    await tapAndBack(judge, setting("rounds").getByRole("button", { name: "Change" }));
    await answerBeside(judge, setting("rounds"), "Rounds raised");
    if (await judge.locator("#event-end").count()) throw new Error("the event is still over with 2 rounds planned");
    await steps.getByRole("button", { name: "Pair the next round" }).waitFor();
    await setting("rounds").getByLabel("Rounds").fill("1");
    await tapAndBack(judge, setting("rounds").getByRole("button", { name: "Change" }));
    await answerBeside(judge, setting("rounds"), "Rounds lowered");
    await judge.locator("#event-end").getByText("The event is over").waitFor();
    await shot(judge, "9-over-again");
  });
} catch (e) {
  if (!(e instanceof Stopped)) problem(e.message.split("\n")[0]);
} finally {
  await browser.close();
}
if (expectedRefusals > 0 && !problems.length) problem("the refused setting was not answered 409");
const took = ((Date.now() - started) / 1000).toFixed(1);
if (problems.length) {
  console.error(`check-event-end: ${problems.length} problem(s) in ${took} s`);
  process.exit(1);
}
console.log(`check-event-end: the event runs to its winner from the phone, every answer in view; ${took} s` + (SHOTS ? `; screenshots in ${SHOTS}` : ""));
