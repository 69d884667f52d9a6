//! The charts (#47) draw the command line's numbers: on a demo event, every mark's `data-value` (and its other
//! `data-` figures) is found in the JSON the command line gives for the same thing.

use crate::harness::Event;
use serde_json::Value;
use std::sync::OnceLock;

/// A demo event of 16 players and 4 rounds, made once; each test works on its own copy.
fn demo() -> Event {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    let bytes = BYTES.get_or_init(|| {
        let ev = Event::empty();
        let (db, out) = (ev.path("demo.db"), ev.path("demo-out"));
        let (db, out) = (db.to_string_lossy().to_string(), out.to_string_lossy().to_string());
        ev.run(&["--db", &db, "demo", "--players", "16", "--rounds", "4", "--out", &out, "--seed", "7"]).ok();
        std::fs::read(&db).expect("the demo's event")
    });
    let ev = Event::empty();
    std::fs::write(ev.db(), bytes).expect("a copy");
    ev
}

/// HTML's escapes of a name, undone.
fn unescape(s: &str) -> String {
    s.replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// The value of attribute `name` in each tag of `html` that has it, in order.
pub fn attrs(html: &str, name: &str) -> Vec<String> {
    let key = format!(" {name}=\"");
    html.match_indices(&key)
        .map(|(at, _)| {
            let rest = &html[at + key.len()..];
            rest[..rest.find('"').unwrap_or(0)].to_string()
        })
        .collect()
}

/// The `<g data-value ...>` marks of `html` as (value, limit, overrun, claimed) figures.
fn decision_marks(html: &str) -> Vec<[String; 4]> {
    html.split("<g data-value=")
        .skip(1)
        .map(|g| {
            let tag = format!(" data-value={}", &g[..g.find('>').unwrap_or(g.len())]);
            let one = |n: &str| attrs(&tag, n).into_iter().next().unwrap_or_default();
            [one("data-value"), one("data-limit"), one("data-overrun"), one("data-claimed")]
        })
        .collect()
}

/// A JSON decision as the marks give it.
fn decision_figures(d: &Value) -> [String; 4] {
    let n = |k: &str| d[k].as_i64().map(|v| v.to_string()).unwrap_or_default();
    [n("duration_ms"), n("limit_ms"), n("overrun_ms"), n("claimed_ms")]
}

#[test]
fn the_slow_play_charts_draw_every_decision_of_decisions_json_all() {
    let ev = demo();
    let doc = ev.run(&["--json", "decisions", "--all"]).json();
    let all = doc["decisions"].as_array().expect("decisions --all lists every decision").clone();
    assert!(all.len() > 50, "the demo times decisions: {}", all.len());
    ev.run(&["decisions", "--html", "slow.html"]).ok();
    let html = std::fs::read_to_string(ev.path("slow.html")).expect("the page");
    let sections: Vec<&str> = html.split("<section class=\"player-decisions\"").skip(1).collect();
    assert_eq!(sections.len(), 16, "the first 16 of the ranking are drawn");
    let mut drawn = 0;
    for s in &sections {
        let h2 = &s[s.find("<h2>").expect("a heading") + 4..s.find("</h2>").expect("its end")];
        let player = unescape(h2.split_once(". ").map_or(h2, |(_, p)| p));
        let theirs: Vec<[String; 4]> =
            all.iter().filter(|d| d["player"] == player.as_str()).map(decision_figures).collect();
        assert!(!theirs.is_empty(), "{player} has decisions in the JSON");
        assert_eq!(decision_marks(s), theirs, "{player}'s marks are their decisions, in order");
        drawn += theirs.len();
    }
    assert!(drawn > 0);
    // The ranking's order: most overruns first, then the longest median.
    let ranked: Vec<&Value> = doc["players"].as_array().expect("players").iter().collect();
    let overruns_first = sections.iter().zip(1..).all(|(s, i)| s.contains(&format!("<h2>{i}. ")));
    assert!(overruns_first && !ranked.is_empty());
    // One player asked for: their chart only, the same marks.
    let first = all[0]["player"].as_str().expect("a name").to_string();
    ev.run(&["decisions", "--html", "one.html", "--player", &first]).ok();
    let one = std::fs::read_to_string(ev.path("one.html")).expect("the page");
    assert_eq!(one.matches("<section class=\"player-decisions\"").count(), 1);
    let theirs: Vec<[String; 4]> = all.iter().filter(|d| d["player"] == first.as_str()).map(decision_figures).collect();
    assert_eq!(decision_marks(&one), theirs);
    // The player's own chart (/me/decisions, opened from /me): the same marks.
    let store = mmjudge::store::Store::open(&ev.db()).expect("the event");
    let stats = store
        .read(|conn| mmjudge::ops::table::clocks::decisions::decision_stats(conn, None, Some(&first), true))
        .expect("their decisions");
    let own = mmjudge::render::decisions::own(&stats, &first).expect("drawn").expect("they took decisions");
    assert_eq!(decision_marks(&own.chart), theirs, "/me's chart draws decisions --json --all's");
}

#[test]
fn the_library_chart_draws_report_libraries_json() {
    let ev = demo();
    let doc = ev.run(&["--json", "report", "libraries"]).json();
    ev.run(&["report", "libraries", "--html", "libraries.html"]).ok();
    let html = std::fs::read_to_string(ev.path("libraries.html")).expect("the page");
    let (values, lows, highs) = (attrs(&html, "data-value"), attrs(&html, "data-low"), attrs(&html, "data-high"));
    let libraries = doc["libraries"].as_array().expect("libraries");
    assert_eq!(values.len(), libraries.len() + 2, "a mark for each library, then seat A and seat B");
    let f = |v: &Value| format!("{:.4}", v.as_f64().unwrap_or(-1.0));
    for (i, l) in libraries.iter().enumerate() {
        assert_eq!(values[i], f(&l["win_rate"]), "{l}");
        assert_eq!((lows[i].clone(), highs[i].clone()), (f(&l["interval"][0]), f(&l["interval"][1])), "{l}");
    }
    // Seat A against seat B: seat A's record, and seat B's as its mirror.
    let seat = &doc["seat_a"];
    let n = libraries.len();
    assert!(seat["games"].as_u64().unwrap_or(0) > 0, "{seat}");
    assert_eq!(
        (values[n].clone(), lows[n].clone(), highs[n].clone()),
        (f(&seat["win_rate"]), f(&seat["interval"][0]), f(&seat["interval"][1]))
    );
    let mirror = |v: &Value| format!("{:.4}", 1.0 - v.as_f64().unwrap_or(-1.0));
    assert_eq!(
        (values[n + 1].clone(), lows[n + 1].clone(), highs[n + 1].clone()),
        (mirror(&seat["win_rate"]), mirror(&seat["interval"][1]), mirror(&seat["interval"][0]))
    );
    // The judges' site draws the same two charts.
    ev.run(&["site", "site", "--judges"]).ok();
    let site = std::fs::read_to_string(ev.path("site/libraries.html")).expect("the site's page");
    assert_eq!(attrs(&site, "data-value"), values);
}

#[test]
fn the_curve_chart_draws_library_list_json() {
    let ev = demo();
    let doc = ev.run(&["--json", "library", "list"]).json();
    let target = doc["target_curve"].as_array().expect("a target curve").clone();
    ev.run(&["pool", "check", "--html", "pool.html"]).ok();
    let html = std::fs::read_to_string(ev.path("pool.html")).expect("the page");
    let marks: Vec<&str> = html.split("<g data-value=\"").skip(1).collect();
    let of = |kind: &str| -> Vec<String> {
        marks
            .iter()
            .filter(|g| g[..g.find('>').unwrap_or(0)].contains(&format!("data-marks=\"{kind}\"")))
            .map(|g| format!(" data-value=\"{}", &g[..g.find('>').unwrap_or(0)]))
            .collect()
    };
    let targets: Vec<String> = of("target").iter().flat_map(|g| attrs(g, "data-value")).collect();
    let expected: Vec<String> = target.iter().map(|v| format!("{:.1}", v.as_f64().unwrap_or(-1.0))).collect();
    assert_eq!(targets, expected, "each bar is the target_curve's");
    // Each mana value's libraries: the fewest, the median and the most of library list's fixed curves.
    let fixed: Vec<Vec<u64>> = doc["libraries"]
        .as_array()
        .expect("libraries")
        .iter()
        .filter(|l| !l["table"].is_null())
        .map(|l| l["curve"].as_array().expect("a curve").iter().filter_map(Value::as_u64).collect())
        .collect();
    assert!(!fixed.is_empty());
    let ranges = of("libraries");
    assert_eq!(ranges.len(), 7);
    for (b, g) in ranges.iter().enumerate() {
        let mut counts: Vec<u64> = fixed.iter().map(|c| c[b]).collect();
        counts.sort_unstable();
        let n = counts.len();
        let median = if n % 2 == 1 { counts[n / 2] as f64 } else { (counts[n / 2 - 1] + counts[n / 2]) as f64 / 2.0 };
        let one = |name: &str| attrs(g, name).into_iter().next().unwrap_or_default();
        assert_eq!(one("data-value"), format!("{median:.1}"), "mana value {b}");
        assert_eq!(
            (one("data-low"), one("data-high")),
            (counts[0].to_string(), counts[n - 1].to_string()),
            "mana value {b}"
        );
    }
}

/// Minutes from `from` to `to` (RFC 3339), to a tenth, as the charts write them.
fn minutes(from: &str, to: &str) -> String {
    let t = |s: &str| chrono::DateTime::parse_from_rfc3339(s).expect("a moment").timestamp_millis() as f64;
    format!("{:.1}", ((t(to) - t(from)) / 60_000.0 * 10.0).round() / 10.0)
}

#[test]
fn the_progress_chart_draws_results_json_moments_and_time_json_extensions() {
    let ev = demo();
    let results = ev.run(&["--json", "results"]).json();
    let time = ev.run(&["--json", "time"]).json();
    let start = time["started_at"].as_str().expect("the round's start").to_string();
    // The dashboard's chart, drawn as the dashboard draws it.
    let store = mmjudge::store::Store::open(&ev.db()).expect("the event");
    let now = chrono::Utc::now();
    let d = mmjudge::ops::live::dashboard(&store, now).expect("the dashboard");
    let round = d.home.round.as_ref().expect("a round");
    let p = mmjudge::ops::round::progress::progress(&store, round, &d.tables, now).expect("read").expect("started");
    let svg = mmjudge::render::progress::ProgressChart::new(&p).render().expect("drawn");
    let mut done: Vec<String> = results["tables"]
        .as_array()
        .expect("tables")
        .iter()
        .filter_map(|t| t["at"].as_str())
        .map(|at| minutes(&start, at))
        .collect();
    done.sort_by(|a, b| a.parse::<f64>().unwrap_or(0.0).total_cmp(&b.parse::<f64>().unwrap_or(0.0)));
    assert!(done.len() > 3, "{results}");
    assert_eq!(attrs(&svg, "data-minutes"), done, "each point is a result's moment");
    // The projector draws the same points from its own read of the round.
    let wall = mmjudge::ops::projector::projector(&store, now).expect("the projector's view");
    let theirs = wall.round.and_then(|r| r.progress).expect("the projector's progress");
    let wall_svg = mmjudge::render::progress::ProgressChart::new(&theirs).render().expect("drawn");
    assert_eq!(attrs(&wall_svg, "data-minutes"), done, "the projector's points are the results' moments too");
    let counts: Vec<String> = (1..=done.len()).map(|n| n.to_string()).collect();
    let finished: Vec<String> = svg
        .split("<g data-value=\"")
        .skip(1)
        .filter(|g| g.contains("data-minutes"))
        .map(|g| g[..g.find('"').unwrap_or(0)].to_string())
        .collect();
    assert_eq!(finished, counts, "each point's value is the tables finished by then");
    let minutes_set = time["settings"]["round_minutes"].as_f64().expect("round minutes");
    assert!(svg.contains(&format!("data-value=\"{minutes_set:.1}\" data-marks=\"time\"")), "{svg}");
    for t in time["tables"].as_array().expect("tables") {
        let ext = t["extension_secs"].as_f64().unwrap_or(0.0);
        if ext > 0.0 {
            let at = format!("data-value=\"{:.1}\"", minutes_set + ext / 60.0);
            assert!(svg.contains(&at), "table {}'s extension is marked at {at}: {svg}", t["table"]);
        }
    }
}

/// Each `<g data-player=...>` series of `html`: (player, the data-values of its marks).
fn series(html: &str) -> Vec<(String, Vec<u32>)> {
    html.split("<g data-player=\"")
        .skip(1)
        .map(|g| {
            let name = unescape(&g[..g.find('"').unwrap_or(0)]);
            let body = &g[..g.find("</g>").unwrap_or(g.len())];
            (name, attrs(body, "data-value").iter().filter_map(|v| v.parse().ok()).collect())
        })
        .collect()
}

#[test]
fn the_standings_chart_draws_each_rounds_standings_json_points() {
    let ev = demo();
    ev.run(&["site", "site"]).ok();
    let last = ev.run(&["--json", "standings"]).json();
    assert_eq!(last["final"], true, "the demo ends its event");
    let rounds = last["round"].as_u64().expect("a round") as u32;
    let html = std::fs::read_to_string(ev.path(&format!("site/round-{rounds}-standings.html"))).expect("the page");
    let drawn = series(&html);
    assert_eq!(drawn.len(), 16, "the top 16 are drawn");
    let winner = last["winner"][0].as_str().expect("a winner");
    assert!(
        html.contains(&format!("Final standings: {}", winner.replace('\'', "&#39;"))),
        "the chart names the winner"
    );
    let by_round: Vec<Value> =
        (1..=rounds).map(|r| ev.run(&["--json", "standings", "--round", &r.to_string()]).json()).collect();
    for (name, values) in &drawn {
        // The points after each round the player was ranked in are those rounds' standings' points.
        let expected: Vec<u32> = by_round
            .iter()
            .filter_map(|s| {
                s["standings"]
                    .as_array()?
                    .iter()
                    .find(|l| l["name"] == name.as_str())
                    .and_then(|l| l["points"].as_u64())
            })
            .map(|p| p as u32)
            .collect();
        assert_eq!(values, &expected, "{name}'s points by round");
    }
    // The page on the server draws the same, and a player found beyond the top 16 too.
    let store = mmjudge::store::Store::open(&ev.db()).expect("the event");
    let p = store.read(|conn| mmjudge::ops::standings::by_round::points_by_round(conn, None)).expect("points");
    let svg = mmjudge::render::points::PointsChart::new(&p).render().expect("drawn");
    assert_eq!(series(&svg), drawn);
}
