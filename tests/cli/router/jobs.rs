//! One idempotency mechanism for jobs (#45): an upload or a library build sent with a key records the key with
//! the job's write in the event file (the write keys' own, as every write's), so a repeat starts no second job:
//! while the first runs (held by the job under way), once it ended, and after a restart (the file's key answers
//! the first job's number, whose progress is then read from the file). Without a key each request is a job.

use super::{Actor, Reply, Req, Site};
use crate::harness::example;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// How many entries the audit log holds (every job's write is one).
fn entries(site: &Site) -> i64 {
    let conn = rusqlite::Connection::open(site.ev.db()).expect("open the event");
    conn.query_row("SELECT count(*) FROM audit", [], |r| r.get(0)).expect("the audit's count")
}

/// Follows a job's progress, at the address its first answer gave, until it ended.
#[track_caller]
fn ended(site: &Site, by: &Actor, progress: &str) -> Value {
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let job = site.send(Req::get(progress).by(by));
        assert_eq!(job.status, 200, "{}", job.body);
        if job.json()["status"].is_u64() {
            return job.json();
        }
        assert!(Instant::now() < until, "the job ends: {}", job.body);
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The pool's file sent as an upload, with `key` when given (and `file` as its name).
fn upload(site: &Site, by: &Actor, key: Option<&str>, file: &str) -> Reply {
    let bytes = std::fs::read(example("pool.csv")).expect("the example pool");
    let mut req = Req::post(&format!("/api/pool/import?file={file}")).raw("text/csv", bytes).by(by);
    if let Some(key) = key {
        req = req.header("Idempotency-Key", key);
    }
    site.send(req)
}

#[test]
fn an_upload_sent_twice_with_one_key_starts_one_job_after_a_restart_too() {
    let site = Site::paired();
    let (kim, _) = site.judges();
    let before = entries(&site);
    let first = upload(&site, &kim, Some("pool-1"), "pool.csv");
    assert_eq!(first.status, 202, "{}", first.body);
    let (job, progress) = (first.json()["job"].clone(), first.json()["progress"].as_str().unwrap_or("").to_string());
    assert_eq!(progress, format!("/api/job/{job}"), "{}", first.body);
    assert_eq!(first.json()["what"], "importing the pool");
    // Sent again while the first is under way (a second tap, a replay): the first job, nothing started.
    let again = upload(&site, &kim, Some("pool-1"), "pool.csv");
    assert_eq!((again.status, &again.json()["job"], &again.json()["repeat"]), (202, &job, &json!(true)));
    let done = ended(&site, &kim, &progress);
    assert_eq!(done["state"], "done", "{done}");
    assert_eq!(entries(&site), before + 1, "one import written");
    // Once it ended, from the event file's key; the same key with other fields is refused as a write's is.
    let again = upload(&site, &kim, Some("pool-1"), "pool.csv");
    assert_eq!((again.status, &again.json()["job"], &again.json()["repeat"]), (202, &job, &json!(true)));
    let other = upload(&site, &kim, Some("pool-1"), "other.csv");
    assert_eq!(other.status, 422, "{}", other.body);
    // After a restart: the first job's number, its progress read from the file (done, its summary the audit's).
    // (Kim's session is the file's: it holds across the restart.)
    site.restart();
    let again = upload(&site, &kim, Some("pool-1"), "pool.csv");
    assert_eq!((again.status, &again.json()["job"], &again.json()["repeat"]), (202, &job, &json!(true)));
    assert_eq!(again.json()["progress"].as_str(), Some(progress.as_str()));
    let kept = ended(&site, &kim, &progress);
    assert_eq!(
        (&kept["job"], &kept["state"], &kept["what"], &kept["by"]),
        (&job, &json!("done"), &json!("importing the pool"), &json!("Kim"))
    );
    assert!(kept["outcome"]["summary"].as_str().is_some_and(|s| s.contains("pool.csv")), "{kept}");
    assert_eq!(entries(&site), before + 1, "nothing written again");
    // A new job after the restart is never numbered as one the file keeps.
    let fresh = upload(&site, &kim, Some("pool-2"), "pool.csv");
    assert_eq!(fresh.status, 202, "{}", fresh.body);
    assert!(fresh.json()["job"].as_u64() > job.as_u64(), "{} after {job}", fresh.body);
    ended(&site, &kim, fresh.json()["progress"].as_str().unwrap_or(""));
    // Without a key (a client that sends none), each upload is a job of its own, and works.
    let plain: Vec<Value> = (0..2).map(|_| upload(&site, &kim, None, "pool.csv").json()).collect();
    assert_ne!(plain[0]["job"], plain[1]["job"]);
    for p in &plain {
        let job = ended(&site, &kim, p["progress"].as_str().unwrap_or(""));
        assert_eq!(job["state"], "done", "{job}");
    }
}

#[test]
fn a_build_sent_twice_with_one_key_builds_once_after_a_restart_too() {
    let site = Site::paired();
    site.ev.run(&["pool", "import", &example("pool.csv")]).ok();
    let (kim, _) = site.judges();
    let build = |key: Option<&str>| {
        let mut req = Req::post("/api/library/build").json(json!({ "tables": 3, "force": true })).by(&kim);
        if let Some(key) = key {
            req = req.header("Idempotency-Key", key);
        }
        let mut answer = site.send(req);
        // A build that takes longer than the request waits is answered with its job: followed to its end.
        if answer.status == 202 {
            let job = ended(&site, &kim, answer.json()["progress"].as_str().unwrap_or(""));
            let mut doc = job["outcome"].clone();
            doc["repeat"] = answer.json()["repeat"].clone();
            answer = Reply {
                status: job["status"].as_u64().unwrap_or(0) as u16,
                headers: Vec::new(),
                body: doc.to_string(),
            };
        }
        answer
    };
    let before = entries(&site);
    let first = build(Some("build-1"));
    assert_eq!(first.status, 200, "{}", first.body);
    assert!(first.json()["summary"].as_str().is_some_and(|s| s.contains("built")), "{}", first.body);
    assert_eq!(entries(&site), before + 1);
    let again = build(Some("build-1"));
    assert_eq!((again.status, &again.json()["repeat"]), (200, &json!(true)), "{}", again.body);
    assert_eq!(entries(&site), before + 1, "built once");
    site.restart();
    let again = build(Some("build-1"));
    assert_eq!((again.status, &again.json()["repeat"]), (200, &json!(true)), "{}", again.body);
    assert_eq!(entries(&site), before + 1, "built once, after a restart too");
    // Without a key, a build is a build.
    let plain = build(None);
    assert_eq!(plain.status, 200, "{}", plain.body);
    assert_eq!(entries(&site), before + 2);
}
