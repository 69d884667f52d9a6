//! Every step before round 1 from the head judge's pages: the imports by upload (run as jobs, followed at
//! `GET /api/job/ID`), the pool's curation, bans, the libraries' build and swap; head judges only.

use crate::harness::Event;
use crate::serve::{Answer, Server};
use crate::serve_setup::{set_up, start_new};
use std::io::{Read, Write};
use std::time::{Duration, Instant};

/// The head judge's session on a `serve --new` server.
pub(crate) struct Head {
    cookie: String,
    csrf: String,
}

impl Head {
    pub(crate) fn headers(&self, json: bool) -> Vec<(&str, &str)> {
        let mut h = vec![("Cookie", self.cookie.as_str()), ("X-CSRF-Token", self.csrf.as_str())];
        if json {
            h.push(("Content-Type", "application/json"));
        }
        h
    }

    pub(crate) fn upload(&self, server: &Server, route: &str, body: &str) -> Answer {
        server.request("POST", route, &self.headers(false), body)
    }

    pub(crate) fn post(&self, server: &Server, route: &str, body: serde_json::Value) -> Answer {
        server.request("POST", route, &self.headers(true), &body.to_string())
    }

    fn job(&self, server: &Server, id: u64) -> serde_json::Value {
        let a = server.request("GET", &format!("/api/job/{id}"), &self.headers(false), "");
        assert_eq!(a.status, 200, "{}", a.body);
        a.json()
    }

    /// Uploads `body` to `route` (202 and a job), then follows the job until it ends: the job as it ended.
    pub(crate) fn run(&self, server: &Server, route: &str, body: &str) -> serde_json::Value {
        let a = self.upload(server, route, body);
        assert_eq!(a.status, 202, "{route}: {}", a.body);
        let id = a.json()["job"].as_u64().expect("a job number");
        self.job_ended(server, id)
    }

