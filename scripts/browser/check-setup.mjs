// Sets an event up from nothing at phone width (390 px), as a head judge would with no command line:
//   1. a wrong set-up link is refused beside the form; the one-time /setup link (from `mmjudge serve --new`)
//      creates the event and its head judge, whose PIN is shown once, and leads to the set-up page /judge/setup;
//   2. there, in order, with a newcomer's mistakes answered beside their forms in the page's words: an empty
//      file, the pool before the card reference, the card reference (the page reloaded while its job runs: the
//      job is followed again), the players' file as the pool, the pool, the pool's file as the players, the
//      players (its first answer lost: tapped again, the same key answers the first job, imported once), libraries
//      for too few tables (the step stays undone and pairing waits for it), the libraries for
//      the 8 tables offered, a floor judge (their PIN shown once, named) added twice, and round 1 is paired,
//      which leads to the judges' dashboard with its 8 tables; Back from there finds round 1 paired.
// Every write the page sends carries its key (Idempotency-Key). Any page error, console error, failed request or
// unexpected refusal fails the check (exit 1).
//
// Run by scripts/check-setup.sh, which starts the server. Environment:
//   LINK      the set-up link the server printed
//   EXAMPLES  the repository's examples folder
//   CHROMIUM  the browser to drive
//   SHOTS     a folder for phone-width screenshots (optional)
import { chromium } from "playwright-core";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`check-setup.mjs: ${name} is not set (run scripts/check-setup.sh)`);
  return v;
};
const LINK = env("LINK");
const EXAMPLES = env("EXAMPLES");
const SHOTS = process.env.SHOTS || "";
const JOB_MS = 60000;

const problems = [];
const problem = (text) => {
  problems.push(text);
  console.error(`check-setup: ${text}`);
};

async function shot(page, name) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `setup-${name}.png`), fullPage: true });
}

// One step's form: sends it, waits for its answer beside it; a refusal fails the check.
// Refusals the check provokes on purpose (see the console's watcher).
let expectedRefusals = 0;

async function step(page, id, fill, expect) {
  await act(page, page.locator(`#step-${id} > form:not(.setting)`), id, fill, expect);
}

