//! The set-up page as a newcomer walks it, mistakes included: a file chosen for the wrong step is refused in the
//! page's words with nothing written, the steps come in the order their figures need (the players before the
//! libraries, whose tables the players decide), a step is done only when it is (libraries for too few tables are
//! not), the judges' step is optional and pairing round 1 names the steps it waits for.

use crate::serve_setup_steps::{Head, example, refused, start};

fn page(server: &crate::serve::Server, head: &Head) -> String {
    let a = server.request("GET", "/judge/setup", &head.headers(false), "");
    assert_eq!(a.status, 200, "{}", a.body);
    a.body
}

/// The class and the state of step `id` on the page.
fn step(body: &str, id: &str) -> (String, String) {
    let at = body.find(&format!("id=\"step-{id}\"")).unwrap_or_else(|| panic!("step {id} on the page"));
    let class_at = body[..at].rfind("class=\"step ").expect("the step's class") + "class=\"step ".len();
    let class = body[class_at..].split('"').next().unwrap_or_default().to_string();
    let state_at = body[at..].find("<p class=\"state\">").expect("the step's state") + at + "<p class=\"state\">".len();
    let state = body[state_at..].split("</p>").next().unwrap_or_default().to_string();
    (class, state)
}

#[test]
fn a_wrong_file_or_a_step_too_early_is_refused_in_the_pages_words_with_nothing_written() {
    let (ev, server, head) = start();
    let empty = ev.dump();
    // The pool before the card reference: the step to do first, not a command line.
    let said = refused(&head.run(&server, "/api/pool/import?file=pool.csv", &example("pool.csv")), 409);
    assert!(said.contains("upload the card reference first"), "{said}");
    // The libraries before the pool.
    let built = head.post(&server, "/api/library/build", serde_json::json!({ "tables": 8 }));
    assert!(built.error(409).contains("upload the pool first"), "{}", built.body);
    // The pool's file as the players: refused naming its column and the step that takes it (it would make a
    // player of every card), in the page's words; the reference's file and MTGJSON's JSON the same way.
    let pool = refused(&head.run(&server, "/api/player/import?file=pool.csv", &example("pool.csv")), 400);
    assert_eq!(
        pool,
        "pool.csv: nothing imported: this looks like a card pool (it has a mana_cost column), not a list of \
         players; upload it in the Pool step (Upload the pool) on the set-up page instead; the players' file has a \
         name column, one player a line, and id and email if you have them"
    );
    let cards = refused(&head.run(&server, "/api/player/import?file=cards.csv", &example("cards.csv")), 400);
    assert!(cards.contains("a card reference (it has a mana_cost column)"), "{cards}");
    assert!(cards.contains("the Card reference step (Upload the cards)"), "{cards}");
    let json = r#"{"meta": {"date": "2025-01-01"}, "data": {"Abrade": [{"name": "Abrade"}]}}"#;
    let json = refused(&head.run(&server, "/api/player/import?file=AtomicCards.json", json), 400);
    assert!(json.starts_with("AtomicCards.json: nothing imported: this looks like card data in JSON"), "{json}");
    assert!(json.contains("Card reference step"), "{json}");
    for said in [pool, cards, json] {
        assert!(!said.contains("mmjudge") && !said.contains('`'), "no command on the web: {said}");
    }
    assert_eq!(ev.dump(), empty);
    let job = head.run(&server, "/api/cards/import?file=cards.csv", &example("cards.csv"));
    assert_eq!(job["state"], "done", "{job}");
    // The players' file as the pool: refused naming its columns, not player by player as unknown cards.
    let before = ev.dump();
    let said = refused(&head.run(&server, "/api/pool/import?file=players.csv", &example("players.csv")), 400);
    assert!(said.contains("this is a list of players") && said.contains("email"), "{said}");
    assert!(!said.contains("Zoë"), "{said}");
    assert_eq!(ev.dump(), before);
}

