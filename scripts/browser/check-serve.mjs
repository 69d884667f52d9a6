// Drives the live server (`mmjudge serve`) in headless Chromium at phone width (390 px), as people use it:
//   1. a head judge logs in through the login page, opens /judge/table/1 and records a result with the page's
//      form, while a player of that table watches /me and /pairings in another browser (another phone): both
//      pages must show the result without a reload (server-sent events);
//   2. two phones open the table device /table/2, each player signs in with their code, player A declares a
//      card (cost, then the name from the page's completion), player B's phone shows it without a reload
//      (the delay is measured: under 500 ms), and player B declaring the same template is refused on the
//      page with the rule's reason.
// Any page error, console error, failed request or missing update fails the check (exit 1).
//
// Run by scripts/check-serve.sh, which builds the event and starts the server. Environment:
//   BASE      the server's address (http://127.0.0.1:PORT)
//   JUDGE     a head judge's name, PIN its PIN
//   CODES     a file holding `mmjudge --json player codes`
//   CHROMIUM  the browser to drive
//   SHOTS     a folder for phone-width screenshots (optional)
import { chromium } from "playwright-core";
import { readFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`check-serve.mjs: ${name} is not set (run scripts/check-serve.sh)`);
  return v;
};
const BASE = env("BASE");
const JUDGE = env("JUDGE");
const PIN = env("PIN");
const CODES = JSON.parse(readFileSync(env("CODES"), "utf8")).players;
const SHOTS = process.env.SHOTS || "";
const UPDATE_MS = 5000; // an update that has not shown within this is missing
const DECLARATION_LIMIT_MS = 500; // the issue's bound: a declaration on the opponent's device

const problems = [];
const problem = (text) => {
  problems.push(text);
  console.error(`check-serve: ${text}`);
};
// Refusals the check provokes on purpose: Chromium logs each refused request as a console error.
let expectedRefusals = 0;

const codeOf = (name) => {
  const p = CODES.find((c) => c.name === name);
  if (!p) throw new Error(`no code for ${name} in the codes file`);
  return p.code;
};

async function shot(page, name) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `serve-${name}.png`), fullPage: true });
}

// A phone: its own browser context (own cookies and storage), 390 px wide, touch.
async function phone(browser, label) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
  // Each page notes when its live-update stream is open, so the check knows the phone is listening before
  // anything changes (EventSource is the pages' own; only an "open" flag is added).
  await context.addInitScript(() => {
    const Native = window.EventSource;
    if (!Native) return;
    window.__sseOpen = false;
    window.EventSource = function (url, init) {
      const es = new Native(url, init);
      es.addEventListener("open", () => { window.__sseOpen = true; });
      return es;
    };
    window.EventSource.prototype = Native.prototype;
  });
  context.on("page", (page) => watchPage(page, label));
  return context;
}

function watchPage(page, label) {
  page.on("pageerror", (e) => problem(`${label}: uncaught error on ${page.url()}: ${e.message}`));
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    const text = msg.text();
    if (expectedRefusals > 0 && /status of 409/.test(text)) {
      expectedRefusals -= 1;
      return;
    }
    const at = msg.location()?.url;
    problem(`${label}: console error on ${page.url()}: ${text}${at && at !== page.url() ? ` (${at})` : ""}`);
  });
  page.on("requestfailed", (req) => {
    const failure = req.failure()?.errorText || "";
    // A live-update stream or a refresh cut short by leaving the page is not a failure.
    if (failure.includes("ERR_ABORTED")) return;
    problem(`${label}: request failed ${req.method()} ${req.url()}: ${failure}`);
  });
  page.on("response", (res) => {
    if (res.status() >= 400 && res.status() !== 409) problem(`${label}: ${res.status()} for ${res.request().method()} ${res.url()}`);
  });
}

async function listening(page) {
  await page.waitForFunction(() => window.__sseOpen === true, null, { timeout: UPDATE_MS });
  // A marker that a reload would wipe out.
  await page.evaluate(() => { window.__notReloaded = true; });
}

async function notReloaded(page, what) {
  const kept = await page.evaluate(() => window.__notReloaded === true);
  if (!kept) problem(`${what} was reloaded: it should update in place`);
}

async function step(name, fn) {
  const t0 = Date.now();
  try {
    await fn();
    console.log(`check-serve: ok   ${name} (${Date.now() - t0} ms)`);
  } catch (e) {
    problem(`${name}: ${e.message.split("\n")[0]}`);
  }
}

