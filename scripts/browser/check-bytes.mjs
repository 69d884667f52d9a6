// Counts the bytes a phone receives for one result, from Chromium's own network events (a CDP session per
// page): phones on /pairings, on /me (a player of the table whose result is recorded, and one of another table)
// and on the projector, each at phone width, listening live. A result is recorded with the command line; each
// page must show it (its body's data-updated changes) within a second, and what the phone received for it
// (the live event with its SSE framing, and any answer it fetched, headers included, as Chromium counts them
// on the wire) must stay under 2 KB; /pairings's header must count the tables finished as the server does after
// each result. Any page error fails the check (exit 1).
//
// Run by scripts/check-bytes.sh, which builds the event and starts the server. Environment:
//   BASE      the server's address (http://127.0.0.1:PORT)
//   BIN       the mmjudge binary, MMJUDGE_DB the event file (for the command line's result)
//   CHROMIUM  the browser to drive
import { chromium } from "playwright-core";
import { execFileSync } from "node:child_process";

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`check-bytes.mjs: ${name} is not set (run scripts/check-bytes.sh)`);
  return v;
};
const BASE = env("BASE");
const BIN = env("BIN");
const LIMIT_BYTES = 2048; // the bound for one result on /pairings, /me or the projector
const LIVE_LIMIT_MS = 1000;
const problems = [];
const problem = (t) => { problems.push(t); console.error(`check-bytes: ${t}`); };

// A phone on `path`, its network counted from the moment `count.from` is set.
async function phone(browser, label, path) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  page.on("pageerror", (e) => problem(`${label}: page error ${e.message}`));
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  const count = { on: false, streams: new Set(), hello: false, sse: 0, framed: 0, fetched: 0, requests: [] };
  cdp.on("Network.requestWillBeSent", (e) => {
    if (e.type === "EventSource") count.streams.add(e.requestId);
    if (count.on && !count.streams.has(e.requestId)) count.requests.push(e.request.url.replace(BASE, ""));
  });
  cdp.on("Network.dataReceived", (e) => {
    if (count.on && count.streams.has(e.requestId)) count.sse += e.encodedDataLength;
  });
  cdp.on("Network.eventSourceMessageReceived", (e) => {
    if (e.eventName === "hello") count.hello = true;
    // The event as it travels: its name, id and data lines and the blank line after.
    if (count.on) count.framed += `event: ${e.eventName}\nid: ${e.eventId}\ndata: ${e.data}\n\n`.length;
  });
  cdp.on("Network.loadingFinished", (e) => {
    if (count.on && !count.streams.has(e.requestId)) count.fetched += e.encodedDataLength;
  });
  await page.goto(BASE + path);
  await page.waitForFunction(() => document.readyState === "complete");
  // Listening: the stream's hello came (the server sends it once it listens for changes; a result recorded
  // before that never reaches this phone). Not a stream merely asked for and a moment given: on a loaded
  // machine it opens later.
  const start = Date.now();
  while (!count.hello && Date.now() - start < 10000) await page.waitForTimeout(50);
  if (!count.hello) problem(`${label}: its live stream did not open within 10 s`);
  return { label, page, count, context };
}

const updated = (p) => p.page.evaluate(() => document.body.getAttribute("data-updated") || "");

