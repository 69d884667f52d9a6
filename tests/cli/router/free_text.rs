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
        (
            "/api/ban/add",
            By::Kim,
            json!({ "name": "Mind Twist", "group": "too-powerful", "reason": "too strong", "force": true }),
            "reason",
        ),
        ("/api/pool/watch/add", By::Kim, json!({ "name": "Mind Twist", "note": "strong", "force": true }), "note"),
        ("/api/event/set", By::Kim, json!({ "key": "name", "value": "Open 2026" }), "value"),
    ]
}

/// Each route's free-text field and the longest text it takes (the table of `domain::bounds`), with the field's
/// label its refusal names.
fn bounded(site: &Site) -> Vec<(&'static str, Value, &'static str, usize, &'static str)> {
    let _ = site;
    vec![
        ("/api/ruling", json!({ "table": 1, "text": "" }), "text", 2_000, "the ruling"),
        ("/api/result", json!({ "table": 1, "winner": "Ana", "by": "life", "note": "" }), "note", 2_000, "the note"),
        ("/api/extend", json!({ "table": 1, "minutes": 2, "reason": "" }), "reason", 500, "the reason"),
        (
            "/api/ban/add",
            json!({ "name": "Mind Twist", "group": "too-powerful", "reason": "", "force": true }),
            "reason",
            500,
            "the ban's reason",
        ),
        ("/api/pool/watch/add", json!({ "name": "Mind Twist", "note": "", "force": true }), "note", 500, "the note"),
        ("/api/event/set", json!({ "key": "name", "value": "" }), "value", 120, "the name"),
        ("/api/player/add", json!({ "names": [""] }), "names", 80, "is 81 characters long"),
        ("/api/judge/add", json!({ "name": "", "role": "floor" }), "name", 80, "is 81 characters long"),
    ]
}

/// The body with its field filled with `n` letters.
fn filled(body: &Value, field: &str, n: usize) -> Value {
    let mut body = body.clone();
    let text = Value::String("a".repeat(n));
    match body.get_mut(field) {
        Some(Value::Array(items)) => items.iter_mut().for_each(|v| *v = text.clone()),
        Some(v) => *v = text,
        None => panic!("no field {field}"),
    }
    body
}

#[test]
fn every_free_text_field_takes_its_bound_and_refuses_one_character_more_naming_the_field() {
    let site = Site::playing();
    let (kim, _) = site.judges();
    let send = |path: &str, body: Value| {
        site.restart();
        site.send(Req::post(path).json(body).by(&kim))
    };
    let mut failed = Vec::new();
    for (path, body, field, max, label) in bounded(&site) {
        let before = site.ev.dump();
        let over = send(path, filled(&body, field, max + 1));
        let error = over.json()["error"].as_str().map(str::to_string).unwrap_or_default();
        let bound = if max >= 1_000 { format!("{},{:03}", max / 1_000, max % 1_000) } else { max.to_string() };
        let refused = matches!(over.status, 400 | 409) && (over.status == 400 || path.ends_with("/add"));
        if !refused || !error.contains(label) || !error.contains(&format!("at most {bound}")) {
            failed.push(format!("{path} {field} at {} characters: {} {}", max + 1, over.status, over.body));
        }
        if site.ev.dump() != before {
            failed.push(format!("{path}: a refused text changed the event"));
        }
        // The bound itself is no reason to refuse (the write may still be refused for another reason, never
        // for its length).
        let at = send(path, filled(&body, field, max));
        if at.body.contains("characters long") {
            failed.push(format!("{path} {field} at {max} characters: {} {}", at.status, at.body));
        }
    }
    assert!(failed.is_empty(), "{} failed:\n{}", failed.len(), failed.join("\n"));
}

/// Every route that takes a new name: a name refuses every class above, as the command line does (only the
/// harmless invisible characters, such as a soft hyphen, are removed: `domain::names::clean_name`).
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
            if !refused || a.body.contains(*c) {
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