async function judgeRecordsAResult(browser, pairings) {
  const table = pairings.players.filter((p) => p.table === 1).sort((a, b) => a.seat.localeCompare(b.seat));
  if (table.length !== 2) throw new Error("table 1 has no two players in /api/pairings");
  const [seatA, seatB] = table;

  const judgePhone = await phone(browser, "judge's phone");
  const playerPhone = await phone(browser, "player's phone");
  const judge = await judgePhone.newPage();
  const me = await playerPhone.newPage();
  const board = await playerPhone.newPage();

  await step("the player finds themself on /me and opens /pairings", async () => {
    await me.goto(`${BASE}/me`);
    await me.getByLabel("Your name").fill(seatB.name);
    await me.getByRole("button", { name: "Find" }).click();
    await me.getByRole("heading", { name: seatB.name }).waitFor();
    await board.goto(`${BASE}/pairings`);
    await board.getByRole("heading", { name: /pairings/i }).waitFor();
    await listening(me);
    await listening(board);
    if (await me.getByText("Result", { exact: true }).count()) throw new Error("/me shows a result before any");
    await shot(me, "me-before");
  });

  await step("the judge logs in through the login page", async () => {
    await judge.goto(`${BASE}/login`);
    await judge.getByLabel("Name").fill(JUDGE);
    await judge.getByLabel("PIN").fill(PIN);
    await shot(judge, "login");
    await judge.getByRole("button", { name: "Log in" }).click();
    await judge.waitForURL(`${BASE}/judge`);
    await judge.getByText(`${JUDGE} (head judge)`).waitFor();
  });

  let recordedAt = 0;
  await step("the judge records a result on the table page", async () => {
    await judge.goto(`${BASE}/judge/table/1`);
    await judge.getByRole("heading", { name: /Table 1/ }).waitFor();
    const form = judge.locator("form", { has: judge.getByRole("button", { name: "Record result" }) });
    await form.locator('[name="winner"]').selectOption({ label: seatA.name });
    await form.locator('[name="by"]').selectOption("life");
    await form.locator('[name="life"]').fill("12,0");
    recordedAt = Date.now();
    await form.getByRole("button", { name: "Record result" }).click();
    await judge.waitForURL(`${BASE}/judge/table/1`);
    await judge.getByRole("button", { name: "Record result" }).waitFor({ state: "detached" });
    await shot(judge, "judge-table-result");
  });

  await step("the player's /me shows the result without a reload", async () => {
    await me.getByText("Result", { exact: true }).waitFor({ timeout: UPDATE_MS });
    await notReloaded(me, "/me");
    console.log(`check-serve:      /me updated ${Date.now() - recordedAt} ms after the judge's tap`);
    await shot(me, "me-after");
  });

  await step("/pairings shows the result at table 1 without a reload", async () => {
    await board.waitForFunction(
      () => {
        const cells = [...document.querySelectorAll("#by-table + table tbody tr")]
          .find((tr) => tr.cells[0]?.textContent.trim() === "1");
        return cells && cells.cells[cells.cells.length - 1].textContent.trim() !== "";
      },
      null,
      { timeout: UPDATE_MS },
    );
    await notReloaded(board, "/pairings");
    await shot(board, "pairings-after");
  });

  await judgePhone.close();
  await playerPhone.close();
}