async function result(phones, table, winner) {
  const before = await Promise.all(phones.map(updated));
  for (const p of phones) Object.assign(p.count, { on: true, sse: 0, framed: 0, fetched: 0, requests: [] });
  const t0 = Date.now();
  execFileSync(BIN, ["result", String(table), winner, "--by", "concession"], { stdio: "ignore" });
  const shown = await Promise.all(phones.map(async (p, i) => {
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline) {
      if ((await updated(p)) !== before[i]) return Date.now() - t0;
      await p.page.waitForTimeout(20);
    }
    return null;
  }));
  await phones[0].page.waitForTimeout(400); // what arrives after it showed counts too
  phones.forEach((p, i) => {
    p.count.on = false;
    const sse = Math.max(p.count.sse, p.count.framed);
    const bytes = sse + p.count.fetched;
    const fetched = p.count.requests.length ? ` + fetched ${p.count.requests.join(", ")}: ${p.count.fetched} B` : "";
    console.log(`check-bytes: table ${table}'s result on ${p.label}: ${bytes} B (live event ${sse} B${fetched}), shown in ${shown[i] ?? "—"} ms`);
    if (shown[i] === null) problem(`${p.label} did not show table ${table}'s result`);
    else if (shown[i] > LIVE_LIMIT_MS + 250) problem(`${p.label} showed table ${table}'s result after ${shown[i]} ms`);
    if (bytes > LIMIT_BYTES) problem(`${p.label} received ${bytes} B for one result (the bound is ${LIMIT_BYTES})`);
  });
  await header(phones[0], `table ${table}'s result`);
}

// The header of /pairings counts the round's tables finished as the server does (a live row swap keeps it true).
async function header(p, after) {
  const all = (await (await fetch(BASE + "/api/tables")).json()).tables;
  const want = `${all.filter((t) => t.result).length} of ${all.length} tables finished.`;
  const said = await p.page.evaluate(() => document.querySelector("p[data-finished]")?.textContent || "");
  console.log(`check-bytes: ${p.label}'s header after ${after}: ${said}`);
  if (said !== want) problem(`${p.label}'s header says "${said}" after ${after}, not "${want}"`);
}

// The first load of the pages every phone opens, on the wire (the page's own answer, headers included), against
// the figures measured on this event before the pages drew any chart (#47): a phone that opens no chart must not
// receive more than 10 % over them. FIRST_LOAD_BEFORE=1 prints the figures only (to measure another build).
const FIRST_LOAD = { "/": 1082, "/pairings": 3735, "/standings": 1605, "/me": 1667 };
async function firstLoads(browser, meName) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  for (const path of Object.keys(FIRST_LOAD)) {
    const url = path === "/me" ? "/me?name=" + encodeURIComponent(meName) : path;
    await page.goto(BASE + url, { waitUntil: "load" });
    const size = await page.evaluate(() => performance.getEntriesByType("navigation")[0].transferSize);
    const bound = Math.round(FIRST_LOAD[path] * 1.1);
    console.log(`check-bytes: ${path} first load: ${size} B on the wire (before the charts: ${FIRST_LOAD[path]} B)`);
    if (!process.env.FIRST_LOAD_BEFORE && size > bound) problem(`${path}'s first load is ${size} B, over ${bound} B (10 % over ${FIRST_LOAD[path]} B)`);
  }
  await context.close();
}

const browser = await chromium.launch({ executablePath: env("CHROMIUM"), headless: true, args: ["--no-sandbox"] });
try {
  const tables = await (await fetch(BASE + "/api/tables")).json();
  const at = (n) => tables.tables.find((t) => t.table === n);
  const [mine, other] = [at(5), at(6)];
  const name = mine.seats[0].player;
  const phones = [
    await phone(browser, "/pairings", "/pairings"),
    await phone(browser, `/me (table 5)`, "/me?name=" + encodeURIComponent(name)),
    await phone(browser, "/projector", "/projector"),
  ];
  const size = await phones[0].page.evaluate(() => performance.getEntriesByType("navigation")[0].transferSize);
  console.log(`check-bytes: /pairings first load at ${tables.tables.length} tables: ${size} B on the wire`);
  if (size > 60 * 1024) problem(`/pairings's first load is ${size} B (the bound is 60 KB)`);
  await header(phones[0], "its first load");
  await firstLoads(browser, name);
  await result(phones, 5, name);
  await result(phones, 6, other.seats[1].player);
} finally {
  await browser.close();
}
if (problems.length) {
  console.error(`check-bytes: ${problems.length} problem(s)`);
  process.exit(1);
}
console.log("check-bytes: every phone showed each result within a second, each under 2 KB");
