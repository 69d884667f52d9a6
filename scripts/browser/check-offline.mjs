// A dropped Wi-Fi loses nothing: drives the table device /table/1 in headless Chromium at phone width (390 px).
//   1. both players sign in with their codes; the phone goes offline (the browser's offline mode); player A
//      declares two cards and starts their decision; the page says "3 waiting to send" and "offline since";
//      back online, the page sends them in order: each is recorded once, at the moment it was made (not when it
//      arrived), and the page shows nothing waiting;
//      while offline each shows at once: the cards in the sheet and the decision on the clock, marked "not sent
//      yet", a mark that goes once they are sent; the sign-ins are kept across a reload, and the device's storage
//      holds no code;
//   2. the same with the server stopped: two more cards and the decision stopped, the page reloaded while the
//      server is down (only the browser's storage keeps the queue), the server started again on the same
//      address and the page opened again: each recorded once at its moment;
//   2b. the honest offline replay keeps its moment: the network cut BEFORE the decision's start, start tapped,
//      some seconds, stop tapped, the network back: the page showed both taps at once while offline, and the
//      server records the decision at the moments tapped (its length as tapped, not as the taps arrived);
//   3. a page's form (/me, "Call a judge") sent offline waits on the page and is recorded once back online;
//   4. a judge's ruling sent offline from the judges' table page, whose login ends meanwhile (a new PIN): back
//      online the page sends the judge to log in, the queue kept; logged in again, the ruling is recorded once.
// Any page error or a write recorded twice, lost or at its arrival fails the check (exit 1).
//
// Run by scripts/check-offline.sh, which builds the event. Environment:
//   BIN       the mmjudge binary (MMJUDGE_DB names the event)
//   WORK      a folder for the server's output
//   JUDGE     a head judge's name, PIN its PIN
//   CODES     a file holding `mmjudge --json player codes`
//   CHROMIUM  the browser to drive
//   SHOTS     a folder for phone-width screenshots (optional)
import { chromium } from "playwright-core";
import { readFileSync, mkdirSync, openSync } from "node:fs";
import { join } from "node:path";
import { spawn, execFileSync } from "node:child_process";

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`check-offline.mjs: ${name} is not set (run scripts/check-offline.sh)`);
  return v;
};
const BIN = env("BIN");
const JUDGE = env("JUDGE");
let PIN = env("PIN");
const WORK = env("WORK");
const CODES = JSON.parse(readFileSync(env("CODES"), "utf8")).players;
const SHOTS = process.env.SHOTS || "";
const WAIT_MS = 15000; // what waits must be sent within this once the network is back
const OFFLINE_MS = 3000; // how long the phone stays offline after its last write: its moments lie that far back
const MOMENT_SLACK_MS = 1000; // a moment recorded within this of when the tap was made is the tap's
const DECIDE_MS = 5000; // how long the decision taken offline lasts
const HONEST_TAPS_MS = 1000; // the honest offline replay: its start and stop are tapped this far apart
const HONEST_OFFLINE_MS = 6000; // and the network stays cut this long from the start
// Its decision is recorded this close to the time between the taps: each moment is the page's clock when the tap
// reached its script, later under load (a stop 270 ms after its tap, its start 71 ms, seen beside a test run); far
// from the 5 s an arrival's moment would add.
const HONEST_SLACK_MS = 500;

const problems = [];
const problem = (text) => {
  problems.push(text);
  console.error(`check-offline: ${text}`);
};
const codeOf = (name) => {
  const p = CODES.find((c) => c.name === name);
  if (!p) throw new Error(`no code for ${name} in the codes file`);
  return p.code;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const cli = (...args) => JSON.parse(execFileSync(BIN, ["--json", ...args], { encoding: "utf8" }));

// The server: started on `bind` (127.0.0.1:0 the first time, then the same address again).
let server = null;
let starts = 0;
async function startServer(bind) {
  starts += 1;
  const out = join(WORK, `serve-${starts}.out`);
  const fd = openSync(out, "w");
  const err = openSync(join(WORK, `serve-${starts}.err`), "w");
  server = spawn(BIN, ["--json", "serve", "--bind", bind], { stdio: ["ignore", fd, err] });
  for (let i = 0; i < 100; i++) {
    try {
      const first = readFileSync(out, "utf8").split("\n")[0];
      if (first) return JSON.parse(first).urls[0].replace(/\/$/, "");
    } catch (e) {}
    if (server.exitCode !== null) throw new Error(`the server did not start: ${readFileSync(join(WORK, `serve-${starts}.err`), "utf8")}`);
    await sleep(100);
  }
  throw new Error("the server printed no address within 10 s");
}
async function stopServer() {
  // A server stopped already (by a signal its exitCode stays null) has nothing left to wait for: waiting for its
  // exit would leave the script with nothing to do, and node would end it with status 0, its problems unsaid.
  if (!server || server.exitCode !== null || server.signalCode !== null) return;
  const done = new Promise((r) => server.once("exit", r));
  server.kill("SIGTERM");
  await done;
}

async function shot(page, name) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `offline-${name}.png`), fullPage: true });
}