    /// Follows job `id` until it ends: the job as it ended.
    fn job_ended(&self, server: &Server, id: u64) -> serde_json::Value {
        let until = Instant::now() + Duration::from_secs(60);
        loop {
            let job = self.job(server, id);
            assert_eq!(job["job"], id);
            for field in ["what", "state", "phase", "done", "of"] {
                assert!(job.get(field).is_some(), "{field} in {job}");
            }
            if job["status"].is_u64() {
                return job;
            }
            assert!(Instant::now() < until, "the job ends: {job}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

pub(crate) fn example(name: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples").join(name))
        .expect("an example file")
}

pub(crate) fn start() -> (Event, Server, Head) {
    let ev = Event::empty();
    let (server, token) = start_new(&ev);
    let (cookie, csrf, _) = set_up(&server, &token, "Kim");
    (ev, server, Head { cookie, csrf })
}

/// A job's refusal: its one line, in the web's words, nothing written.
pub(crate) fn refused(job: &serde_json::Value, status: u64) -> String {
    assert_eq!(job["state"], "refused", "{job}");
    assert_eq!(job["status"], status, "{job}");
    assert!(job.get("outcome").is_none(), "{job}");
    let said = job["error"].as_str().expect("the refusal's line").to_string();
    assert!(!crate::router::names_a_command(&said), "a job's refusal names no command: {said}");
    said
}

/// The uploads arriving or kept in the server's temporary folder (the event's `tmp`, see `start_new`).
fn uploads_kept(ev: &Event) -> usize {
    let dir = ev.dir.path().join("tmp");
    std::fs::read_dir(dir).map_or(0, |d| {
        d.filter_map(|e| e.ok()).filter(|e| e.file_name().to_string_lossy().starts_with("mmjudge-upload-")).count()
    })
}

/// Waits up to 5 s for the temporary folder to hold `n` uploads: whether it did.
fn uploads_become(ev: &Event, n: usize) -> bool {
    let until = Instant::now() + Duration::from_secs(5);
    while uploads_kept(ev) != n {
        if Instant::now() > until {
            return false;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    true
}

#[test]
fn an_upload_leaves_no_temporary_file_behind_whatever_ends_it() {
    let (ev, server, head) = start();
    // A page reloaded while the card file is arriving: the connection breaks, the half file goes.
    let mut sending = std::net::TcpStream::connect(&server.addr).expect("connect");
    let mut request =
        "POST /api/cards/import?file=cards.csv HTTP/1.1\r\nHost: x\r\nContent-Length: 5000000\r\n".to_string();
    for (k, v) in head.headers(false) {
        request.push_str(&format!("{k}: {v}\r\n"));
    }
    request.push_str("\r\n");
    sending.write_all(request.as_bytes()).expect("the request's head");
    sending.write_all(&vec![b'x'; 200_000]).expect("part of the file");
    assert!(uploads_become(&ev, 1), "the file arriving is kept while it arrives");
    drop(sending);
    assert!(uploads_become(&ev, 0), "a broken upload leaves no file: {} kept", uploads_kept(&ev));
    // Refused (too large by its length, not a card file) or done: nothing kept either.
    let big = server.request(
        "POST",
        "/api/cards/import?file=cards.csv",
        &[&head.headers(false)[..], &[("Content-Length", "300000000")]].concat(),
        "",
    );
    assert!(matches!(big.status, 413 | 400), "{}", big.body);
    let job = head.run(&server, "/api/cards/import?file=bad.json", "{\"data\": [1, 2");
    assert_eq!(job["state"], "refused", "{job}");
    let job = head.run(&server, "/api/cards/import?file=cards.csv", &example("cards.csv"));
    assert_eq!(job["state"], "done", "{job}");
    assert!(uploads_become(&ev, 0), "{} kept after the jobs", uploads_kept(&ev));
}

#[test]
fn imports_by_upload_run_as_jobs_all_or_nothing_with_every_bad_line_named() {
    let (ev, server, head) = start();
    let empty = ev.dump();
    // A bad card file: the job is refused naming the file, nothing written.
    let job = head.run(&server, "/api/cards/import?file=bad.json", "{\"data\": [1, 2");
    assert!(refused(&job, 400).contains("bad.json"), "{job}");
    assert_eq!(ev.dump(), empty);
    // A pool before the cards: refused in the set-up page's words (the command line names the import to type).
    let said = refused(&head.run(&server, "/api/pool/import?file=pool.csv", "name,count\nAbrade,2\n"), 409);
    assert_eq!(
        said,
        "the pool's cards are checked against the card reference, which is empty: upload the card reference first \
         (the Card reference step)"
    );
    assert_eq!(ev.dump(), empty);
    // The example cards: done, with the outcome the command line's --json prints, and its progress at the end.
    let job = head.run(&server, "/api/cards/import?file=cards.csv", &example("cards.csv"));
    assert_eq!(job["state"], "done", "{job}");
    assert_eq!(job["status"], 200);
    let out = &job["outcome"];
    assert_eq!(out["ok"], true, "{job}");
    assert!(
        out["summary"].as_str().is_some_and(|s| s.starts_with("imported 1927 cards (CSV) from cards.csv")),
        "{out}"
    );
    assert!(job["of"].as_u64().is_some_and(|n| n > 0) && job["done"] == job["of"], "{job}");
    let cli = Event::new();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/cards.csv");
    let said = cli.run(&["--json", "cards", "import", path.to_str().expect("a path")]).ok().to_string();
    let cli_json: serde_json::Value = serde_json::from_str(said.trim()).expect("the command line's JSON");
    let keys = |v: &serde_json::Value| v.as_object().map(|m| m.keys().cloned().collect::<Vec<_>>()).unwrap_or_default();
    assert_eq!(keys(out), keys(&cli_json), "the same fields as the command line's --json");
    // A pool with an unknown card and a bad count: refused naming both lines, nothing written.
    let before = ev.dump();
    let bad_pool = "name,count\nAbrade,2\nNo Such Card Anywhere,1\nAbsorb,many\n";
    let said = refused(&head.run(&server, "/api/pool/import?file=pool.csv", bad_pool), 400);
    assert!(said.contains("pool.csv") && said.contains("No Such Card Anywhere") && said.contains("many"), "{said}");
    assert_eq!(ev.dump(), before);
    // An unknown card with its cost and type: kept only with the form's box ticked (`--allow-unknown`).
    let homebrew = "name,count,mana_cost,type_line\nHomebrew Bolt,2,{R},Instant\n";
    let said = refused(&head.run(&server, "/api/pool/import?file=pool.csv", homebrew), 400);
    assert!(
        said.ends_with(
            "; correct the names, or tick “Keep cards the reference does not know” (they keep the cost and type given)"
        ),
        "{said}"
    );
    assert_eq!(ev.dump(), before);
    let job = head.run(&server, "/api/pool/import?file=pool.csv", &example("pool.csv"));
    assert_eq!(job["state"], "done", "{job}");
    assert!(job["outcome"]["copies"].as_u64().is_some_and(|n| n > 400), "{job}");
    // Players: a line with too many fields refused by its number; the example's sixteen added.
    let before = ev.dump();
    let said = refused(&head.run(&server, "/api/player/import?file=players.csv", "name,id\nAna,1\nBo,2,3\n"), 400);
    assert!(said.contains("players.csv") && said.contains("line 3"), "{said}");
    assert_eq!(ev.dump(), before);
    let job = head.run(&server, "/api/player/import?file=players.csv", &example("players.csv"));
    assert_eq!(job["outcome"]["summary"], "imported 16 players from players.csv", "{job}");
    // Rulings: a file that is not Scryfall's refused; sealed libraries refused on a judge-built event.
    let before = ev.dump();
    let said = refused(&head.run(&server, "/api/cards/import-rulings?file=rulings.json", "not json"), 400);
    assert!(said.contains("rulings.json"), "{said}");
    let said = refused(&head.run(&server, "/api/library/register?player=Zo&file=sealed.csv", "name\nAbrade\n"), 409);
    assert!(said.contains("judge-built libraries"), "{said}");
    assert_eq!(ev.dump(), before);
    let ruling =
        r#"[{"oracle_id": "00000000-0000-0000-0000-000000000000", "published_at": "2020-01-01", "comment": "x"}]"#;
    let job = head.run(&server, "/api/cards/import-rulings?file=rulings.json", ruling);
    assert!(refused(&job, 404).contains("Oracle id"), "{job}");
    assert_eq!(ev.dump(), before);
    // The audit names the head judge, the route and the address.
    let log = ev.run(&["log", "--json"]).ok().to_string();
    assert!(log.contains("POST /api/player/import") && log.contains("web 127.0.0.1"), "{log}");
}

/// Sends a request with only its head (a body of `length` bytes announced, none sent): the answer.
fn announced(server: &Server, head: &Head, route: &str, length: u64) -> (u16, String) {
    let mut s = std::net::TcpStream::connect(&server.addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(20))).expect("timeout");
    let req = format!(
        "POST {route} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nCookie: {}\r\nX-CSRF-Token: {}\r\nContent-Length: {length}\r\n\r\n",
        head.cookie, head.csrf
    );
    s.write_all(req.as_bytes()).expect("send");
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).into_owned();
    let status = text.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    (status, text)
}

#[test]
fn uploads_are_for_head_judges_with_their_token_and_a_file_of_at_most_200_mb() {
    let (ev, server, head) = start();
    let added = head.post(&server, "/api/judge/add", serde_json::json!({ "name": "Lee", "role": "floor" }));
    let lee = server.login("Lee", added.json()["pin"].as_str().expect("Lee's PIN"));
    let job = head.run(&server, "/api/cards/import?file=cards.csv", &example("cards.csv"));
    let id = job["job"].as_u64().expect("a job");
    let before = ev.dump();
    // A floor judge: 403 on every route of the set-up, its job's progress too; nothing written.
    let auth = format!("Bearer {lee}");
    for route in [
        "/api/cards/import",
        "/api/cards/import-rulings",
        "/api/pool/import",
        "/api/player/import",
        "/api/library/register?player=Zo",
    ] {
        let a = server.request("POST", route, &[("Authorization", &auth)], "name\nAbrade\n");
        assert!(a.error(403).contains("head judges"), "{route}: {}", a.body);
    }
    for (route, body) in [
        ("/api/pool/exclude", serde_json::json!({ "name": "Abrade" })),
        ("/api/pool/include", serde_json::json!({ "name": "Abrade" })),
        ("/api/pool/watch/add", serde_json::json!({ "name": "Abrade", "note": "x" })),
        ("/api/pool/watch/remove", serde_json::json!({ "name": "Abrade" })),
        ("/api/ban/add", serde_json::json!({ "name": "Abrade", "group": "too-powerful" })),
        ("/api/ban/remove", serde_json::json!({ "name": "Abrade" })),
        ("/api/library/build", serde_json::json!({ "tables": 2 })),
        ("/api/library/swap", serde_json::json!({ "library": "1A", "out": "Abrade", "in": "Absorb" })),
    ] {
        let a = server.post_json(route, Some(&lee), &body);
        assert!(a.error(403).contains("head judges"), "{route}: {}", a.body);
    }
    let a = server.get_as(&format!("/api/job/{id}"), &lee);
    assert!(a.error(403).contains("head judges"), "{}", a.body);
    // The head judge's cookie without the page's CSRF token: 403.
    let a = server.request("POST", "/api/player/import", &[("Cookie", &head.cookie)], "name\nAna\n");
    assert!(a.error(403).contains("reload the page"), "{}", a.body);
    // No file, a file over 200 MB (refused by its length before it arrives): nothing written, no job.
    let a = head.upload(&server, "/api/player/import?file=players.csv", "");
    assert!(a.error(400).contains("no file was sent"), "{}", a.body);
    let (status, text) = announced(&server, &head, "/api/cards/import", 300 * 1024 * 1024);
    assert_eq!(status, 413, "{text}");
    assert!(text.contains("at most 200 MB"), "{text}");
    // A field the route does not take is refused naming it.
    let a = head.upload(&server, "/api/pool/import?allow=yes", "name\nAbrade\n");
    assert_eq!(a.status, 400, "{}", a.body);
    assert_eq!(ev.dump(), before);
    // A job this server never had: 404 in words.
    let a = server.request("GET", "/api/job/999", &head.headers(false), "");
    assert!(a.error(404).contains("no job 999"), "{}", a.body);
    // A file of more than the 16 KB other routes take, and longer than nothing: received whole.
    let many: String = std::iter::once("name".to_string())
        .chain((0..2000).map(|i| format!("Player {i:04}")))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(many.len() > 16 * 1024);
    let job = head.run(&server, "/api/player/import?file=many.csv", &many);
    assert_eq!(job["outcome"]["summary"], "imported 2000 players from many.csv", "{job}");
}

#[test]
fn the_pool_bans_and_libraries_from_the_web_then_round_1_is_paired() {
    let (ev, server, head) = start();
    // The set-up page: every step in order, the card reference next; the dashboard links to it.
    let page = server.request("GET", "/judge/setup", &head.headers(false), "");
    assert_eq!(page.status, 200, "{}", page.body);
    let order: Vec<usize> = ["step-cards", "step-pool", "step-players", "step-libraries", "step-judges", "step-pair"]
        .iter()
        .map(|id| page.body.find(id).unwrap_or_else(|| panic!("{id} on the page")))
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "the steps in order: {order:?}");
    assert!(page.body.contains("class=\"step next\" id=\"step-cards\""), "{}", page.body);
    assert!(page.body.contains("0 cards in the reference"), "{}", page.body);
    // Every step before round 1 has its form there, the optional ones too (rulings, curation, bans, a swap).
    for route in [
        "/api/cards/import",
        "/api/cards/import-rulings",
        "/api/pool/import",
        "/api/pool/exclude",
        "/api/pool/include",
        "/api/pool/watch/add",
        "/api/pool/watch/remove",
        "/api/ban/add",
        "/api/ban/remove",
        "/api/library/build",
        "/api/library/swap",
        "/api/player/import",
        "/api/judge/add",
        "/api/round/pair",
    ] {
        assert!(page.body.contains(&format!("data-route=\"{route}\"")), "a form for {route}");
    }
    let dash = server.request("GET", "/judge", &head.headers(false), "");
    assert!(dash.body.contains("href=\"/judge/setup\""), "{}", dash.body);
    for (route, file) in
        [("/api/cards/import", "cards.csv"), ("/api/pool/import", "pool.csv"), ("/api/player/import", "players.csv")]
    {
        let job = head.run(&server, &format!("{route}?file={file}"), &example(file));
        assert_eq!(job["state"], "done", "{job}");
    }
    let ok = |route: &str, body: serde_json::Value| {
        let a = head.post(&server, route, body);
        assert_eq!(a.status, 200, "{route}: {}", a.body);
        a.json()["summary"].as_str().unwrap_or_default().to_string()
    };
    assert!(ok("/api/pool/exclude", serde_json::json!({ "name": "abrade" })).contains("Abrade"));
    let before = ev.dump();
    let again = head.post(&server, "/api/pool/exclude", serde_json::json!({ "name": "Abrade" }));
    assert!(again.error(409).contains("already excluded"), "{}", again.body);
    assert_eq!(ev.dump(), before);
    assert!(ok("/api/pool/include", serde_json::json!({ "name": "Abrade" })).contains("Abrade"));
    assert!(ok("/api/pool/watch/add", serde_json::json!({ "name": "Absorb", "note": "strong" })).contains("Absorb"));
    assert_eq!(ok("/api/pool/watch/remove", serde_json::json!({ "name": "Absorb" })), "no longer watching Absorb");
    let banned = ok("/api/ban/add", serde_json::json!({ "name": "Absorb", "group": "too-powerful" }));
    assert_eq!(banned, "banned Absorb (too-powerful)");
    let said = head.post(&server, "/api/ban/add", serde_json::json!({ "name": "Absorb", "group": "nope" }));
    assert_eq!(said.status, 400, "{}", said.body);
    assert_eq!(ok("/api/ban/remove", serde_json::json!({ "name": "Absorb" })), "lifted the ban on Absorb");
    // The libraries: a build of nothing refused in the form's words; eight tables built (the answer is the
    // outcome when the build ends within a few seconds, else a job).
    let none = head.post(&server, "/api/library/build", serde_json::json!({ "tables": 0 }));
    assert!(none.error(400).contains("tables 0 builds nothing"), "{}", none.body);
    let built = head.post(&server, "/api/library/build", serde_json::json!({ "tables": 8, "seed": 7 }));
    let outcome = match built.status {
        200 => built.json(),
        202 => head.run_wait(&server, built.json()["job"].as_u64().expect("a job"))["outcome"].clone(),
        other => panic!("library build answered {other}: {}", built.body),
    };
    assert!(outcome["summary"].as_str().is_some_and(|s| s.starts_with("built 16 main libraries")), "{outcome}");
    assert_eq!(outcome["libraries"].as_array().map(Vec::len), Some(16), "{outcome}");
    // The route's defaults are the command's: 40 cards a library, and the command line with the same seed
    // builds the same libraries.
    let names = |ev: &Event| -> Vec<String> {
        let shown = ev.run(&["--json", "library", "show", "1A"]).ok().to_string();
        let doc: serde_json::Value = serde_json::from_str(shown.trim()).expect("library show's JSON");
        doc["cards"].as_array().map(|c| c.iter().map(|c| c["name"].to_string()).collect()).unwrap_or_default()
    };
    let by_web = names(&ev);
    assert_eq!(by_web.len(), 40, "{by_web:?}");
    ev.run(&["library", "build", "--tables", "8", "--seed", "7"]).ok();
    assert_eq!(names(&ev), by_web);
    // A swap: the library's first card out, a pool card left over in.
    let shown = ev.run(&["--json", "library", "show", "1A"]).ok().to_string();
    let doc: serde_json::Value = serde_json::from_str(shown.trim()).expect("library show's JSON");
    let first = doc["cards"][0]["name"].as_str().expect("a card").to_string();
    let pool = ev.run(&["--json", "pool", "list"]).ok().to_string();
    let pool: serde_json::Value = serde_json::from_str(pool.trim()).expect("pool list's JSON");
    let spare = pool["cards"]
        .as_array()
        .and_then(|cards| {
            cards.iter().find(|c| {
                c["is_land"] == false
                    && c["excluded"] == false
                    && c["copies"].as_u64() > c["in_libraries"].as_u64()
                    && c["name"] != first.as_str()
            })
        })
        .and_then(|c| c["name"].as_str())
        .expect("a spare pool card")
        .to_string();
    let swapped =
        head.post(&server, "/api/library/swap", serde_json::json!({ "library": "1A", "out": first, "in": spare }));
    assert_eq!(swapped.status, 200, "{}", swapped.body);
    assert!(swapped.json()["summary"].as_str().is_some_and(|s| s.starts_with("library 1A:")), "{}", swapped.body);
    // Fewer tables than are built removes libraries: asked first, nothing changed until the box is ticked.
    let before = ev.dump();
    let fewer = head.post(&server, "/api/library/build", serde_json::json!({ "tables": 7, "seed": 7 }));
    let said = match fewer.status {
        202 => refused(&head.run_wait(&server, fewer.json()["job"].as_u64().expect("a job")), 409),
        _ => fewer.error(409),
    };
    assert_eq!(
        said,
        "8 tables are built: building 7 tables removes the libraries of table 8; tick “Build fewer tables, removing \
         the libraries beyond them” and build again, or give 8 tables"
    );
    assert_eq!(before, ev.dump());
    // Round 1 paired from the web.
    let paired = head.post(&server, "/api/round/pair", serde_json::json!({}));
    assert_eq!(paired.status, 200, "{}", paired.body);
    assert_eq!(paired.json()["round"], 1, "{}", paired.body);
    let page = server.request("GET", "/judge/setup", &head.headers(false), "");
    assert!(page.body.contains("round 1 is paired") && !page.body.contains("step next"), "{}", page.body);
    assert!(page.body.contains("16 main libraries built") && page.body.contains("16 players entered"), "{}", page.body);
}

impl Head {
    /// Follows a job already started until it ends.
    fn run_wait(&self, server: &Server, id: u64) -> serde_json::Value {
        let until = Instant::now() + Duration::from_secs(60);
        loop {
            let job = self.job(server, id);
            if job["status"].is_u64() {
                return job;
            }
            assert!(Instant::now() < until, "the job ends: {job}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// Long work shows its progress on the server's terminal too: a job's start, its phases and every tenth of the way,
/// and its end (done with the summary, or refused with its line).
#[test]
fn a_job_says_its_progress_on_the_servers_terminal() {
    let (ev, server, head) = start();
    let job = head.run(&server, "/api/cards/import?file=cards.csv", &example("cards.csv"));
    assert_eq!(job["state"], "done", "{job}");
    let bad = head.run(&server, "/api/pool/import?file=pool.csv", "name\nNo Such Card Anywhere\n");
    assert_eq!(bad["state"], "refused", "{bad}");
    std::thread::sleep(std::time::Duration::from_millis(300));
    let log = std::fs::read_to_string(ev.dir.path().join("server.log")).expect("the server's log");
    let (one, two) = (job["job"].as_u64().unwrap_or(0), bad["job"].as_u64().unwrap_or(0));
    assert!(log.contains(&format!("job {one} (")) && log.contains("by Kim): started"), "{log}");
    assert!(log.contains(&format!("job {one}: done: imported 1927 cards")), "{log}");
    assert!(log.lines().filter(|l| l.contains(&format!("job {one}: ")) && l.contains(" of ")).count() >= 2, "{log}");
    assert!(log.contains(&format!("job {two}: refused, nothing written: ")), "{log}");
}

/// An upload sent again with its write key (the Idempotency-Key header: a phone that lost the answer) is answered
/// with its first job and starts no other; a malformed key is refused before the file is read.
#[test]
fn an_upload_sent_again_with_its_key_answers_its_first_job() {
    let (_ev, server, head) = start();
    let mut headers = head.headers(false);
    headers.push(("Idempotency-Key", "cards-1"));
    let send =
        |h: &[(&str, &str)]| server.request("POST", "/api/cards/import?file=cards.csv", h, &example("cards.csv"));
    let first = send(&headers);
    assert_eq!(first.status, 202, "{}", first.body);
    let id = first.json()["job"].as_u64().expect("a job");
    let done = head.job_ended(&server, id);
    assert_eq!(done["state"], "done", "{done}");
    let again = send(&headers);
    assert_eq!(again.status, 202, "{}", again.body);
    assert_eq!((again.json()["job"].as_u64(), again.json()["repeat"].clone()), (Some(id), serde_json::json!(true)));
    let other = send(&head.headers(false));
    assert_eq!(other.status, 202, "{}", other.body);
    assert_ne!(other.json()["job"].as_u64(), Some(id), "without a key, a new job");
    let long = "k".repeat(81);
    let mut bad = head.headers(false);
    bad.push(("Idempotency-Key", &long));
    let refused = send(&bad);
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert!(refused.json()["error"].as_str().is_some_and(|e| e.contains("80")), "{}", refused.body);
}