#[test]
fn the_steps_follow_what_the_event_holds_and_pairing_names_what_it_waits_for() {
    let (_ev, server, head) = start();
    let body = page(&server, &head);
    let order: Vec<usize> = ["step-cards", "step-pool", "step-players", "step-libraries", "step-judges", "step-pair"]
        .iter()
        .map(|id| body.find(id).unwrap_or_else(|| panic!("{id} on the page")))
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "the players before the libraries: {order:?}");
    // Before the players, no number of tables is offered; the judges' step is optional (a head judge may judge
    // alone); pairing names every step before it.
    assert!(
        body.contains(
            "id=\"build-tables\" name=\"tables\" type=\"number\" inputmode=\"numeric\" min=\"1\" max=\"500\" value=\"\""
        ),
        "{body}"
    );
    assert_eq!(step(&body, "judges").0, "optional");
    let (_, pair) = step(&body, "pair");
    assert_eq!(pair, "not paired yet: first the card reference, the pool, the players and the libraries");
    for (route, file) in
        [("/api/cards/import", "cards.csv"), ("/api/pool/import", "pool.csv"), ("/api/player/import", "players.csv")]
    {
        let job = head.run(&server, &format!("{route}?file={file}"), &example(file));
        assert_eq!(job["state"], "done", "{job}");
    }
    let body = page(&server, &head);
    assert!(body.contains("value=\"8\""), "the 16 players' 8 tables offered: {body}");
    assert_eq!(step(&body, "libraries").0, "next");
    // Libraries for one table: built, but the step is not done while the players need eight.
    let built = head.post(&server, "/api/library/build", serde_json::json!({ "tables": 1, "seed": 7 }));
    assert_eq!(built.status, 200, "{}", built.body);
    let body = page(&server, &head);
    let (class, state) = step(&body, "libraries");
    assert_eq!(class, "next", "{state}");
    assert!(state.contains("for 1 table") && state.contains("need 8 tables"), "{state}");
    assert_eq!(step(&body, "pair").1, "not paired yet: first the libraries");
    let built = head.post(&server, "/api/library/build", serde_json::json!({ "tables": 8, "seed": 7 }));
    assert_eq!(built.status, 200, "{}", built.body);
    let body = page(&server, &head);
    assert_eq!(step(&body, "libraries").0, "done");
    let (class, state) = step(&body, "pair");
    assert_eq!((class.as_str(), state.as_str()), ("next", "not paired yet: 16 players at 8 tables, ready"));
    // The build's answer names the page's own box for unusable cards, which the form has.
    assert!(body.contains("name=\"keep_unusable\""), "{body}");
}

/// A head judge adding a judge whose name is taken is told what they can do themselves, where the page offers
/// it: another name, or a new PIN for that judge with the Judges step's own "New PIN for a judge" (not to ask the
/// head judge, who is the one reading); that form gives the new PIN, and the old one stops working.
#[test]
fn a_name_taken_by_a_judge_is_answered_with_the_pages_own_new_pin_form() {
    let (ev, server, head) = start();
    let added = head.post(&server, "/api/judge/add", serde_json::json!({ "name": "Lee", "role": "floor" }));
    let old = added.json()["pin"].as_str().expect("Lee's PIN").to_string();
    let before = ev.dump();
    let again = head.post(&server, "/api/judge/add", serde_json::json!({ "name": "lee", "role": "head" }));
    assert_eq!(
        again.error(409),
        "a judge named Lee is already added; choose another name, or give Lee a new PIN with New PIN for a judge in \
         the Judges step on the set-up page (Judges, then Set up the event, or /judge/setup)"
    );
    assert_eq!(ev.dump(), before, "nothing written");
    // The page offers what the words name, in the Judges step: the form's summary and its button.
    let body = page(&server, &head);
    let judges = &body[body.find("id=\"step-judges\"").expect("the judges' step")..];
    let judges = &judges[..judges.find("id=\"step-pair\"").expect("the next step")];
    assert!(judges.contains("<summary>New PIN for a judge…</summary>"), "{judges}");
    assert!(judges.contains("data-route=\"/api/judge/pin\""), "{judges}");
    assert!(judges.contains("<button>Give a new PIN</button>"), "{judges}");
    let renewed = head.post(&server, "/api/judge/pin", serde_json::json!({ "name": "Lee" }));
    assert_eq!(renewed.status, 200, "{}", renewed.body);
    let new = renewed.json()["pin"].as_str().expect("the new PIN").to_string();
    assert_ne!(new, old);
    let login =
        |pin: &str| server.post_json("/api/login", None, &serde_json::json!({ "name": "Lee", "pin": pin })).status;
    assert_eq!(login(&old), 401, "the old PIN no longer logs Lee in");
    assert_eq!(login(&new), 200, "the new one does");
    // The command line says the same to whoever types at the event's computer: the command that renews it.
    let cli = ev.run(&["judge", "add", "Lee", "--role", "floor"]);
    assert!(
        cli.refused().contains(
            "a judge named Lee is already added: give a new PIN with `mmjudge judge pin \"Lee\"`, or choose another name"
        ),
        "{}",
        cli.stderr
    );
}