// The table's device, once open: a step that fails leaves a picture of it (failed-N.png, with SHOTS).
let device = null, failures = 0;
async function step(name, f) {
  console.log(`check-offline: ${name}`);
  try {
    await f();
  } catch (e) {
    problem(`${name}: ${e.message.split("\n")[0]}`);
    if (device) await shot(device, `failed-${++failures}`).catch(() => {});
  }
}

// The notes of table 1, and the audit's entries of a route (each names the moment made and the arrival).
const notes = () => cli("notes", "1").notes || [];
const audited = (route) => (cli("log").entries || []).filter((e) => (e.command || "").startsWith(`POST ${route} `));

// One action on the page: its moment (this machine's clock, as the page's own) noted just before the tap.
async function act(page, f) {
  const at = Date.now();
  await f();
  return at;
}

function recordedOnceAt(card, madeAt) {
  const found = notes().filter((n) => n.card === card && !n.voided);
  if (found.length !== 1) {
    problem(`${card}: recorded ${found.length} times, not once`);
    return;
  }
  const off = Date.parse(found[0].at) - madeAt;
  console.log(`check-offline:      ${card} recorded at ${found[0].at} (${off} ms from the tap)`);
  if (Math.abs(off) > MOMENT_SLACK_MS) problem(`${card}: recorded ${off} ms from the moment it was declared, not at it`);
}

function tappedOnceAt(route, madeAt) {
  const found = audited(route);
  if (found.length !== 1) {
    problem(`${route}: recorded ${found.length} times, not once`);
    return;
  }
  const off = Date.parse(found[0].at) - madeAt;
  console.log(`check-offline:      ${route} recorded at ${found[0].at} (${off} ms from the tap): ${found[0].command}`);
  if (Math.abs(off) > MOMENT_SLACK_MS) problem(`${route}: recorded ${off} ms from the tap, not at it`);
  if (!found[0].command.includes("made at")) problem(`${route}: the audit does not name the moment made`);
}

async function waitDrained(page) {
  await page.waitForFunction(() => document.body.getAttribute("data-waiting") === "0", null, { timeout: WAIT_MS });
}

