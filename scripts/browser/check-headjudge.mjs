// The head judge's event day from one phone (390 px), in headless Chromium, by tapping the pages and reading
// what they say:
//   1. logs in on the login page and lands on the dashboard, which names the one player who has not checked in
//      beside Pair those present; taps it: round 1 is paired without them (the answer says so), then starts it;
//   2. on the Players page, adds a late player (the answer says from which round they play) and drops another
//      (their row then says dropped);
//      keeps a player at table 3 (a player who cannot move) and lets them move again;
//   3. opens Prints and the players' codes (one slip a player, each with a QR code), then every other print;
//   4. records a result on table 2's page; a challenge on that finished match is refused beside its form (one
//      role="alert" line, in view, naming no command line);
//   5. ends the round with tables still playing (End the round…, Yes, end the round anyway): table 1's page says
//      time was called at the round's end, and the dashboard marks those tables as time called.
// Every page opened must fit 390 px (no sideways scroll). Any page error, console error or failed request fails
// the check (exit 1); screenshots of each step go to SHOTS when set.
//
// Run by scripts/check-headjudge.sh, which builds the event and starts the server. Environment:
//   BASE      the server's address (http://127.0.0.1:PORT)
//   JUDGE     a head judge's name, PIN its PIN
//   ABSENT    the player who has not checked in
//   CHROMIUM  the browser to drive
//   SHOTS     a folder for phone-width screenshots (optional)
import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";
import { join } from "node:path";

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`check-headjudge.mjs: ${name} is not set (run scripts/check-headjudge.sh)`);
  return v;
};
const BASE = env("BASE");
const JUDGE = env("JUDGE");
const PIN = env("PIN");
const ABSENT = env("ABSENT");
const SHOTS = process.env.SHOTS || "";
const WAIT_MS = 10000;
const LATE = "Zed Latecomer";

const problems = [];
const problem = (text) => {
  problems.push(text);
  console.error(`check-headjudge: ${text}`);
};
// Refusals the check provokes on purpose: Chromium logs each refused request as a console error.
let expectedRefusals = 0;

async function shot(page, name) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `headjudge-${name}.png`), fullPage: true });
}

async function step(name, fn) {
  const t0 = Date.now();
  try {
    await fn();
    console.log(`check-headjudge: ok   ${name} (${Date.now() - t0} ms)`);
  } catch (e) {
    problem(`${name}: ${e.message.split("\n")[0]}`);
    throw new Stopped(); // the steps after it depend on it
  }
}

class Stopped extends Error {}

function watchPage(page) {
  page.on("pageerror", (e) => problem(`uncaught error on ${page.url()}: ${e.message}`));
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    const text = msg.text();
    if (expectedRefusals > 0 && /status of 409/.test(text)) {
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
    if (res.status() >= 400 && res.status() !== 409) problem(`${res.status()} for ${res.request().method()} ${res.url()}`);
  });
}

// The page fits the phone: nothing scrolls sideways.
async function fits(page, what) {
  const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  if (wide > 0) throw new Error(`${what} is ${wide} px wider than a 390 px phone`);
}

