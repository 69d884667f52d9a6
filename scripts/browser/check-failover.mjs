// Phones follow the event to the second laptop: drives headless Chromium at phone width (390 px).
//   1. the primary and its standby (`serve --standby-of`) run on loopback; the primary's pages name the standby
//      (the meta, connect-src); the table device /table/1, both players signed in, declares a card that reaches
//      the standby; a player's page /me is open too;
//   2. the primary is killed (kill -9); the device declares a card, a player calls a judge on /me and a judge
//      records a ruling on the judges' table page: each waits on its page, which says the first laptop is not
//      answering while the standby answers as the standby;
//   3. `mmjudge standby promote` on the standby's file: the players' pages replay what waits there and open
//      themselves there; the card and the call are recorded once on the standby (`mmjudge --db STANDBY.db`), the
//      card at the moment it was made; the judge's page stays, its ruling kept on the phone and not recorded,
//      and says the judges log in again at the second laptop's address.
// Any page error, a Content-Security-Policy refusal, or a write lost or recorded twice fails the check (exit 1).
//
// Run by scripts/check-failover.sh, which builds the event (MMJUDGE_DB) and makes the standby key. Environment:
//   BIN       the mmjudge binary
//   WORK      a folder for the servers' output and the standby's file
//   KEY       the standby key
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
  if (!v) throw new Error(`check-failover.mjs: ${name} is not set (run scripts/check-failover.sh)`);
  return v;
};
const BIN = env("BIN");
const WORK = env("WORK");
const KEY = env("KEY");
const PRIMARY_DB = env("MMJUDGE_DB");
const STANDBY_DB = join(WORK, "standby.db");
const CODES = JSON.parse(readFileSync(env("CODES"), "utf8")).players;
const SHOTS = process.env.SHOTS || "";
const TIMEOUT_MS = Number(env("MMJUDGE_PRIMARY_TIMEOUT_MS"));
const WAIT_MS = 20000;
const MOMENT_SLACK_MS = 5;

const problems = [];
const problem = (text) => {
  problems.push(text);
  console.error(`check-failover: ${text}`);
};
const codeOf = (name) => {
  const p = CODES.find((c) => c.name === name);
  if (!p) throw new Error(`no code for ${name} in the codes file`);
  return p.code;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const cli = (db, ...args) => JSON.parse(execFileSync(BIN, ["--json", "--db", db, ...args], { encoding: "utf8" }));

const servers = [];
async function start(name, args) {
  const out = join(WORK, `${name}.out`);
  const errFile = join(WORK, `${name}.err`);
  const proc = spawn(BIN, ["--json", ...args], { stdio: ["ignore", openSync(out, "w"), openSync(errFile, "w")] });
  servers.push(proc);
  for (let i = 0; i < 300; i++) {
    try {
      const first = readFileSync(out, "utf8").split("\n")[0];
      if (first) return { proc, base: JSON.parse(first).urls[0].replace(/\/$/, "") };
    } catch (e) {}
    if (proc.exitCode !== null) throw new Error(`${name} did not start: ${readFileSync(errFile, "utf8")}`);
    await sleep(100);
  }
  throw new Error(`${name} printed no address within 30 s`);
}
function stopAll() {
  for (const p of servers) if (p.exitCode === null && p.signalCode === null) p.kill("SIGTERM");
}

async function shot(page, name) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `failover-${name}.png`), fullPage: true });
}

async function step(name, f) {
  console.log(`check-failover: ${name}`);
  try {
    await f();
  } catch (e) {
    problem(`${name}: ${e.message.split("\n")[0]}`);
  }
}

async function until(what, f, ms = WAIT_MS) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(100);
  }
}

const notesOn = (db, card) => (cli(db, "notes", "1").notes || []).filter((n) => n.card === card && !n.voided);

