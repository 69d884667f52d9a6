//! Free text refuses every invisible and direction character, on every route that takes free text: a control
//! character (C0, DEL, C1), the bidi overrides and isolates, the marks LRM, RLM and ALM, the line and paragraph
//! separators and the zero-width space, word joiner and byte-order mark inside text. Each answers 400 with a JSON
//! error in the web's words naming no command, and writes nothing; the joiners ZWNJ and ZWJ pass (some scripts
//! and emoji need them).

use super::*;

/// Who sends a write.
enum By {
    /// Kim, head judge.
    Kim,
    /// A player by code (the body names the code).
    Player,
}

/// Each class, one character of it.
const REFUSED: &[(&str, char)] = &[
    ("a C0 control (ESC)", '\u{1b}'),
    ("DEL", '\u{7f}'),
    ("a C1 control", '\u{85}'),
    ("a bidi override (RLO)", '\u{202e}'),
    ("a bidi isolate (RLI)", '\u{2067}'),
    ("LRM", '\u{200e}'),
    ("RLM", '\u{200f}'),
    ("ALM", '\u{061c}'),
    ("the line separator", '\u{2028}'),
    ("the paragraph separator", '\u{2029}'),
    ("a zero-width space", '\u{200b}'),
    ("the word joiner", '\u{2060}'),
    ("a byte-order mark", '\u{feff}'),
];

/// Every route a judge or a player writes free text to: its path, who sends it, a body that is taken, and the
/// free-text field in it (a list holds one text).
fn fields(site: &Site) -> Vec<(&'static str, By, Value, &'static str)> {
    let cy = site.code("Cy");
    vec![
        ("/api/ruling", By::Kim, json!({ "table": 1, "text": "Bo keeps the card" }), "text"),
        ("/api/extend", By::Kim, json!({ "table": 1, "minutes": 2, "reason": "deck check" }), "reason"),
        ("/api/penalty", By::Kim, json!({ "player": "bo", "infraction": "slow play", "note": "twice" }), "note"),
        ("/api/result", By::Kim, json!({ "table": 1, "winner": "Ana", "by": "life", "note": "fine" }), "note"),
        (
            "/api/challenge",
            By::Kim,
            json!({ "table": 1, "by": "bo", "about": "B1 Demonic Tutor", "ruling": "denied" }),
            "about",
        ),
        (
            "/api/challenge",
            By::Kim,
            json!({ "table": 1, "by": "bo", "about": "B1", "ruling": "denied", "by_says": "it tutors" }),
            "by_says",
        ),
        (
            "/api/challenge",
            By::Kim,
            json!({ "table": 1, "by": "bo", "about": "B1", "ruling": "denied", "other_says": "it does not" }),
            "other_says",
        ),
        ("/api/call", By::Player, json!({ "table": 2, "code": cy, "reason": "a rules question" }), "reason"),
    ]
}

/// Every route that takes a new name: a name refuses controls and bidi controls, and is stored without the
/// other invisible characters (`domain::names::clean_name`), so either answer keeps them out of the event.
fn names() -> Vec<(&'static str, Value, &'static str)> {
    vec![
        ("/api/player/add", json!({ "names": ["Zed Late"] }), "names"),
        ("/api/player/rename", json!({ "name": "Ana", "to": "Ana Maria" }), "to"),
        ("/api/judge/add", json!({ "name": "Max Floor", "role": "floor" }), "name"),
    ]
}

/// The body with `text` put in the middle of its free-text field.
fn with(body: &Value, field: &str, c: char) -> Value {
    let mut body = body.clone();
    let put = |v: &mut Value| {
        if let Some(s) = v.as_str() {
            let (a, b) = s.split_at(s.len() / 2);
            *v = Value::String(format!("{a}{c}{b}"));
        }
    };
    match body.get_mut(field) {
        Some(Value::Array(items)) => items.iter_mut().for_each(put),
        Some(v) => put(v),
        None => panic!("no field {field}"),
    }
    body
}

#[test]
fn every_free_text_field_refuses_each_invisible_character_class_and_keeps_the_joiners() {
    let site = Site::playing();
    let (kim, _) = site.judges();
    let send = |path: &str, by: &By, body: Value| {
        // A new app for each write: this test sends more writes than a judge's burst (120; the pace has its own
        // tests), and the login lives in the event file.
        site.restart();
        let req = Req::post(path).json(body);
        site.send(match by {
            By::Kim => req.by(&kim),
            By::Player => req,
        })
    };
    let mut failed = Vec::new();
    let before = site.ev.dump();
    for (path, by, body, field) in fields(&site) {
        for (class, c) in REFUSED {
            let a = send(path, &by, with(&body, field, *c));
            let error = a.json()["error"].as_str().map(str::to_string).unwrap_or_default();
            if a.status != 400 || error.is_empty() || names_a_command(&error) || error.contains(*c) {
                failed.push(format!("{path} {field} with {class}: {} {}", a.status, a.body));
            }
        }
    }
    if site.ev.dump() != before {
        failed.push("a refused free text changed the event".into());
    }
    for (path, body, field) in names() {
        for (class, c) in REFUSED {
            let a = send(path, &By::Kim, with(&body, field, *c));
            let error = a.json()["error"].as_str().map(str::to_string).unwrap_or_default();
            let refused = matches!(a.status, 400 | 409) && !error.is_empty() && !names_a_command(&error);
            if !(refused || a.status == 200) || a.body.contains(*c) {
                failed.push(format!("{path} {field} with {class}: {} {}", a.status, a.body));
            }
        }
    }
    let dump = site.ev.dump();
    for (class, c) in REFUSED {
        if dump.contains(*c) {
            failed.push(format!("{class} was stored in the event"));
        }
    }
    // The joiners stay: a ruling with a ZWJ (an emoji family) and a ZWNJ (Persian) is taken.
    let joined = send("/api/ruling", &By::Kim, json!({ "table": 1, "text": "Bo 👩\u{200d}👧 می\u{200c}خواهد" }));
    if joined.status != 200 {
        failed.push(format!("a ruling with the joiners was refused: {} {}", joined.status, joined.body));
    }
    assert!(failed.is_empty(), "{} failed:\n{}", failed.len(), failed.join("\n"));
}
