// Sets an event up from nothing at phone width (390 px), as a head judge would with no command line:
//   1. the one-time /setup link (from `mmjudge serve --new`) creates the event and its head judge, whose PIN is
//      shown once, and leads to the set-up page /judge/setup;
//   2. there, in order: the bundled card reference, pool and players are uploaded (each answered beside its
//      form once its job ended), the libraries are built for 8 tables, a floor judge is added (their PIN shown
//      once), and round 1 is paired, which leads to the judges' dashboard with its 8 tables.
// Any page error, console error, failed request or refusal shown fails the check (exit 1).
//
// Run by scripts/check-setup.sh, which starts the server. Environment:
//   LINK      the set-up link the server printed
//   EXAMPLES  the repository's examples folder
//   CHROMIUM  the browser to drive
//   SHOTS     a folder for phone-width screenshots (optional)
import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";
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
  await act(page, page.locator(`#step-${id} > form`), id, fill, expect);
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

const browser = await chromium.launch({ executablePath: env("CHROMIUM"), args: ["--no-sandbox"] });
try {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  page.on("pageerror", (e) => problem(`page error: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() !== "error") return;
    // A refusal provoked on purpose: Chromium logs the refused request.
    if (expectedRefusals > 0 && /Failed to load resource: the server responded with a status of 4\d\d/.test(m.text())) {
      expectedRefusals -= 1;
      return;
    }
    problem(`console error: ${m.text()}`);
  });
  page.on("requestfailed", (r) => problem(`request failed: ${r.url()} (${r.failure()?.errorText})`));

  // 1. The set-up link.
  await page.goto(LINK);
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
  await shot(page, "2-steps");

  // 2. The steps, in order.
  const upload = (file) => async (form) => form.locator("input[type=file]").setInputFiles(join(EXAMPLES, file));
  await step(page, "cards", upload("cards.csv"), /^imported 1927 cards/);
  await step(page, "pool", upload("pool.csv"), /^added \d+ copies/);
  // The pool's optional curation: a card kept out and taken back, a card banned.
  await page.locator("#curation summary").click();
  const named = (name) => async (form) => form.locator("input[name=name]").fill(name);
  await act(page, page.locator('#curation form[data-route="/api/pool/exclude"]'), "keep out", named("Abrade"), /Abrade/);
  await act(page, page.locator('#curation form[data-route="/api/pool/include"]'), "take back", named("Abrade"), /Abrade/);
  await act(page, page.locator('#curation form[data-route="/api/ban/add"]'), "ban", named("Counterspell"), /^banned Counterspell/);
  await shot(page, "3-pool");
  await step(page, "libraries", async (form) => form.locator("input[name=tables]").fill("8"), /^built 16 main libraries/);
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
  await step(page, "players", upload("players.csv"), /^imported 16 players/);
  await step(page, "judges", async (form) => {
    await form.locator("input[name=name]").fill("Lee");
    await form.locator("select[name=role]").selectOption("floor");
  }, /^judge Lee added/);
  if (!(await page.locator("#step-judges .pin-once:not([hidden]) .pin").count())) problem("the floor judge's PIN is not shown");
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
} finally {
  await browser.close();
}
if (problems.length) {
  console.error(`check-setup: ${problems.length} problem(s)`);
  process.exit(1);
}
console.log("check-setup: an event set up from nothing in the browser, round 1 paired");