async function main() {
  const primary = await start("primary", ["--db", PRIMARY_DB, "serve", "--bind", "127.0.0.1:0"]);
  const standby = await start("standby", ["--db", STANDBY_DB, "serve", "--bind", "127.0.0.1:0", "--standby-of", primary.base, "--key", KEY]);
  console.log(`check-failover: primary ${primary.base}, standby ${standby.base}`);

  await step("the primary's pages name the standby", async () => {
    const page = await until("the meta on the primary's page", async () => {
      const r = await fetch(`${primary.base}/table/1`);
      const text = await r.text();
      return text.includes('name="mmjudge-standby"') ? { r, text } : null;
    });
    if (!page.text.includes(`content="${standby.base}"`)) problem(`the meta does not name ${standby.base}`);
    if (!page.text.includes(`data-timeout-ms="${TIMEOUT_MS}"`)) problem("the meta does not carry MMJUDGE_PRIMARY_TIMEOUT_MS");
    const csp = page.r.headers.get("content-security-policy") || "";
    if (!csp.includes(`connect-src 'self' ${standby.base}`)) problem(`the CSP does not let pages reach the standby: ${csp}`);
  });

  const browser = await chromium.launch({ executablePath: env("CHROMIUM"), args: ["--no-sandbox"] });
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const watch = (page, label) => {
    page.on("pageerror", (e) => problem(`page error on ${label}: ${e.message}`));
    page.on("console", (m) => {
      if (/Content Security Policy|CORS/i.test(m.text())) problem(`${label}: ${m.text()}`);
    });
  };
  const device = await context.newPage();
  watch(device, "the device");
  await device.goto(`${primary.base}/table/1`);
  await device.getByRole("heading", { name: /Table 1/ }).waitFor();
  const [a, b] = await device.locator("section.player").evaluateAll((ss) => ss.map((s) => s.getAttribute("data-name")));
  const side = (name) => device.locator(`section.player[data-name="${name}"]`);
  const declare = async (cost, card) => {
    await side(a).getByLabel("printed cost").fill(cost);
    await side(a).getByLabel("card name").fill(card);
    const at = Date.now();
    await side(a).getByRole("button", { name: "Declare" }).click();
    return at;
  };

  await step("both players sign in; a card declared on the primary reaches the standby", async () => {
    for (const who of [a, b]) {
      await side(who).getByLabel(`${who}'s code`).fill(codeOf(who));
      await side(who).getByRole("button", { name: "Sign in" }).click();
      await side(who).getByRole("button", { name: "Declare" }).waitFor();
    }
    await declare("B1", "Demonic Tutor");
    await until("Demonic Tutor on the standby", () => notesOn(STANDBY_DB, "Demonic Tutor").length === 1);
  });

  // A player of table 2 on /me (a record at table 1 replayed before the card would move the card's moment to
  // its arrival: the server never records a moment before the table's last record).
  const table2 = await (await fetch(`${primary.base}/table/2`)).text();
  const caller = (table2.match(/data-name="([^"]+)"/) || [])[1];
  if (!caller) throw new Error("no player at table 2");
  const me = await context.newPage();
  watch(me, "/me");
  const mePath = `/me?name=${encodeURIComponent(caller.replace(/&#x27;|&#39;/g, "'"))}`;
  await me.goto(`${primary.base}${mePath}`);
  const callForm = me.locator("form", { has: me.getByRole("button", { name: "Call a judge" }) });
  await callForm.getByPlaceholder("your code").fill(codeOf(caller));

  const judgePhone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const judge = await judgePhone.newPage();
  watch(judge, "the judges' table page");
  await judge.goto(`${primary.base}/login`);
  await judge.getByLabel("Name").fill(env("JUDGE"));
  await judge.getByLabel("PIN").fill(env("PIN"));
  await judge.getByRole("button", { name: "Log in" }).click();
  await judge.waitForURL(`${primary.base}/judge`);
  await judge.goto(`${primary.base}/judge/table/1`);
  const rulingForm = judge.locator("form", { has: judge.getByRole("button", { name: "Record ruling" }) });
  await rulingForm.getByPlaceholder("the ruling").fill("Kept on the judge's phone");

  // A second hall: a device opened on the standby itself signs its players in (a code checked, nothing written)
  // and keeps a card declared there, saying why, until the standby is promoted.
  const hall = await context.newPage();
  watch(hall, "the second hall's device");
  const notesAt = (db, table, card) => (cli(db, "notes", String(table)).notes || []).filter((n) => n.card === card && !n.voided);
  await step("a second hall: the standby's own device signs a player in and keeps a card declared there", async () => {
    await hall.goto(`${standby.base}/table/3`);
    await hall.getByRole("heading", { name: /Table 3/ }).waitFor();
    const notice = (await hall.locator(".laptop-notice").textContent()) || "";
    if (!/second laptop/.test(notice) || !/records nothing/.test(notice)) problem(`the standby's device says: ${notice}`);
    const [c] = await hall.locator("section.player").evaluateAll((ss) => ss.map((s) => s.getAttribute("data-name")));
    const hs = hall.locator(`section.player[data-name="${c}"]`);
    await hs.getByLabel(`${c}'s code`).fill(codeOf(c));
    await hs.getByRole("button", { name: "Sign in" }).click();
    await hs.getByRole("button", { name: "Declare" }).waitFor();
    await hs.getByLabel("printed cost").fill("UU");
    await hs.getByLabel("card name").fill("Counterspell");
    await hs.getByRole("button", { name: "Declare" }).click();
    await hall.getByText("1 waiting to send").waitFor({ timeout: 5000 });
    const said = (await hall.locator("#queue-status").textContent()) || "";
    if (!/second laptop/.test(said) || /offline/.test(said)) problem(`the second hall's device says: ${said}`);
    await sleep(500);
    if (notesAt(STANDBY_DB, 3, "Counterspell").length || notesAt(PRIMARY_DB, 3, "Counterspell").length) {
      problem("a card declared on the standby was recorded before it was promoted");
    }
  });

  let declared = 0;
  let killedAt = 0;
  let made = 0;
  await step("the primary killed: a card and a judge's call (table 2) wait on the pages, which say the first laptop is not answering", async () => {
    killedAt = Date.now();
    primary.proc.kill("SIGKILL");
    await new Promise((r) => (primary.proc.exitCode !== null || primary.proc.signalCode !== null ? r() : primary.proc.once("exit", r)));
    declared = await declare("R", "Burst Lightning");
    await device.getByText("1 waiting to send").waitFor({ timeout: 5000 });
    // The moment the page gave the card (the server's clock as the page counts it): the one it must be recorded at.
    made = await device.evaluate(() => {
      const key = Object.keys(localStorage).find((k) => k.startsWith("mmjudge-queue-table-"));
      const item = JSON.parse(localStorage.getItem(key) || "{}").items[0];
      return item ? item.at : 0;
    });
    await callForm.getByRole("button", { name: "Call a judge" }).click();
    await me.getByText("1 waiting to send").waitFor({ timeout: 5000 });
    await rulingForm.getByRole("button", { name: "Record ruling" }).click();
    await judge.getByText("1 waiting to send").waitFor({ timeout: 5000 });
    for (const [page, label] of [[device, "the device"], [me, "/me"], [judge, "the judges' table page"]]) {
      await page.waitForFunction(() => document.body.getAttribute("data-failover") === "standby", null, { timeout: TIMEOUT_MS + 8000 });
      const said = await page.locator("#failover-status").textContent();
      if (!/first laptop is not answering/.test(said) || !/kept on this phone/.test(said)) problem(`${label} says: ${said}`);
    }
    console.log(`check-failover:      every page says so ${Date.now() - killedAt} ms after the kill (timeout ${TIMEOUT_MS} ms)`);
    await shot(device, "standby");
    if (notesOn(STANDBY_DB, "Burst Lightning").length) problem("a card was recorded on the standby before it was promoted");
  });

  await step("the standby promoted: the pages replay what waits there, once, and move there", async () => {
    const promotedAt = Date.now();
    const promoted = cli(STANDBY_DB, "standby", "promote");
    console.log(`check-failover:      promoted: generation ${promoted.generation}`);
    await device.waitForURL((u) => u.href.startsWith(`${standby.base}/table/1`), { timeout: WAIT_MS });
    await me.waitForURL((u) => u.href.startsWith(`${standby.base}${mePath}`), { timeout: WAIT_MS });
    await device.getByRole("heading", { name: /Table 1/ }).waitFor();
    console.log(`check-failover:      both players' pages open on the second laptop ${Date.now() - promotedAt} ms after the promotion began`);
    // The table's sign-ins came along: both players can declare at once.
    await side(a).getByRole("button", { name: "Declare" }).waitFor({ timeout: 5000 });
    await side(b).getByRole("button", { name: "Declare" }).waitFor({ timeout: 5000 });
    if (new URL(device.url()).hash) problem(`the device's address keeps its fragment: ${device.url()}`);
    await me.getByText("A judge is called to your table").waitFor({ timeout: WAIT_MS });
    await shot(device, "moved");
    await sleep(1000);
    const cards = notesOn(STANDBY_DB, "Burst Lightning");
    if (cards.length !== 1) problem(`Burst Lightning: recorded ${cards.length} times on the standby, not once`);
    else {
      const off = Date.parse(cards[0].at) - made;
      const tap = Date.parse(cards[0].at) - declared;
      console.log(`check-failover:      Burst Lightning recorded at ${cards[0].at} (${off} ms from the moment the page gave it, ${tap} ms from the tap)`);
      const entry = (cli(STANDBY_DB, "log").entries || []).find((e) => (e.command || "").includes("Burst Lightning"));
      const stamp = new Date(made).toISOString();
      if (!entry || !entry.command.includes(`made at ${stamp}`)) problem(`Burst Lightning: the audit does not name the moment made (${stamp}): ${entry && entry.command}`);
      if (Math.abs(off) > MOMENT_SLACK_MS) problem(`Burst Lightning: recorded ${off} ms from the moment it was declared, not at it`);
    }
    if (notesOn(STANDBY_DB, "Demonic Tutor").length !== 1) problem("Demonic Tutor is not on the standby once");
    await judge.waitForFunction(() => document.body.getAttribute("data-failover") === "login", null, { timeout: WAIT_MS });
    const said = await judge.locator("#failover-status").textContent();
    if (!said.includes("judges log in again") || !said.includes(`${standby.base}/login`)) problem(`the judges' page says: ${said}`);
    if (!judge.url().startsWith(primary.base)) problem(`the judges' page moved with a ruling waiting: ${judge.url()}`);
    if (await judge.evaluate(() => document.body.getAttribute("data-waiting")) !== "1") problem("the judge's ruling is no longer kept on the phone");
    const ruled = (cli(STANDBY_DB, "rulings").rulings || []).filter((r) => r.text === "Kept on the judge's phone");
    if (ruled.length) problem("a judge's ruling was sent to the second laptop without a login there");
    await shot(judge, "judge");
    const calls = (cli(STANDBY_DB, "call", "list").calls || []).filter((c) => c.table === 2);
    if (calls.length !== 1) problem(`the call: ${calls.length} recorded at table 2 on the standby, not one`);
    // The second hall's device sends what it kept once the laptop it is on takes writes.
    await until("the second hall's Counterspell on the promoted standby", () => notesAt(STANDBY_DB, 3, "Counterspell").length >= 1);
    await sleep(1000);
    const kept = notesAt(STANDBY_DB, 3, "Counterspell").length;
    if (kept !== 1) problem(`the second hall's Counterspell: recorded ${kept} times, not once`);
  });

  await browser.close();
  stopAll();
  if (problems.length) {
    console.error(`check-failover: ${problems.length} problem(s)`);
    process.exit(1);
  }
}

main().catch((e) => {
  console.error(`check-failover: ${e.stack || e}`);
  stopAll();
  process.exit(1);
});
