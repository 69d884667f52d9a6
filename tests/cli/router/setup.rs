//! The set-up link's routes on an event that exists (not started with `serve --new`): the page goes to the
//! judges' dashboard, and `POST /api/setup` is refused whatever it carries.

use super::{Req, Site, case};
use serde_json::json;

#[test]
fn an_event_that_exists_takes_no_set_up() {
    let site = Site::paired();
    let page = site.send(Req::get("/setup"));
    assert_eq!(page.status, 303, "{}", page.body);
    assert_eq!(page.header("location"), Some("/judge"));
    let body = json!({ "token": "0".repeat(32), "event": "X", "rounds": 3, "head_judge": "Eve" });
    site.refusals(vec![case(Req::post("/api/setup").json(body), 409, "set up already")]);
}