// One form's write (a step's own, or one of its optional forms): its answer (or, with `refused`, its refusal) beside
// it, in the page's words.
async function act(page, form, id, fill, expect, refused = false) {
  await fill(form);
  await form.locator("button").click();
  const said = form.locator(".said");
  const error = form.locator(".error");
  const deadline = Date.now() + JOB_MS;
  for (;;) {
    if (await error.isVisible()) {
      const words = await error.textContent();
      if (!refused) problem(`${id}: refused: ${words}`);
      else if (!expect.test(words) || /mmjudge |`|(^|[^\w-])--[a-z]/.test(words)) problem(`${id}: refused in other words: ${words}`);
      else console.log(`check-setup: ${id}: refused beside its form: ${words}`);
      return;
    }
    const text = (await said.isVisible()) ? await said.textContent() : "";
    if (expect.test(text)) {
      console.log(`check-setup: ${id}: ${text}`);
      return;
    }
    if (Date.now() > deadline) {
      problem(`${id}: no answer within ${JOB_MS / 1000} s (last: ${text})`);
      return;
    }
    await page.waitForTimeout(100);
  }
}

// The page's words: no command line, no backquote, no --flag.
const commandFree = (words) => !/mmjudge |`|(^|[^\w-])--[a-z]/.test(words);
const emptyFile = join(mkdtempSync(join(tmpdir(), "check-setup-")), "empty.csv");
writeFileSync(emptyFile, "");
// The class and state of a step.
const stepIs = async (page, id) => page.locator(`#step-${id}`).evaluate((s) => ({ class: s.className, state: s.querySelector(".state").textContent }));
// A job's request held (to reload the page while it runs), and the requests a reload or Back cancels (a job's,
// the dashboard's live updates and its own refresh) forgiven.
let reloading = false;
// Answers dropped on purpose (the network lost them): their failed request and its console line forgiven, however
// late they come.
let drops = { requests: 0, console: 0 };
// Every write the set-up page sends carries its key (Idempotency-Key).
const unkeyed = [];

const browser = await chromium.launch({ executablePath: env("CHROMIUM"), args: ["--no-sandbox"] });
try {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  page.on("pageerror", (e) => problem(`page error: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() !== "error") return;
    if (drops.console > 0 && /net::ERR_CONNECTION_RESET/.test(m.text())) {
      drops.console -= 1;
      return;
    }
    // A refusal provoked on purpose: Chromium logs the refused request.
    if (expectedRefusals > 0 && /Failed to load resource: the server responded with a status of 4\d\d/.test(m.text())) {
      expectedRefusals -= 1;
      return;
    }
    problem(`console error: ${m.text()}`);
  });
  page.on("request", (r) => {
    const path = new URL(r.url()).pathname;
    if (r.method() === "POST" && path.startsWith("/api/") && path !== "/api/setup" && !r.headers()["idempotency-key"]) unkeyed.push(path);
  });
  page.on("requestfailed", (r) => {
    if (reloading && /ERR_ABORTED/.test(r.failure()?.errorText || "")) return;
    if (drops.requests > 0 && /ERR_CONNECTION_RESET/.test(r.failure()?.errorText || "")) {
      drops.requests -= 1;
      return;
    }
    problem(`request failed: ${r.url()} (${r.failure()?.errorText})`);
  });

  // 1. A wrong set-up link: refused beside the form, in the page's words. Then the right one.
  await page.goto(LINK.replace(/token=[0-9a-f]+/, `token=${"0".repeat(32)}`));
  await page.fill("#event", "Shop Night");
  await page.fill("#head_judge", "Kim");
  expectedRefusals += 1;
  await page.click("#setup button");
  await page.waitForSelector("#setup-error:not([hidden])", { timeout: 10000 });
  const wrong = await page.textContent("#setup-error");
  if (!/not the set-up link/.test(wrong) || !commandFree(wrong)) problem(`a wrong set-up link is answered: ${wrong}`);
  await page.goto(LINK);
  await page.reload(); // (only the address's #token changed: the page reads it when it loads)
  await page.fill("#event", "Shop Night");
  await page.fill("#rounds", "3");
  await page.fill("#head_judge", "Kim");
  await page.click("#setup button");
  await page.waitForSelector("#created:not([hidden])", { timeout: 10000 });
  const pin = (await page.textContent("#pin")).trim();
  if (!/^\d{6}$/.test(pin)) problem(`the head judge's PIN is not shown once: "${pin}"`);
  await shot(page, "1-created");
  await page.click("#next");
  await page.waitForURL("**/judge/setup");
  if (!(await page.locator("#step-cards.next").count())) problem("the card reference is not the next step");
  if (!(await page.locator("#step-judges.optional").count())) problem("the judges' step is not marked optional");
  if (!/first the card reference, the pool, the players and the libraries/.test((await stepIs(page, "pair")).state)) {
    problem(`pairing does not name the steps it waits for: ${(await stepIs(page, "pair")).state}`);
  }
  await shot(page, "2-steps");

  // 2. The steps, in order, with a newcomer's mistakes.
  const upload = (file) => async (form) => form.locator("input[type=file]").setInputFiles(file.startsWith("/") ? file : join(EXAMPLES, file));
  const form = (id) => page.locator(`#step-${id} > form:not(.setting)`); // the check-in switch is a form of its own
  await act(page, form("cards"), "an empty file", upload(emptyFile), /empty\.csv is empty/, true);
  await act(page, form("pool"), "the pool first", upload("pool.csv"), /upload the card reference first/, true);
  // The card reference, the page reloaded while its job runs: the job is followed again, its answer beside the form.
  let held = null;
  await page.route("**/api/job/*", (route) => {
    if (!held) held = route;
    else route.continue().catch(() => {});
  });
  await upload("cards.csv")(form("cards"));
  await form("cards").locator("button").click();
  for (let i = 0; !held && i < 600; i += 1) await page.waitForTimeout(100);
  reloading = true;
  await page.reload();
  await held?.continue().catch(() => {});
  await page.waitForFunction(() => /^imported 1927 cards/.test(document.querySelector("#step-cards > form .said")?.textContent || ""), null, { timeout: JOB_MS })
    .catch(() => problem("after a reload, the card reference's job is not followed to its answer"));
  reloading = false;
  await page.unroute("**/api/job/*");
  console.log(`check-setup: cards (after a reload): ${await form("cards").locator(".said").textContent()}`);
  await act(page, form("pool"), "the players as the pool", upload("players.csv"), /this is a list of players/, true);
  await step(page, "pool", upload("pool.csv"), /^added \d+ copies/);
  // The pool's optional curation: a card kept out and taken back, a card banned.
  await page.locator("#curation summary").click();
  const named = (name) => async (form) => form.locator("input[name=name]").fill(name);
  await act(page, page.locator('#curation form[data-route="/api/pool/exclude"]'), "keep out", named("Abrade"), /Abrade/);
  await act(page, page.locator('#curation form[data-route="/api/pool/include"]'), "take back", named("Abrade"), /Abrade/);
  await act(page, page.locator('#curation form[data-route="/api/ban/add"]'), "ban", named("Counterspell"), /^banned Counterspell/);
  await shot(page, "3-pool");
  await act(page, form("players"), "the pool as the players", upload("pool.csv"), /this looks like a card pool/, true);
  // The players' file whose answer is lost (the network drops once the server took it): tapped again, the page
  // sends the same key and the server answers the first job, which imported them once.
  let lost = null;
  await page.route("**/api/player/import*", async (route) => {
    if (lost !== null) return route.continue();
    lost = route.request().headers()["idempotency-key"] || "";
    await route.fetch().catch(() => {});
    return route.abort("connectionreset");
  });
  drops = { requests: 1, console: 1 };
  await act(page, form("players"), "players (the answer lost)", upload("players.csv"), /did not arrive/, true);
  await page.unroute("**/api/player/import*");
  if (!lost) problem("the players' upload carries no Idempotency-Key");
  await step(page, "players", async () => {}, /^imported 16 players/);
  // The step's line follows once the page has read its steps again (a fetch of its own, later on a loaded machine).
  const entered = await page
    .waitForFunction(() => /^16 players entered/.test(document.querySelector("#step-players .state")?.textContent ?? ""), null, { timeout: 5000 })
    .then(async () => (await stepIs(page, "players")).state)
    .catch(async () => `after 5 s: ${(await stepIs(page, "players")).state}`);
  if (!/^16 players entered/.test(entered)) problem(`the players' file sent again was not imported once: ${entered}`);
  // The page reads its steps again after an answer (a fetch of its own): the field follows once that arrives.
  const offered = await page
    .waitForFunction(() => document.getElementById("build-tables")?.value === "8", null, { timeout: 5000 })
    .then(() => "8")
    .catch(() => page.locator("#build-tables").inputValue());
  if (offered !== "8") problem(`the libraries' tables offered for 16 players: "${offered}", not 8`);
  // Libraries for one table: built, but the step stays undone and pairing, refused, waits for it.
  await step(page, "libraries", async (f) => f.locator("input[name=tables]").fill("1"), /^built 2 main libraries/);
  await page.waitForFunction(() => /need 8 tables/.test(document.querySelector("#step-libraries .state").textContent), null, { timeout: 5000 })
    .catch(() => problem("libraries for 1 table of 16 players are not said to need 8"));
  const short = await stepIs(page, "libraries");
  if (!/next/.test(short.class)) problem(`libraries for too few tables are marked ${short.class}`);
  if (!/first the libraries/.test((await stepIs(page, "pair")).state)) problem("pairing does not wait for the libraries");
  expectedRefusals += 1;
  await act(page, form("pair"), "pair too early", async () => {}, /need 8 tables/, true);
  await step(page, "libraries", async (f) => f.locator("input[name=tables]").fill("8"), /^built 16 main libraries/);
  await page.waitForFunction(() => document.querySelector("#step-pair .error").hidden, null, { timeout: 5000 })
    .catch(() => problem("pairing's refusal stays beside it once the libraries seat every player"));
  // A swap of a card the library does not hold (Counterspell is banned): refused beside its form, in the page's
  // words.
  await page.locator("#swap summary").click();
  expectedRefusals += 1;
  await act(page, page.locator("#swap form"), "swap", async (form) => {
    await form.locator("input[name=library]").fill("1A");
    await form.locator("input[name=out]").fill("Counterspell");
    await form.locator("input[name=in]").fill("Abrade");
  }, /Counterspell|Abrade/, true); // (the card put in may also have no free copy: the build's seed is random)
  await shot(page, "3b-swap");
  await step(page, "judges", async (form) => {
    await form.locator("input[name=name]").fill("Lee");
    await form.locator("select[name=role]").selectOption("floor");
  }, /^judge Lee added/);
  if (!(await page.locator("#step-judges .pin-once:not([hidden]) .pin").count())) problem("the floor judge's PIN is not shown");
  expectedRefusals += 1;
  await act(page, form("judges"), "a judge added twice", async (f) => f.locator("input[name=name]").fill("Lee"),
    /already added; choose another name, or give Lee a new PIN with New PIN for a judge/, true);
  const whose = await page.locator("#step-judges > form .pin-once .whose").textContent();
  if (whose !== "Lee's") problem(`the PIN shown beside a refusal is not named: "${whose}"`);
  // What the refusal names, the head judge does on the page: New PIN for a judge gives Lee a new one, shown once.
  await page.locator("#new-pin summary").click();
  await act(page, page.locator("#new-pin form"), "new PIN", async (f) => f.locator("input[name=name]").fill("Lee"),
    /^judge Lee has a new PIN/);
  if (!(await page.locator("#new-pin .pin-once:not([hidden]) .pin").count())) problem("Lee's new PIN is not shown");
  if (!/ready/.test((await stepIs(page, "pair")).state)) problem(`pairing is not said ready: ${(await stepIs(page, "pair")).state}`);
  await page.waitForFunction(() => document.querySelectorAll(".step.done").length === 5, null, { timeout: 5000 })
    .catch(() => problem("five steps are not marked done before pairing"));
  await shot(page, "4-before-pairing");
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  if (wide > 390) problem(`the set-up page scrolls sideways (${wide} px wide)`);
  await page.locator("#step-pair form button").click();
  await page.waitForURL((u) => u.pathname === "/judge", { timeout: 10000 }).catch(() => problem("pairing round 1 did not lead to the dashboard"));
  const tables = await page.locator("tr.table-row").count();
  if (tables !== 8) problem(`the dashboard shows ${tables} tables, not 8`);
  await shot(page, "5-paired");
  // Back from the dashboard: the set-up page as it is now, round 1 paired.
  reloading = true;
  await page.goBack();
  await page.waitForFunction(() => document.querySelector("#step-pair.done"), null, { timeout: 10000 })
    .catch(() => problem("Back from the dashboard shows round 1 not paired"));
  reloading = false;
} finally {
  await browser.close();
}
if (unkeyed.length) problem(`writes sent without a key: ${[...new Set(unkeyed)].join(", ")}`);
if (problems.length) {
  console.error(`check-setup: ${problems.length} problem(s)`);
  process.exit(1);
}
console.log("check-setup: an event set up from nothing in the browser, round 1 paired");
