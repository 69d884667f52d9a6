// The table's device and a player's page at 390 px in headless Chromium, as players use them: every tap is
// answered beside it, in view (run by tests/cli/table_answers.rs, which starts the server on a small event:
// table 1 Ana-Bo, table 2 Cy-Di, round 1 started). Exits 1 naming the first thing that is not as it should be.
//
// Env: BASE (the server), CODES (JSON {name: code}), CHROMIUM, PLAYWRIGHT (playwright-core's index.mjs),
// MMJUDGE and MMJUDGE_DB (the binary and the event, for a judge's acts at the command line).
import { execFileSync } from "node:child_process";
import { pathToFileURL } from "node:url";

const env = (k) => {
  const v = process.env[k];
  if (!v) throw new Error(`${k} is not set`);
  return v;
};
const BASE = env("BASE");
const CODES = JSON.parse(env("CODES"));
const { chromium } = await import(pathToFileURL(env("PLAYWRIGHT")).href);
const judge = (...args) => execFileSync(env("MMJUDGE"), args, { env: { ...process.env, MMJUDGE_JUDGE: "Kim" } });
const WAIT = 5000;

const browser = await chromium.launch({ executablePath: env("CHROMIUM"), args: ["--no-sandbox"] });
const problems = [];
let context;
function phone() {
  return browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true });
}
async function page(ctx, path) {
  const p = await ctx.newPage();
  p.on("pageerror", (e) => problems.push(`uncaught error on ${p.url()}: ${e.message}`));
  await p.goto(`${BASE}${path}`);
  return p;
}
// An element shown whole on the screen (not below it, not above it) and wider than nothing.
async function inView(p, el, what) {
  const box = await el.evaluate((e) => {
    const r = e.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, width: r.width, height: innerHeight, pageWidth: document.documentElement.scrollWidth };
  });
  if (box.top < 0 || box.bottom > box.height || box.width === 0) throw new Error(`${what}: not in view ${JSON.stringify(box)}`);
  if (box.pageWidth > 390) throw new Error(`${what}: the page is ${box.pageWidth} px wide at 390 px`);
}
async function said(p, sec, text, what) {
  const line = sec.locator("p.answer");
  await line.filter({ hasText: text }).waitFor({ timeout: WAIT }).catch(async () => {
    throw new Error(`${what}: the answer says "${await line.textContent()}", not ${text}`);
  });
  const got = (await line.textContent()).trim();
  if (typeof text === "string" && got !== text) throw new Error(`${what}: the answer says "${got}", not "${text}"`);
  await inView(p, line, what);
  return got;
}
async function silent(sec, what) {
  const got = (await sec.locator("p.answer").textContent()).trim();
  if (got) throw new Error(`${what}: an old answer stays: "${got}"`);
}
async function signIn(sec, name, code) {
  await sec.getByLabel(`${name}'s code`).fill(code);
  await sec.getByRole("button", { name: "Sign in" }).click();
}

