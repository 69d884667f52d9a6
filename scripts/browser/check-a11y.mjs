// Runs axe-core over every page the live server serves and every page of the event's site, in headless Chromium
// with the pages' own CSP bypassed (axe is a script the pages did not send), at phone width (390 px) and at
// desktop width (1280 px): a player's pages (/, /me, /me?name=..., /pairings, /standings, /clock,
// /clock?table=N, /table/N, /login), the projector, a floor judge's and a head judge's pages (/judge,
// /judge/table/N, /judge/players, /judge/print and every print it links, /judge/decisions), the set-up page of a `serve --new`
// server, and each HTML file of the site's folder (file://).
// Any serious or critical violation fails the check (exit 1): each is printed with its page, width, rule and
// the elements it found, and so does a page without a level-one heading. Other moderate and minor findings are
// printed, and do not fail it.
//
// Run by scripts/check-a11y.sh, which builds the event, the site and starts the servers. Environment:
//   BASE       the event's server (http://127.0.0.1:PORT)
//   NEW        the `serve --new` server's address
//   HEAD, HEAD_PIN, FLOOR, FLOOR_PIN   a head judge's and a floor judge's names and PINs
//   PLAYER     a player's name, TABLE a table playing in the current round, FINISHED one with a result
//   SITE       the site's folder (mmjudge site DIR --judges)
//   CHROMIUM   the browser to drive
import { chromium } from "playwright-core";
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`check-a11y.mjs: ${name} is not set (run scripts/check-a11y.sh)`);
  return v;
};
const BASE = env("BASE");
const NEW = env("NEW");
const SITE = env("SITE");
const TABLE = env("TABLE");
const PLAYER = env("PLAYER");
const WIDTHS = [
  { label: "390 px", viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  { label: "1280 px", viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false },
];
const FAILING = new Set(["serious", "critical"]);
// Moderate rules that fail the check too: every page says what it is in one level-one heading.
const FAILING_RULES = new Set(["page-has-heading-one"]);
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

const failures = [];
let pagesChecked = 0;
let milder = 0;

async function audit(page, label) {
  await page.addScriptTag({ content: axeSource });
  const result = await page.evaluate(async () =>
    // eslint-disable-next-line no-undef
    axe.run(document, { resultTypes: ["violations"] }),
  );
  pagesChecked += 1;
  console.log(`check-a11y: ${label}: ${result.violations.length} finding(s)`);
  for (const v of result.violations) {
    if (!FAILING.has(v.impact) && !FAILING_RULES.has(v.id)) {
      milder += 1;
      console.log(`check-a11y: (${v.impact}) ${label}: ${v.id}: ${v.help}`);
      continue;
    }
    const where = v.nodes.map((n) => `    ${n.target.join(" ")}  ${n.html.slice(0, 160)}`).join("\n");
    const line = `${label}: ${v.impact} ${v.id}: ${v.help} (${v.nodes.length} element${v.nodes.length === 1 ? "" : "s"})\n${where}`;
    failures.push(line);
    console.error(`check-a11y: ${line}`);
  }
}

async function visit(page, url, label) {
  // A download (the site's zip) is no page.
  if (url.endsWith(".zip")) return;
  const answer = await page.goto(url, { waitUntil: "load" });
  // A print the event cannot make yet (no round with every result in) says why: nothing to audit.
  if (answer && [404, 409].includes(answer.status()) && url.includes("/judge/print/")) {
    console.log(`check-a11y: ${label}: answered ${answer.status()} (nothing to print yet)`);
    return;
  }
  if (answer && answer.status() >= 400 && !url.includes("__missing")) {
    failures.push(`${label}: answered ${answer.status()}`);
    console.error(`check-a11y: ${label}: answered ${answer.status()}`);
    return;
  }
  // Live pages fill themselves in after load; give them a moment.
  await page.waitForTimeout(300);
  await audit(page, label);
}

async function login(page, name, pin) {
  await page.goto(`${BASE}/login`);
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("PIN").fill(pin);
  await Promise.all([page.waitForURL(/\/judge/), page.getByRole("button", { name: /log in/i }).click()]);
}

function siteFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...siteFiles(path));
    else if (entry.name.endsWith(".html")) out.push(path);
  }
  return out.sort();
}

const browser = await chromium.launch({ executablePath: env("CHROMIUM"), args: ["--no-sandbox"] });
try {
  // The two widths at once (each its own contexts): their pages' waits and the server's answers overlap.
  await Promise.all(WIDTHS.map(async (width) => {
    const options = { viewport: width.viewport, isMobile: width.isMobile, hasTouch: width.hasTouch, bypassCSP: true };
    const at = (path) => `${path} at ${width.label}`;

    const player = await browser.newContext(options);
    const p = await player.newPage();
    for (const path of ["/", "/me", `/me?name=${encodeURIComponent(PLAYER)}`, "/pairings", "/standings", "/standings/rounds", "/clock",
      `/clock?table=${TABLE}`, `/table/${TABLE}`, "/login", "/projector"]) {
      await visit(p, `${BASE}${path}`, at(path));
    }
    await visit(p, `${BASE}/me/decisions?name=${encodeURIComponent(PLAYER)}`, at("/me/decisions"));
    // /me's own decisions, loaded when the disclosure is opened: the chart put in, read, and no wider than the phone.
    await p.goto(`${BASE}/me?name=${encodeURIComponent(PLAYER)}`, { waitUntil: "load" });
    await p.click("details.mine > summary");
    await p.waitForSelector("details.mine [data-loaded] svg", { timeout: 5000 });
    const wide = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    if (wide > 0) failures.push(`${at("/me's decisions opened")}: ${wide} px wider than the screen`);
    if (process.env.SHOTS) await p.screenshot({ path: `${process.env.SHOTS}/me-decisions-${width.label}.png`, fullPage: true });
    await audit(p, at("/me's decisions opened"));
    await visit(p, `${BASE}/__missing`, at("a missing page"));
    await player.close();

    for (const [role, name, pin] of [["floor", env("FLOOR"), env("FLOOR_PIN")], ["head", env("HEAD"), env("HEAD_PIN")]]) {
      const judge = await browser.newContext(options);
      const j = await judge.newPage();
      await login(j, name, pin);
      const paths = ["/judge", `/judge/table/${TABLE}`, `/judge/table/${env("FINISHED")}`, "/judge/players", "/judge/print",
        "/judge/decisions", `/judge/decisions?player=${encodeURIComponent(PLAYER)}`];
      for (const path of paths) await visit(j, `${BASE}${path}`, at(`${path} (${role} judge)`));
      await j.goto(`${BASE}/judge/print`);
      const prints = await j.$$eval("main a[href^='/judge/print/']", (as) => [...new Set(as.map((a) => a.getAttribute("href")))]);
      for (const path of prints) await visit(j, `${BASE}${path}`, at(`${path} (${role} judge)`));
      await judge.close();
    }

    const fresh = await browser.newContext(options);
    await visit(await fresh.newPage(), `${NEW}/setup`, at("/setup (serve --new)"));
    await fresh.close();

    const site = await browser.newContext(options);
    const s = await site.newPage();
    for (const file of siteFiles(SITE)) await visit(s, pathToFileURL(file).href, at(`site ${relative(SITE, file)}`));
    await site.close();
  }));
} finally {
  await browser.close();
}

console.log(`check-a11y: ${pagesChecked} pages checked, ${milder} moderate or minor findings (not failing)`);
if (failures.length) {
  console.error(`check-a11y: ${failures.length} serious or critical finding(s)`);
  process.exit(1);
}