// The page's one answer (role="alert"), in view, naming no command line; returns its text.
async function answer(page, what) {
  const alert = page.locator('main [role="alert"]');
  await alert.first().waitFor({ timeout: WAIT_MS });
  if ((await alert.count()) !== 1) throw new Error(`${what}: ${await alert.count()} answers on the page, not one`);
  const box = await alert.evaluate((el) => { const r = el.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, height: innerHeight }; });
  if (box.top < 0 || box.bottom > box.height) throw new Error(`${what}: the answer is out of view (${JSON.stringify(box)})`);
  const text = (await alert.textContent()).trim();
  if (/mmjudge |`|(^|[^\w-])--[a-z]/.test(text)) throw new Error(`${what}: the answer names a command line: ${text}`);
  console.log(`check-headjudge:      ${what}: "${text}"`);
  return text;
}

const started = Date.now();
const browser = await chromium.launch({
  executablePath: env("CHROMIUM"),
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
try {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  context.setDefaultTimeout(WAIT_MS);
  context.on("page", watchPage);
  const judge = await context.newPage();
  const steps = judge.locator("#round-actions");
  let dropped = "";

  await step("the head judge logs in on the phone and the dashboard names who has not checked in", async () => {
    await judge.goto(`${BASE}/login`);
    await judge.getByLabel("Name").fill(JUDGE);
    await judge.getByLabel("PIN").fill(PIN);
    await judge.getByRole("button", { name: "Log in" }).click();
    await judge.waitForURL(`${BASE}/judge`);
    await judge.getByText(`${JUDGE} (head judge)`).waitFor();
    const present = steps.locator("form", { has: judge.getByRole("button", { name: "Pair those present" }) });
    await present.getByText(`${ABSENT} has not checked in`).waitFor();
    await fits(judge, "the dashboard before round 1");
    await shot(judge, "1-dashboard-before");
  });

  await step(`Pair those present pairs round 1 without ${ABSENT}, and the round starts`, async () => {
    await steps.getByRole("button", { name: "Pair those present" }).click();
    await judge.waitForURL(/\/judge\?done=\d+$/);
    const said = await answer(judge, "Pair those present");
    if (!/round 1/i.test(said) || !said.includes(ABSENT)) throw new Error(`the answer does not say round 1 was paired without ${ABSENT}: ${said}`);
    await fits(judge, "the dashboard after pairing");
    await shot(judge, "2-paired");
    // The page is already at ?done= (the pairing's): wait for the next answer's address. (Until it comes, a live
    // refresh may show the round started on the page about to go.)
    const paired = judge.url();
    await steps.getByRole("button", { name: "Start the round" }).click();
    await judge.waitForURL((u) => /\/judge\?done=\d+$/.test(u.href) && u.href !== paired);
    await steps.getByText(/Round 1 is being played/).waitFor();
    await shot(judge, "3-started");
  });

  await step(`a late player is added on the Players page`, async () => {
    await judge.getByRole("link", { name: "Players" }).first().click();
    await judge.waitForURL(`${BASE}/judge/players`);
    await judge.getByLabel("Names, one a line").fill(LATE);
    await judge.getByRole("button", { name: "Add", exact: true }).click();
    await judge.waitForURL(/\/judge\/players\?done=\d+$/);
    const said = await answer(judge, "Add players");
    if (!said.includes(LATE) || !/round 2/.test(said)) throw new Error(`the answer does not say ${LATE} plays from round 2: ${said}`);
    await judge.locator("ul.roster li", { hasText: LATE }).getByText(/late entry/).waitFor();
    await fits(judge, "the Players page");
    await shot(judge, "4-late-player");
  });

  await step("a player is dropped on the Players page", async () => {
    const row = judge.locator("ul.roster li", { has: judge.getByRole("button", { name: "Drop" }) }).first();
    dropped = (await row.locator("strong").textContent()).trim();
    // The page is already at ?done= (the late player's): wait for the next answer's address, or the answer read
    // is the late player's.
    const added = judge.url();
    await row.getByRole("button", { name: "Drop" }).click();
    await judge.waitForURL((u) => /\/judge\/players\?done=\d+$/.test(u.href) && u.href !== added);
    // The Done line goes beside the form that sent it, or stays at the top when that form is gone (Drop
    // became Undrop): either way in view, once the page has placed it.
    await judge.waitForFunction(() => {
      const r = document.getElementById("done")?.getBoundingClientRect();
      return r && r.top >= 0 && r.bottom <= innerHeight;
    }, null, { timeout: 3000 }).catch(() => {});
    const said = await answer(judge, `dropping ${dropped}`);
    if (!said.includes(dropped)) throw new Error(`the answer does not name ${dropped}: ${said}`);
    const after = judge.locator("ul.roster li", { has: judge.locator("strong", { hasText: dropped }) });
    await after.getByRole("button", { name: "Undrop" }).waitFor();
    await after.getByText(/dropped/).waitFor();
    await shot(judge, "5-dropped");
  });

  await step("a player who cannot move is kept at table 3 on the Players page, and let go again", async () => {
    const row = judge.locator("ul.roster li", { has: judge.getByRole("button", { name: "Drop" }) }).nth(1);
    const name = (await row.locator("strong").textContent()).trim();
    await row.getByText("More…").click();
    await row.getByLabel(`Keep ${name} at table`).fill("3");
    // The page is already at ?done= (the drop's): wait for the next answer's address.
    let before = judge.url();
    await row.getByRole("button", { name: "Keep at this table every round" }).click();
    await judge.waitForURL((u) => /\/judge\/players\?done=\d+$/.test(u.href) && u.href !== before);
    const said = await answer(judge, `keeping ${name} at table 3`);
    if (!said.includes(`${name} stays at table 3`)) throw new Error(`the answer does not say ${name} stays at table 3: ${said}`);
    const kept = judge.locator("ul.roster li", { has: judge.locator("strong", { hasText: name }) });
    await kept.locator("small.state", { hasText: "stays at table 3" }).waitFor();
    await fits(judge, "the Players page with a player kept at a table");
    await shot(judge, "5b-stays");
    // The answer opened the player's More… beside it: its buttons are in view.
    if (!(await kept.locator("details").evaluate((d) => d.open))) throw new Error("the answer's More… stayed closed");
    before = judge.url();
    await kept.getByRole("button", { name: `Let ${name} move with the others again` }).click();
    await judge.waitForURL((u) => /\/judge\/players\?done=\d+$/.test(u.href) && u.href !== before);
    const again = await answer(judge, `letting ${name} move again`);
    if (!again.includes(`${name} no longer stays at table 3`)) throw new Error(`the answer does not say the stay ended: ${again}`);
  });

  await step("the players' codes print from Prints: a slip a player, each with its QR code, at 390 px", async () => {
    await judge.goto(`${BASE}/judge`);
    await judge.getByRole("link", { name: "Prints" }).click();
    await judge.waitForURL(`${BASE}/judge/print`);
    await fits(judge, "the Prints page");
    await shot(judge, "6-prints");
    await judge.locator("ul.prints").getByRole("link", { name: "Players' codes" }).click();
    await judge.waitForURL(`${BASE}/judge/print/codes`);
    const slips = await judge.locator("svg").count();
    if (slips < 16) throw new Error(`the codes page shows ${slips} QR codes, not one for each of the 17 players`);
    await judge.getByText(LATE).first().waitFor();
    await fits(judge, "the codes print");
    await shot(judge, "7-codes");
  });

  await step("every other print opens from Prints and fits the phone", async () => {
    for (const name of ["Pairings", "Pairings for the wall", "Result slips", "Note sheets", "Deck sheets", "Curation report"]) {
      await judge.goto(`${BASE}/judge/print`);
      await judge.locator("ul.prints").getByRole("link", { name, exact: true }).click();
      await judge.waitForLoadState();
      await judge.locator("h1").first().waitFor();
      await fits(judge, `the print "${name}"`);
      await shot(judge, `8-print-${name.toLowerCase().replace(/[^a-z]+/g, "-")}`);
    }
    const zip = await judge.request.get(`${BASE}/judge/print/site.zip`);
    if (zip.status() !== 200 || zip.headers()["content-type"] !== "application/zip") throw new Error(`the site's zip answered ${zip.status()} ${zip.headers()["content-type"]}`);
    const body = await zip.body();
    if (body.subarray(0, 4).toString("latin1") !== "PK\u0003\u0004") throw new Error("the site's zip is not a zip archive");
    console.log(`check-headjudge:      the site's zip: ${body.length} bytes`);
  });

  await step("a result on table 2's page, then a challenge on that finished match refused beside its form", async () => {
    await judge.goto(`${BASE}/judge/table/2`);
    await judge.getByRole("heading", { name: /Table 2/ }).waitFor();
    const form = judge.locator("form", { has: judge.getByRole("button", { name: "Record result" }) });
    // The winner starts unchosen ("who won?"): a judge picks them.
    await form.locator('[name="winner"] option:not([disabled]):not([value="draw"]):not([value="totals"])').first().waitFor({ state: "attached" });
    const firstPlayer = await form.locator('[name="winner"] option:not([disabled]):not([value="draw"]):not([value="totals"])').first().textContent();
    await form.locator('[name="winner"]').selectOption({ label: firstPlayer.trim() });
    await form.locator('[name="by"]').selectOption("concession");
    await form.getByRole("button", { name: "Record result" }).click();
    await judge.waitForURL(/\/judge\/table\/2\?done=\d+$/);
    await judge.locator("p.done").getByText(/table 2, round 1/).waitFor();
    // The page again, opened after the result: the result's own live event (a refresh of <main>) cannot land
    // between filling the challenge and tapping its button on a slow machine.
    await judge.goto(`${BASE}/judge/table/2`);
    const challenge = judge.locator("#challenge-form");
    await challenge.locator('[name="about"]').fill("B1 Demonic Tutor");
    expectedRefusals += 1;
    await challenge.getByRole("button", { name: "Record challenge" }).click();
    const refused = judge.locator('#challenge-form + p.answer.refused[role="alert"]');
    await refused.getByText(/already has a result/).waitFor();
    await answer(judge, "the refused challenge");
    if (await judge.locator("p.done").count()) throw new Error("the earlier Done line still stands beside the refusal");
    if (new URL(judge.url()).pathname !== "/judge/table/2") throw new Error(`the refusal left the page: ${judge.url()}`);
    await fits(judge, "table 2's page with the refusal");
    await shot(judge, "9-challenge-refused");
  });

  await step("the round ends with tables still playing, and table 1's page says time was called", async () => {
    await judge.goto(`${BASE}/judge`);
    await steps.getByText("End the round…").click();
    await steps.locator("#end-round").getByText(/Still without a result: .*table 1/).waitFor();
    await shot(judge, "10-end-confirm");
    await steps.getByRole("button", { name: "Yes, end the round anyway" }).click();
    await judge.waitForURL(/\/judge\?done=\d+$/);
    await answer(judge, "End the round anyway");
    await judge.getByText("time called (round ended)").first().waitFor();
    await fits(judge, "the dashboard after the round ended");
    await shot(judge, "11-ended");
    await judge.goto(`${BASE}/judge/table/1`);
    await judge.getByText(/Time was called at the round's end/).waitFor();
    await fits(judge, "table 1's page after the round ended");
    await shot(judge, "12-table-time-called");
  });
} catch (e) {
  if (!(e instanceof Stopped)) problem(e.message.split("\n")[0]);
} finally {
  await browser.close();
}
if (expectedRefusals > 0) problem("the refused challenge was not answered 409");
const took = ((Date.now() - started) / 1000).toFixed(1);
if (problems.length) {
  console.error(`check-headjudge: ${problems.length} problem(s) in ${took} s`);
  process.exit(1);
}
console.log(`check-headjudge: the head judge's day from the phone works and every page fits 390 px; ${took} s` + (SHOTS ? `; screenshots in ${SHOTS}` : ""));