try {
  context = await phone();
  const device = await page(context, "/table/1");
  const ana = device.locator('section.player[data-seat="A"]');
  const bo = device.locator('section.player[data-seat="B"]');

  // A: each write answered beside its buttons, in the game's words, the name as recorded.
  await signIn(ana, "Ana", CODES.Ana);
  await said(device, ana, "Signed in: Ana", "Ana signs in");
  await ana.getByLabel("printed cost").fill("B1");
  await ana.getByLabel("card name").fill("demonic tutr");
  await ana.getByRole("button", { name: "Declare" }).click();
  await said(device, ana, "Declared B1: Demonic Tutor (typed \u201cdemonic tutr\u201d)", "Ana declares a misspelt card");
  if (await ana.getByLabel("card name").inputValue()) throw new Error("the card name stays in its field once declared");
  if ((await ana.locator("p.answer").getAttribute("role")) !== "status") throw new Error("a declaration's answer is not role=status");
  await ana.getByRole("button", { name: "Undo my last" }).click();
  await said(device, ana, "Taken back: B1: Demonic Tutor", "Ana takes it back");
  await ana.getByLabel("printed cost").fill("U1");
  await ana.getByRole("button", { name: "Unnamed" }).click();
  await said(device, ana, "Noted U1: unnamed", "Ana notes an unnamed card");
  const sheet = await device.locator('ol[data-col="A"]').textContent();
  if (!/U1: \(unnamed\)/.test(sheet) || /Demonic Tutor/.test(sheet)) throw new Error(`the sheet reads: ${sheet}`);

  // B: a seat's refusal goes when the other seat acts, and a seat's answer is replaced by its next.
  await signIn(bo, "Bo", "000000");
  const refused = await said(device, bo, /^Not done: /, "Bo's wrong code");
  if ((await bo.locator("p.answer").getAttribute("role")) !== "alert" || !(await bo.locator("p.answer.error").count())) {
    throw new Error(`Bo's refusal is not shown as a refusal (role="alert", p.error): ${refused}`);
  }
  await silent(ana, "Ana's section once Bo's code was refused");
  await ana.getByRole("button", { name: "Undo my last" }).click();
  await said(device, ana, "Taken back: U1: unnamed", "Ana takes back the unnamed card");
  await silent(bo, "Bo's section once Ana acted");
  await ana.getByRole("button", { name: "Undo my last" }).click();
  await said(device, ana, /^Not done: .*no declarations to take back/, "Ana takes back with nothing declared");
  await signIn(bo, "Bo", CODES.Bo);
  await said(device, bo, "Signed in: Bo", "Bo signs in");
  await silent(ana, "Ana's refusal once Bo signed in");

  // C: Call a judge per signed-in seat, answered in its place and shown while the call is open.
  if ((await device.getByRole("button", { name: "Call a judge" }).count()) !== 2) throw new Error("not one Call a judge per signed-in player");
  await bo.getByRole("button", { name: "Call a judge" }).click();
  const called = /^A judge is called to table 1 by Bo \(since \d\d:\d\d\)\.$/;
  for (const [sec, who] of [[bo, "Bo"], [ana, "Ana"]]) {
    const line = sec.locator("p.called");
    await line.filter({ hasText: called }).waitFor({ timeout: WAIT });
    if (await sec.getByRole("button", { name: "Call a judge" }).isVisible()) throw new Error(`${who}'s Call a judge is still offered while the call is open`);
  }
  await inView(device, bo.locator("p.called"), "Bo's call");
  const other = await page(await phone(), "/table/1");
  await other.locator('section.player[data-seat="A"] p.called').filter({ hasText: called }).waitFor({ timeout: WAIT });
  judge("call", "close", "1");
  await device.locator('section.player[data-seat="B"] p.called').waitFor({ state: "hidden", timeout: WAIT });
  await bo.getByRole("button", { name: "Call a judge" }).waitFor({ timeout: WAIT });

  // E: once the match has its result, no Declare, Unnamed or Undo, the reason said; Sign out set apart.
  judge("result", "1", "Ana", "--by", "concession");
  for (const [sec, who] of [[ana, "Ana"], [bo, "Bo"]]) {
    await sec.locator("p.closed").waitFor({ timeout: WAIT });
    for (const b of ["Declare", "Unnamed", "Undo my last"]) {
      if (await sec.getByRole("button", { name: b, exact: true }).isVisible()) throw new Error(`${who}: ${b} is offered once the match is over`);
    }
  }
  const look = await ana.getByRole("button", { name: "Sign Ana out" }).evaluate((b) => {
    const call = b.closest("section").querySelector('[data-act="call"]');
    const row = b.parentElement;
    return {
      plain: getComputedStyle(b).backgroundColor !== getComputedStyle(call).backgroundColor,
      apart: parseFloat(getComputedStyle(row).borderTopWidth) > 0 && row.getBoundingClientRect().top > call.getBoundingClientRect().bottom,
    };
  });
  if (!look.plain || !look.apart) throw new Error(`"Sign Ana out" looks like the game's buttons: ${JSON.stringify(look)}`);

  // D: /me's Call a judge comes back with its answer in view.
  const me = await page(await phone(), "/me?name=Cy");
  const form = me.locator("form", { has: me.getByRole("button", { name: "Call a judge" }) });
  await form.getByPlaceholder("your code").fill(CODES.Cy);
  await form.getByRole("button", { name: "Call a judge" }).click();
  const line = me.locator("p.call");
  await line.filter({ hasText: /^A judge is called to your table \(since \d\d:\d\d\)\.$/ }).waitFor({ timeout: WAIT });
  await me.waitForTimeout(300);
  await inView(me, line, "/me: the call's answer");
} catch (e) {
  problems.push(e.message.split("\n")[0]);
} finally {
  await browser.close();
}
if (problems.length) {
  for (const p of problems) console.error(`table answers: ${p}`);
  process.exit(1);
}
console.log("table answers: ok");