/// Late entries: libraries built for the 16 players' 8 tables, two players more need a ninth; pairing names the
/// Libraries step's own "More tables for late entries", whose form builds it from what is left in the pool (the
/// libraries built stay as they are), and round 1 pairs.
#[test]
fn late_entries_are_given_their_table_from_the_libraries_step() {
    let (ev, server, head) = start();
    for (route, file) in
        [("/api/cards/import", "cards.csv"), ("/api/pool/import", "pool.csv"), ("/api/player/import", "players.csv")]
    {
        let job = head.run(&server, &format!("{route}?file={file}"), &example(file));
        assert_eq!(job["state"], "done", "{job}");
    }
    let built = head.post(&server, "/api/library/build", serde_json::json!({ "tables": 8, "seed": 7 }));
    assert_eq!(built.status, 200, "{}", built.body);
    let added = head.post(&server, "/api/player/add", serde_json::json!({ "names": ["Late Ana", "Late Bo"] }));
    assert_eq!(added.status, 200, "{}", added.body);
    let before = ev.dump();
    let said = head.post(&server, "/api/round/pair", serde_json::json!({})).error(409);
    assert!(said.starts_with("18 players need 9 tables but only 8 exist"), "{said}");
    assert!(
        said.contains(
            "a head judge builds the missing table's libraries from what is left in the pool, without touching the \
             libraries in play, with More tables for late entries in the Libraries step on the set-up page"
        ),
        "{said}"
    );
    assert!(said.contains("(or builds every library again for 9 tables there)"), "before round 1: {said}");
    assert!(!said.contains("mmjudge") && !said.contains('`') && !said.contains("organiser"), "{said}");
    assert_eq!(ev.dump(), before, "nothing written");
    let body = page(&server, &head);
    let libraries = &body[body.find("id=\"step-libraries\"").expect("the libraries' step")..];
    let libraries = &libraries[..libraries.find("id=\"step-judges\"").expect("the next step")];
    assert!(libraries.contains("<summary>More tables for late entries (optional)…</summary>"), "{libraries}");
    assert!(libraries.contains("data-route=\"/api/library/add-tables\""), "{libraries}");
    let decks = |ev: &crate::harness::Event| ev.run(&["--json", "library", "show", "1A"]).stdout;
    let first = decks(&ev);
    let added = head.post(&server, "/api/library/add-tables", serde_json::json!({ "tables": 1 }));
    assert_eq!(added.status, 200, "{}", added.body);
    assert_eq!(decks(&ev), first, "the libraries built stay as they are");
    let paired = head.post(&server, "/api/round/pair", serde_json::json!({}));
    assert_eq!(paired.status, 200, "{}", paired.body);
}
