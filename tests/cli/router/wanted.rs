//! What waits for a judge comes first on the judges' dashboard: the players' open calls and their results in
//! conflict, right under the page's heading and its answer line (nothing there when nothing waits), each naming
//! the table, the players and what is wanted, with the table's page one tap away; the tables' list flags those
//! tables instead of "playing". A table's judge page in conflict links its result form from the reports.

use super::{Actor, Req, Site};
use serde_json::json;

/// The dashboard as Kim's page (a session cookie), its `'` unescaped.
fn dashboard(site: &Site) -> String {
    let token = site.login("Kim", &site.people.kim);
    site.send(Req::get("/judge").by(&Actor::Cookie(token))).body.replace("&#39;", "'")
}

/// The part of `page` from `from` to the end of the first `to` after it (empty when `from` is not there).
fn part<'a>(page: &'a str, from: &str, to: &str) -> &'a str {
    let Some(start) = page.find(from) else { return "" };
    let rest = &page[start..];
    rest.find(to).map_or(rest, |end| &rest[..end + to.len()])
}

/// Table `n`'s row of the dashboard's list of tables.
fn row(page: &str, n: u32) -> String {
    let link = format!("<a class=\"go\" href=\"/judge/table/{n}\">{n}</a>");
    let Some(at) = page.find(&link) else { return String::new() };
    let start = page[..at].rfind("<tr").unwrap_or(at);
    part(&page[start..], "<tr", "</tr>").to_string()
}

/// `since` instants and the seconds waited, which change from run to run, as `[since]` and `[waited]`.
fn steady(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(at) = rest.find("data-since=\"") {
        out.push_str(&rest[..at + 12]);
        out.push_str("[since]");
        rest = &rest[at + 12..];
        rest = rest.find('"').map_or("", |end| &rest[end..]);
        if let Some(close) = rest.find('>') {
            out.push_str(&rest[..=close]);
            rest = &rest[close + 1..];
            let waited = rest.find(" s<").filter(|&end| rest[..end].chars().all(|c| c.is_ascii_digit()));
            if let Some(end) = waited {
                out.push_str("[waited]");
                rest = &rest[end..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[test]
fn calls_and_results_in_conflict_come_first_on_the_dashboard_and_flag_their_tables() {
    let site = Site::playing();
    let quiet = dashboard(&site);
    assert!(!quiet.contains("id=\"wanted\"") && !quiet.contains("Waiting for a judge"), "{quiet}");
    assert!(row(&quiet, 1).contains(">playing</span>"), "{}", row(&quiet, 1));
    assert!(!quiet.contains("class=\"flag\""), "{quiet}");

    // Bo calls a judge at table 1; Cy and Di report different results at table 2.
    let call = site.send(Req::post("/api/call").json(json!({ "table": 1, "code": site.code("Bo") })).phone(2));
    assert_eq!(call.status, 200, "{}", call.body);
    for (who, phone) in [("Cy", 3), ("Di", 4)] {
        let report = json!({ "table": 2, "code": site.code(who), "winner": who, "by": "concession" });
        let sent = site.send(Req::post("/api/self-report").json(report).device(phone).phone(phone));
        assert_eq!(sent.status, 200, "{}", sent.body);
    }
    let page = dashboard(&site);
    // Right under the heading, the login line and the answer line: before the links, the round and its clock.
    let at = |what: &str| page.find(what).unwrap_or(usize::MAX);
    let wanted = at("<section class=\"wanted\" id=\"wanted\">");
    assert!(at("<h1>Judges</h1>") < wanted && at("<p class=\"who\">") < wanted, "{page}");
    assert!(wanted < at("<p class=\"links\">") && wanted < at("<section class=\"round\">"), "{page}");
    assert!(wanted < at("<thead><tr><th>Table</th><th>Players</th><th>State</th>"), "{page}");
    let section = part(&page, "<section class=\"wanted\"", "</section>");
    insta::assert_snapshot!("dashboard_waiting_for_a_judge", steady(section));
    // The conflict is not listed again with the reports waiting for a player's word.
    assert!(!page.contains("Self-reported results waiting"), "{page}");

    // The list of tables flags tables 1 and 2 instead of "playing"; table 3 has its result.
    let (one, two, three) = (row(&page, 1), row(&page, 2), row(&page, 3));
    assert!(one.contains("<strong class=\"flag\">judge called</strong>"), "{one}");
    assert!(two.contains("<strong class=\"flag\">results in conflict</strong>"), "{two}");
    for flagged in [&one, &two] {
        assert!(flagged.contains("class=\"table-row playing wanted\""), "{flagged}");
        assert!(flagged.contains("data-playing=\"\"></span>") && !flagged.contains(">playing<"), "{flagged}");
    }
    assert!(!three.contains("class=\"flag\"") && three.contains("Ed won by concession"), "{three}");

    // Table 2's judge page: the reports link the result form, which is there under that name.
    let token = site.login("Lee", &site.people.lee);
    let table = site.send(Req::get("/judge/table/2").by(&Actor::Cookie(token))).body;
    let reports = part(&table, "<div class=\"self-report conflict\">", "</div>");
    assert!(reports.contains("<a class=\"button\" href=\"#result\">Record the result</a>"), "{reports}");
    assert!(table.contains("<h2 id=\"result\">Result</h2>"), "{table}");
    assert!(table.find("href=\"#result\"") < table.find("<h2 id=\"result\">"), "{table}");
    // The challenge sheet's times are cells of their own (kept whole on a phone).
    assert!(part(&table, "<table class=\"evidence\">", "</table>").contains("<td class=\"time\">"), "{table}");
}

#[test]
fn a_report_waiting_for_the_opponent_is_no_call_for_a_judge() {
    let site = Site::playing();
    let report = json!({ "table": 2, "code": site.code("Cy"), "winner": "Cy", "by": "concession" });
    assert_eq!(site.send(Req::post("/api/self-report").json(report).device(3).phone(3)).status, 200);
    let page = dashboard(&site);
    assert!(!page.contains("id=\"wanted\""), "{page}");
    let waiting = part(&page, "<h2>Self-reported results waiting</h2>", "</table>");
    assert!(waiting.contains("waiting for Di") && waiting.contains("href=\"/judge/table/2\""), "{page}");
    assert!(row(&page, 2).contains(">playing</span>"), "{}", row(&page, 2));
}