async function tableDeviceDeclares(browser, pairings) {
  const table = pairings.players.filter((p) => p.table === 2).sort((a, b) => a.seat.localeCompare(b.seat));
  if (table.length !== 2) throw new Error("table 2 has no two players in /api/pairings");
  const [a, b] = table;
  const phoneA = await phone(browser, `${a.name}'s phone`);
  const phoneB = await phone(browser, `${b.name}'s phone`);
  const devA = await phoneA.newPage();
  const devB = await phoneB.newPage();
  const sideA = (dev) => dev.locator("section.player", { has: dev.getByRole("heading", { name: a.name }) });
  const sideB = (dev) => dev.locator("section.player", { has: dev.getByRole("heading", { name: b.name }) });

  await step("each player signs in on their phone's /table/2 with their code", async () => {
    for (const [dev, side, who] of [[devA, sideA(devA), a], [devB, sideB(devB), b]]) {
      await dev.goto(`${BASE}/table/2`);
      await dev.getByRole("heading", { name: /Table 2/ }).waitFor();
      await side.getByLabel(`${who.name}'s code`).fill(codeOf(who.name));
      await side.getByRole("button", { name: "Sign in" }).click();
      await side.getByRole("button", { name: "Declare" }).waitFor();
      await listening(dev);
    }
  });

  let delay = null;
  await step(`${a.name} declares B1 Demonic Tutor with the completion; ${b.name}'s phone shows it`, async () => {
    const side = sideA(devA);
    await side.getByLabel("printed cost").fill("B1");
    await side.getByLabel("card name").pressSequentially("dem");
    // The completion offers the names of the cost's class (the page's datalist); take its suggestion.
    await devA.waitForFunction(
      () => [...document.querySelectorAll("section.player datalist option")].some((o) => o.value === "Demonic Tutor"),
      null,
      { timeout: UPDATE_MS },
    );
    const suggested = await side.locator("datalist option").evaluateAll((os) => os.map((o) => o.value));
    if (!suggested.includes("Demonic Tutor")) throw new Error(`the completion offered ${JSON.stringify(suggested)}`);
    await side.getByLabel("card name").fill("Demonic Tutor");
    // B's phone notes (its own clock) the moment the declaration appears in A's column.
    await devB.evaluate(() => {
      window.__seenAt = 0;
      const col = document.querySelector('ol[data-col="A"]');
      const look = () => {
        if (!window.__seenAt && col.textContent.includes("Demonic Tutor")) window.__seenAt = Date.now();
      };
      new MutationObserver(look).observe(col, { childList: true, subtree: true, characterData: true });
    });
    const tappedAt = await side.getByRole("button", { name: "Declare" }).evaluate((button) => {
      const t = Date.now();
      button.click();
      return t;
    });
    await devB.waitForFunction(() => window.__seenAt > 0, null, { timeout: UPDATE_MS });
    const seenAt = await devB.evaluate(() => window.__seenAt);
    delay = seenAt - tappedAt;
    await notReloaded(devB, `${b.name}'s /table/2`);
    await devA.locator('ol[data-col="A"]').getByText("Demonic Tutor").waitFor();
    console.log(`check-serve:      declaration delay: ${delay} ms from the tap on ${a.name}'s phone to ${b.name}'s phone`);
    if (delay >= DECLARATION_LIMIT_MS) throw new Error(`the declaration took ${delay} ms to reach the opponent (limit ${DECLARATION_LIMIT_MS} ms)`);
    await shot(devA, "device-1-declared");
    await shot(devB, "device-2-sees-it");
  });

  await step(`${b.name} declaring the same template is refused with the rule's reason`, async () => {
    const side = sideB(devB);
    await side.getByLabel("printed cost").fill("B1");
    // As a person does: the name typed, the completion's answer arrives, then the tap.
    const completed = devB.waitForResponse((r) => r.url().includes("/api/cards/cost"));
    await side.getByLabel("card name").fill("Demonic Tutor");
    await completed;
    expectedRefusals += 1;
    await side.getByRole("button", { name: "Declare" }).click();
    const alert = side.getByRole("alert");
    await alert.filter({ hasText: "Demonic Tutor" }).waitFor({ timeout: UPDATE_MS });
    const reason = (await alert.textContent()).trim();
    if (!/^MM\.\d+[a-z]?:/.test(reason)) throw new Error(`the refusal does not start with the rule's id: "${reason}"`);
    console.log(`check-serve:      refused on the page: ${reason}`);
    const column = await devB.locator('ol[data-col="B"]').textContent();
    if (column.includes("Demonic Tutor")) throw new Error("the refused declaration shows on the sheet");
    await shot(devB, "device-2-refused");
  });

  await phoneA.close();
  await phoneB.close();
  return delay;
}

const started = Date.now();
// Playwright starts Chromium with a fresh profile of its own (a new temporary user-data-dir every run).
const browser = await chromium.launch({
  executablePath: env("CHROMIUM"),
  headless: true,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
});
let delay = null;
try {
  const pairings = await (await fetch(`${BASE}/api/pairings`)).json();
  await judgeRecordsAResult(browser, pairings);
  delay = await tableDeviceDeclares(browser, pairings);
} catch (e) {
  problem(e.message.split("\n")[0]);
} finally {
  await browser.close();
}
if (expectedRefusals > 0) problem("the refused declaration was not answered 409");
const took = ((Date.now() - started) / 1000).toFixed(1);
if (problems.length) {
  console.error(`check-serve: ${problems.length} problem(s) in ${took} s`);
  process.exit(1);
}
console.log(
  `check-serve: the judge's result and the table device work at 390 px; declaration delay ${delay} ms; ${took} s` +
    (SHOTS ? `; screenshots in ${SHOTS}` : ""),
);