async function main() {
  let base = await startServer("127.0.0.1:0");
  const bind = base.replace(/^http:\/\//, "");
  const browser = await chromium.launch({ executablePath: env("CHROMIUM"), args: ["--no-sandbox"] });
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  device = page;
  page.on("pageerror", (e) => problem(`page error: ${e.message}`));

  await page.goto(`${base}/table/1`);
  await page.getByRole("heading", { name: /Table 1/ }).waitFor();
  const names = await page.locator("section.player").evaluateAll((ss) => ss.map((s) => s.getAttribute("data-name")));
  const [a, b] = names;
  const side = (name) => page.locator(`section.player[data-name="${name}"]`);
  await step("both players sign in with their codes", async () => {
    for (const who of [a, b]) {
      await side(who).getByLabel(`${who}'s code`).fill(codeOf(who));
      await side(who).getByRole("button", { name: "Sign in" }).click();
      await side(who).getByRole("button", { name: "Declare" }).waitFor();
    }
  });
  await step("the sign-ins are kept: reloaded, the device acts without a code typed, and keeps no code", async () => {
    await page.reload();
    for (const who of [a, b]) await side(who).getByRole("button", { name: "Declare" }).waitFor({ timeout: 5000 });
    const kept = await page.evaluate(() => Object.keys(localStorage).map((k) => localStorage.getItem(k)).join("\n"));
    for (const who of [a, b]) {
      if (kept.includes(`"${codeOf(who)}"`)) problem(`the device keeps ${who}'s code in its storage`);
    }
    if (!/"signin"/.test(kept)) problem("the device keeps no sign-in");
  });
  // What the page shows of what waits: the cards marked in the sheet, the clock's mark.
  const unsentCards = () => page.locator(".sheet li.waiting").allTextContents();
  const clockMark = async () => ((await page.locator("#dunsent").isVisible()) ? (await page.locator("#dunsent").textContent()) || "" : "");
  const who = async () => (await page.locator("#dwho").textContent()) || "";
  const declare = (cost, card) =>
    act(page, async () => {
      await side(a).getByLabel("printed cost").fill(cost);
      await side(a).getByLabel("card name").fill(card);
      await side(a).getByRole("button", { name: "Declare" }).click();
    });
  const tap = (name) => act(page, () => side(a).locator(`[data-tap="${name}"]`).click());
  const waiting = async (n) => {
    await page.getByText(`${n} waiting to send`).waitFor({ timeout: 5000 });
    await page.getByText(/offline since \d\d:\d\d: showing what was known then/).waitFor({ timeout: 5000 });
  };

  await step("offline: two cards declared and the decision started wait on the page, then are recorded once at their moments", async () => {
    await context.setOffline(true);
    const first = await declare("B1", "Demonic Tutor");
    await waiting(1);
    const second = await declare("R", "Burst Lightning");
    const started = await tap("start");
    await waiting(3);
    const cards = (await unsentCards()).join(" | ");
    if (!/Demonic Tutor.*not sent yet/.test(cards) || !/Burst Lightning.*not sent yet/.test(cards)) {
      problem(`the cards declared offline are not shown marked as not sent yet: ${cards}`);
    }
    if ((await who()) !== `${a} is deciding`) problem(`the clock does not show the decision started offline: ${await who()}`);
    if (!/not sent yet/.test(await clockMark())) problem(`the clock is not marked as not sent yet: ${await clockMark()}`);
    await shot(page, "waiting");
    await sleep(OFFLINE_MS);
    if (notes().some((n) => n.card === "Demonic Tutor")) problem("a declaration made offline was recorded while offline");
    await context.setOffline(false);
    await waitDrained(page);
    recordedOnceAt("Demonic Tutor", first);
    recordedOnceAt("Burst Lightning", second);
    tappedOnceAt("/api/clock/start", started);
    const status = await page.locator("#queue-status").isVisible();
    if (status) problem(`the page still says: ${await page.locator("#queue-status").textContent()}`);
    await page.waitForFunction(() => !document.querySelector(".sheet li.waiting") && document.getElementById("dunsent").hidden, null, { timeout: 5000 })
      .catch(() => problem("the marks of what was not sent stay once it is sent"));
  });

  await step("the server stopped: two cards and the decision stopped wait across a reload, then are recorded once at their moments", async () => {
    await stopServer();
    const first = await declare("G1", "Explore");
    await waiting(1);
    const second = await declare("G", "Giant Growth");
    const stopped = await tap("stop");
    await waiting(3);
    // The page reloaded while the server is down (the browser shows its own error): only the browser's storage
    // holds what waits. The server back on the same address, the device's page opened again sends it.
    await page.reload().catch(() => {});
    await sleep(OFFLINE_MS);
    base = await startServer(bind);
    await page.goto(`${base}/table/1`);
    await page.getByRole("heading", { name: /Table 1/ }).waitFor();
    await waitDrained(page);
    recordedOnceAt("Explore", first);
    recordedOnceAt("Giant Growth", second);
    tappedOnceAt("/api/clock/stop", stopped);
    await shot(page, "sent");
  });

  await step("the honest offline replay keeps its moment: network cut for 6 s, start and stop tapped 1 s apart", async () => {
    await context.setOffline(true);
    const started = await tap("start");
    await page.waitForFunction((n) => document.getElementById("dwho").textContent === `${n} is deciding`, a, { timeout: 2000 })
      .catch(() => problem(`the start tapped offline does not show at once`));
    if (!/not sent yet/.test(await clockMark())) problem(`the start is not marked as not sent yet: ${await clockMark()}`);
    const left = (await page.locator("#dleft").textContent()) || "";
    if (!/^\+?\d+$/.test(left)) problem(`the decision started offline does not count: ${left}`);
    await shot(page, "offline-start");
    await sleep(Math.max(0, started + HONEST_TAPS_MS - Date.now()));
    const stopped = await tap("stop");
    await page.waitForFunction(() => document.getElementById("dwho").textContent === "No decision running", null, { timeout: 2000 })
      .catch(() => problem("the stop tapped offline does not show at once"));
    if (!/not sent yet/.test(await clockMark())) problem(`the stop is not marked as not sent yet: ${await clockMark()}`);
    await shot(page, "offline-stop");
    await sleep(Math.max(0, started + HONEST_OFFLINE_MS - Date.now()));
    if (audited("/api/clock/start").length !== 1) problem("a start tapped offline was recorded while offline");
    await context.setOffline(false);
    await waitDrained(page);
    const starts = audited("/api/clock/start"), stops = audited("/api/clock/stop");
    const s = starts[starts.length - 1], e = stops[stops.length - 1];
    if (starts.length !== 2 || stops.length !== 2) problem(`recorded ${starts.length} starts and ${stops.length} stops, not 2 and 2`);
    if (!/queued unreachable/.test(s.command)) problem(`the start was not replayed as unreachable: ${s.command}`);
    const recorded = Date.parse(e.at) - Date.parse(s.at), tapped = stopped - started;
    console.log(`check-offline:      decision recorded ${recorded} ms, tapped ${tapped} ms; start ${s.at} (${Date.parse(s.at) - started} ms from the tap), stop ${e.at} (${Date.parse(e.at) - stopped} ms from the tap)`);
    if (Math.abs(Date.parse(s.at) - started) > MOMENT_SLACK_MS) problem(`the start recorded ${Date.parse(s.at) - started} ms from its tap`);
    if (Math.abs(Date.parse(e.at) - stopped) > MOMENT_SLACK_MS) problem(`the stop recorded ${Date.parse(e.at) - stopped} ms from its tap`);
    // The decision's recorded length (duration_ms) is its stop's moment less its start's, as the audit has them.
    console.log(`check-offline:      duration_ms ${recorded} (taps ${HONEST_TAPS_MS} ms apart, offline ${HONEST_OFFLINE_MS} ms)`);
    if (Math.abs(recorded - tapped) > HONEST_SLACK_MS) problem(`the decision recorded ${recorded} ms long, tapped ${tapped} ms apart`);
    await page.waitForFunction(() => document.getElementById("dunsent").hidden, null, { timeout: 5000 })
      .catch(() => problem("the clock's mark stays once the taps are sent"));
    await shot(page, "offline-replayed");
  });

  await step("a card refused when it is sent at last says so beside it in the sheet", async () => {
    await context.setOffline(true);
    await declare("B2", "Demonic Tutor");
    await waiting(1);
    await context.setOffline(false);
    await waitDrained(page);
    const li = page.locator(".sheet li.refused", { hasText: "Demonic Tutor" });
    await li.waitFor({ timeout: 5000 });
    const text = (await li.textContent()) || "";
    if (!/Not done: /.test(text)) problem(`the refused card says: ${text}`);
    console.log(`check-offline:      ${text}`);
    await shot(page, "refused");
  });

  await step("a form on /me: a judge called offline is called once when the network is back", async () => {
    const me = await context.newPage();
    me.on("pageerror", (e) => problem(`page error on /me: ${e.message}`));
    await me.goto(`${base}/me?name=${encodeURIComponent(b)}`);
    const form = me.locator("form", { has: me.getByRole("button", { name: "Call a judge" }) });
    await form.getByPlaceholder("your code").fill(codeOf(b));
    await context.setOffline(true);
    await form.getByRole("button", { name: "Call a judge" }).click();
    await me.getByText("1 waiting to send").waitFor({ timeout: 5000 });
    if ((cli("call", "list").calls || []).length) problem("a call made offline was recorded while offline");
    await context.setOffline(false);
    await me.getByText("A judge is called to your table").waitFor({ timeout: WAIT_MS });
    const calls = (cli("call", "list").calls || []).filter((c) => c.table === 1);
    if (calls.length !== 1) problem(`the call: ${calls.length} recorded at table 1, not one`);
    await shot(me, "me-called");
  });

  await step("a judge's ruling sent offline, the login ended meanwhile: sent to log in, then recorded once", async () => {
    const judgePhone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const judge = await judgePhone.newPage();
    judge.on("pageerror", (e) => problem(`page error on the judges' page: ${e.message}`));
    const login = async () => {
      await judge.getByLabel("Name").fill(JUDGE);
      await judge.getByLabel("PIN").fill(PIN);
      await judge.getByRole("button", { name: "Log in" }).click();
      await judge.waitForURL(`${base}/judge`);
    };
    await judge.goto(`${base}/login`);
    await login();
    await judge.goto(`${base}/judge/table/1`);
    const form = judge.locator("form", { has: judge.getByRole("button", { name: "Record ruling" }) });
    await form.getByPlaceholder("the ruling").fill("Kept through a dropped Wi-Fi");
    await judgePhone.setOffline(true);
    // The cut holds before the tap: a request from the page fails. (Once, on a loaded machine, the ruling reached
    // the server as the cut began, its answer lost, and was recorded before the login ended.)
    await judge.waitForFunction(() => fetch("/api/time", { cache: "no-store" }).then(() => false, () => true), null, { timeout: 5000, polling: 100 });
    await form.getByRole("button", { name: "Record ruling" }).click();
    await judge.getByText("1 waiting to send").waitFor({ timeout: 5000 });
    PIN = cli("judge", "pin", JUDGE).pin; // the judge's logins end
    await judgePhone.setOffline(false);
    await judge.waitForURL(`${base}/login`, { timeout: WAIT_MS });
    const ruled = () => (cli("rulings").rulings || []).filter((r) => r.text === "Kept through a dropped Wi-Fi");
    if (ruled().length) problem("a ruling sent with an ended login was recorded");
    await login();
    await judge.goto(`${base}/judge/table/1`);
    await judge.waitForFunction(() => document.body.getAttribute("data-waiting") === "0", null, { timeout: WAIT_MS });
    await sleep(500);
    if (ruled().length !== 1) problem(`the ruling: recorded ${ruled().length} times, not once`);
    await judgePhone.close();
  });

  await step("a head judge renews a code in one tap: shown once; the device signed in with the old one asks for the new one", async () => {
    const judgePhone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    const judge = await judgePhone.newPage();
    judge.on("pageerror", (e) => problem(`page error on the judges' page: ${e.message}`));
    await judge.goto(`${base}/login`);
    await judge.getByLabel("Name").fill(JUDGE);
    await judge.getByLabel("PIN").fill(PIN);
    await judge.getByRole("button", { name: "Log in" }).click();
    await judge.waitForURL(`${base}/judge`);
    await judge.goto(`${base}/judge/table/1`);
    await judge.getByRole("button", { name: `New code for ${b}` }).click();
    const answer = judge.locator("p.answer.shown");
    await answer.waitFor({ timeout: 5000 });
    const code = ((await answer.locator(".secret").textContent()) || "").trim();
    if (!/^\d{6}$/.test(code) || code === codeOf(b)) problem(`the new code shown: "${code}"`);
    if (cli("player", "code", b).code !== code) problem("the code shown is not the player's code now");
    await shot(judge, "judge-new-code");
    await judgePhone.close();
    // The table's device, signed in with the old code: the sign-in is offered again, saying why.
    await page.reload();
    await side(b).getByLabel(`${b}'s code`).waitFor({ timeout: 5000 });
    const said = (await side(b).locator(".error").textContent()) || "";
    if (!/new code/.test(said)) problem(`the device says, signed out by the new code: ${said}`);
    await side(b).getByLabel(`${b}'s code`).fill(codeOf(b));
    await side(b).getByRole("button", { name: "Sign in" }).click();
    await side(b).locator(".error", { hasText: `that code is not ${b}'s` }).waitFor({ timeout: 5000 })
      .catch(() => problem("the old code signs in"));
    await shot(page, "old-code-refused");
    await side(b).getByLabel(`${b}'s code`).fill(code);
    await side(b).getByRole("button", { name: "Sign in" }).click();
    await side(b).getByRole("button", { name: "Declare" }).waitFor({ timeout: 5000 });
    await side(a).getByRole("button", { name: "Declare" }).waitFor({ timeout: 1000 });
  });

  await browser.close();
  await stopServer();
  if (problems.length) {
    console.error(`check-offline: ${problems.length} problem(s)`);
    process.exit(1);
  }
  finished = true;
}

// Whatever ends the script early (a promise nothing will settle) is a failure, never a pass.
let finished = false;
process.on("beforeExit", () => {
  if (finished) return;
  console.error(`check-offline: ended before its last check (${problems.length} problem(s) so far)`);
  process.exit(1);
});

main().catch(async (e) => {
  console.error(`check-offline: ${e.stack || e}`);
  await stopServer();
  process.exit(1);
});
