//! `mmjudge serve` with more requests at once than it lets work on the event file (the rest wait their
//! turn): every one is answered, and live updates still reach the phones.

use crate::harness::Event;
use crate::serve::{Events, Server, judge};
use std::time::Duration;

#[test]
fn a_burst_of_page_loads_and_a_write_are_all_answered_and_the_update_still_reaches_the_phones() {
    let ev = Event::new();
    ev.run(&["player", "add", "Ana", "Bo", "Cy", "Di"]).ok();
    ev.seat_round(1, &[(1, "Ana", "Bo"), (2, "Cy", "Di")]);
    ev.run(&["round", "start"]).ok();
    let pin = judge(&ev, "Kim", "floor");
    let server = Server::start(&ev);
    let token = server.login("Kim", &pin);
    let mut events = Events::open(&server);
    let pages = ["/", "/pairings", "/standings", "/me?name=cy", "/api/tables", "/judge/table/2"];
    let (statuses, write) = std::thread::scope(|s| {
        let loads: Vec<_> = (0..48)
            .map(|i| {
                let (server, token) = (&server, token.as_str());
                s.spawn(move || (pages[i % pages.len()], server.get_as(pages[i % pages.len()], token).status))
            })
            .collect();
        let body = serde_json::json!({ "table": 1, "winner": "Ana", "by": "life", "life": [9, 0] });
        let write = server.post_json("/api/result", Some(&token), &body);
        let statuses: Vec<_> = loads.into_iter().map(|l| l.join().expect("a page load")).collect();
        (statuses, write)
    });
    assert!(statuses.iter().all(|(_, status)| *status == 200), "{statuses:?}");
    assert_eq!(write.status, 200, "{}", write.body);
    events.wait_for("result", Duration::from_secs(10));
    assert!(server.get("/api/tables").json()["tables"][0]["result"].as_str().is_some_and(|r| r.contains("Ana won")));
}
