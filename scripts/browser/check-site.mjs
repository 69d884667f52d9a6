// Loads every page of an event's site in one headless Chromium, takes the screenshots and prints every printable
// page to PDF, for scripts/check-site.sh (which builds the event and the prints, then reads the PDFs page by page).
// A page fails when Chromium cannot load it, logs anything to its console, throws, asks for a file that is not
// there or draws nothing (no heading, no clock). Pages are loaded a few at a time, in a few tabs.
//
// Environment (set by scripts/check-site.sh):
//   SITE      the site's folder (`mmjudge site DIR --judges`)
//   PRINTS    the stand-alone prints' folder (its *.html, and sheets/ with index.html and library-*.html)
//   SHOTS     where the screenshots (NAME-desktop.png, NAME-phone.png) and the PDFs (NAME.pdf) go
//   CHROMIUM  the browser to drive
// Prints each problem on a line of its own (stderr) and exits 1 when there was any.
import { chromium } from "playwright-core";
import { readdirSync } from "node:fs";
import { basename, join, resolve } from "node:path";

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`check-site.mjs: ${name} is not set (run scripts/check-site.sh)`);
  return v;
};
const [SITE, PRINTS, SHOTS] = ["SITE", "PRINTS", "SHOTS"].map((name) => resolve(env(name)));
const problems = [];
const problem = (t) => { problems.push(t); console.error(`check-site: ${t}`); };
const html = (dir) => readdirSync(dir).filter((f) => f.endsWith(".html")).sort().map((f) => join(dir, f));
const url = (file) => `file://${file}`;
// What Playwright gives no time limit of its own (a print, a page's source, closing the browser): given up after
// `ms`, so a Chromium that stops answering fails the check instead of holding it.
const within = (ms, work) => {
  let timer;
  const late = new Promise((_, no) => { timer = setTimeout(() => no(new Error(`no answer within ${ms / 1000} s`)), ms); });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
};

const browser = await chromium.launch({ executablePath: env("CHROMIUM"), headless: true, args: ["--no-sandbox"] });

// Tabs, each loading one page after another (a new context costs half a second, a new page in one much less):
// every console line, script error and failed request is reported as a problem of the page the tab is on.
async function tabs(width, viewport) {
  const context = await browser.newContext({ viewport });
  return Promise.all(Array.from({ length: width }, async () => {
    const tab = { page: await context.newPage(), label: "" };
    tab.page.on("console", (m) => problem(`${tab.label}: console ${m.type()}: ${m.text()}`));
    tab.page.on("pageerror", (e) => problem(`${tab.label}: uncaught ${e.message}`));
    tab.page.on("requestfailed", (r) => problem(`${tab.label}: could not load ${r.url()} (${r.failure()?.errorText})`));
    return tab;
  }));
}

// Runs `work(tab, item)` over `items` in the given tabs, each tab on the next item once it is done; a tab first
// loads the item's file (`file` of the item) as the page labelled `label`.
async function each(tabs_, items, work) {
  const queue = [...items];
  await Promise.all(tabs_.map(async (tab) => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
      tab.label = item.label;
      try {
        await tab.page.goto(url(item.file), { waitUntil: "load", timeout: 30000 });
      } catch (e) {
        problem(`${item.label}: Chromium could not load it (${e.message.split("\n")[0]})`);
        // The tab's error page must not run into the next page's load.
        await tab.page.goto("about:blank").catch(() => {});
        continue;
      }
      await work(tab.page, item);
    }
  }));
}

const WIDTH = 3;
const desktop = await tabs(WIDTH, { width: 1280, height: 1000 });
const phone = await tabs(WIDTH, { width: 390, height: 844 });
const tall = await tabs(1, { width: 390, height: 2400 });

// Every page of the site loads, runs its scripts without an error and draws something.
const pages = html(SITE);
await each(desktop, pages.map((file) => ({ label: basename(file), file })), async (page, { label }) => {
  if (label === "clock.html") await page.waitForTimeout(1000);
  const dom = await within(10000, page.content()).catch(() => "");
  if (!dom.includes("</h1>") && !dom.includes('id="clock"')) problem(`${label}: nothing rendered`);
});

// Screenshots at desktop and phone width (what the window shows, as a phone's first look).
const shots = ["index", "round-1-standings", "round-2-pairings", "round-3-pairings", "round-1-slips", "round-3-slips",
  "round-1-notes", "decks", "judging"];
for (const [view, tabs_] of [["desktop", desktop], ["phone", phone]]) {
  await each(tabs_, shots.map((name) => ({ label: `${name} (${view})`, file: join(SITE, `${name}.html`), name })), async (page, { name }) => {
    await page.screenshot({ path: join(SHOTS, `${name}-${view}.png`) }).catch((e) => problem(`${name}: no ${view} screenshot (${e.message})`));
  });
}
// The pairings' prints at phone width, whole, in one tall screenshot.
await each(tall, ["pairings", "wall"].map((name) => ({ label: `${name} print (phone)`, file: join(PRINTS, `${name}.html`), name })), async (page, { name }) => {
  await page.screenshot({ path: join(SHOTS, `${name}-print-phone.png`) }).catch((e) => problem(`${name}: no phone screenshot (${e.message})`));
});

// Every printable page to PDF: the site's pages but the clock (as site-NAME.pdf), the stand-alone prints, the
// deck sheets' index (sheets-index.pdf) and each deck sheet.
const prints = [
  ...pages.filter((f) => basename(f) !== "clock.html").map((f) => [`site-${basename(f, ".html")}`, f]),
  ...html(PRINTS).map((f) => [basename(f, ".html"), f]),
  ["sheets-index", join(PRINTS, "sheets", "index.html")],
  ...html(join(PRINTS, "sheets")).filter((f) => basename(f).startsWith("library-")).map((f) => [basename(f, ".html"), f]),
].map(([name, file]) => ({ label: `${name} (print)`, file, name }));
await each(desktop, prints, async (page, { name }) => {
  await within(30000, page.pdf({ path: join(SHOTS, `${name}.pdf`), format: "Letter", margin: { top: "0.4in", right: "0.4in", bottom: "0.4in", left: "0.4in" } })).catch((e) => problem(`${name}: cannot print (${e.message})`));
});

await within(10000, browser.close()).catch((e) => problem(`Chromium did not close (${e.message})`));
console.log(`check-site: ${pages.length} pages loaded, ${shots.length * 2 + 2} screenshots, ${prints.length} PDFs`);
process.exit(problems.length ? 1 : 0);
