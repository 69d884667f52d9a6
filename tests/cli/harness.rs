//! The test harness: a temporary folder with an event file, and helpers to run the binary, check its
//! output and prove that a refused command left the database unchanged.

#![allow(dead_code)]

use assert_cmd::Command;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// When [`Event::new`] creates its event.
pub const CREATED: &str = "2025-01-01T00:00:00Z";

/// The now for notes dated `--at HH:MM`: late enough in the day, in every time zone, that a morning moment such
/// as 09:05 is never in the future (a record may not be dated ahead of now).
pub const NOTES_NOW: &str = "2025-05-01T23:59:00Z";

/// When the rounds of [`Event::seat_started_round`] started: the day before [`NOTES_NOW`], so that a note dated
/// `--at HH:MM` on that day falls after the start in every time zone.
pub const ROUND_STARTED: &str = "2025-04-30T12:00:00.000Z";

/// A temporary event folder.
pub struct Event {
    pub dir: tempfile::TempDir,
}

/// What one run of the binary did.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// Asserts success and returns stdout.
    #[track_caller]
    pub fn ok(&self) -> &str {
        assert_eq!(self.code, 0, "expected success\nstdout: {}\nstderr: {}", self.stdout, self.stderr);
        &self.stdout
    }

    /// Asserts a refusal (exit 1, one-line error) and returns the message.
    #[track_caller]
    pub fn refused(&self) -> &str {
        assert_eq!(self.code, 1, "expected refusal\nstdout: {}\nstderr: {}", self.stdout, self.stderr);
        assert!(self.stderr.starts_with("error: "), "stderr: {}", self.stderr);
        assert_eq!(self.stderr.trim_end().lines().count(), 1, "error must be one line: {}", self.stderr);
        &self.stderr
    }

    /// Parses stdout as JSON.
    #[track_caller]
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(self.ok()).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.stdout))
    }
}

/// The files of an event folder built once by a fixture.
type Files = Vec<(String, Vec<u8>)>;

/// Fixtures by name, each built at most once.
type Built = Mutex<HashMap<&'static str, Arc<OnceLock<Files>>>>;

/// Every fixture built so far in this test process, by name.
static BUILT: OnceLock<Built> = OnceLock::new();

impl Event {
    /// The event `build` makes, built once per test process under `name` and copied into a fresh folder for each
    /// test that asks: the same files its commands would write again (a fixture's commands took most of the
    /// tests' time), but for the keys an event draws at random when created, drawn again for each copy (two
    /// events are never one event to a standby). A fixture whose last step depends on the moment it runs (a round
    /// started now) takes that step after the copy, not inside `build`.
    pub fn cached(name: &'static str, build: impl FnOnce() -> Event) -> Event {
        let cell = {
            let mut built = BUILT.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
            built.entry(name).or_default().clone()
        };
        let files = cell.get_or_init(|| {
            let ev = build();
            let mut files = Vec::new();
            for entry in std::fs::read_dir(ev.dir.path()).expect("read the fixture's folder").flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if entry.path().is_file() && !name.ends_with("-shm") {
                    files.push((name, std::fs::read(entry.path()).expect("read a fixture's file")));
                }
            }
            files
        });
        let ev = Event::empty();
        for (name, bytes) in files {
            std::fs::write(ev.path(name), bytes).expect("copy a fixture's file");
        }
        if ev.db().exists() {
            let conn = rusqlite::Connection::open(ev.db()).expect("open the copy");
            conn.execute_batch(
                "UPDATE replication SET event_id = lower(hex(randomblob(16)));
                 UPDATE sign_in_key SET key = lower(hex(randomblob(32)));",
            )
            .expect("new keys for the copy");
        }
        ev
    }

    /// An empty folder (no event yet).
    pub fn empty() -> Event {
        Event { dir: tempfile::tempdir().expect("temp dir") }
    }

    /// A folder with a created event called "Test Open" (seed 42), created on 2025-01-01 so that the tests'
    /// fixed moments (`--at 2025-05-01T10:00:00Z`) fall after its creation.
    pub fn new() -> Event {
        Event::cached("Event::new", || {
            let ev = Event::empty();
            ev.run_with(&["event", "new", "Test Open", "--seed", "42"], &[("MMJUDGE_NOW", CREATED)]).ok();
            ev
        })
    }

    /// [`Event::new`] with the bundled reference, pool and 16 players, libraries for 8 tables, and round 1
    /// paired and started: every output has something to show.
    pub fn playing() -> Event {
        let ev = Event::cached("Event::playing, paired", || {
            let ev = Event::with_pool();
            ev.run(&["player", "import", &example("players.csv")]).ok();
            ev.run(&["library", "build", "--tables", "8"]).ok();
            ev.run(&["round", "pair"]).ok();
            ev
        });
        ev.run(&["round", "start"]).ok();
        ev
    }

    /// [`Event::new`] with the bundled reference (`examples/cards.csv`).
    pub fn with_reference() -> Event {
        Event::cached("Event::with_reference", || {
            let ev = Event::new();
            ev.run(&["cards", "import", &example("cards.csv")]).ok();
            ev
        })
    }

    /// [`Event::with_reference`] and the bundled pool (`examples/pool.csv`).
    pub fn with_pool() -> Event {
        Event::cached("Event::with_pool", || {
            let ev = Event::with_reference();
            ev.run(&["pool", "import", &example("pool.csv")]).ok();
            ev
        })
    }

    /// The event file.
    pub fn db(&self) -> PathBuf {
        self.dir.path().join("event.db")
    }

    /// A path inside the folder.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Writes a file into the folder and returns its path.
    pub fn file(&self, name: &str, contents: &str) -> PathBuf {
        let p = self.path(name);
        std::fs::write(&p, contents).expect("write file");
        p
    }

    /// The command, ready to run in the folder with this event.
    pub fn cmd(&self) -> Command {
        let mut cmd = Command::cargo_bin("mmjudge").expect("binary");
        cmd.current_dir(self.dir.path())
            .env("MMJUDGE_DB", self.db())
            .env("MMJUDGE_JUDGE", "Test Judge")
            .env("NO_COLOR", "1")
            .env_remove("MMJUDGE_NOW");
        cmd
    }

    /// Runs mmjudge with these arguments.
    pub fn run(&self, args: &[&str]) -> Run {
        self.run_with(args, &[])
    }

    /// Runs mmjudge with these arguments and extra environment variables.
    pub fn run_with(&self, args: &[&str], env: &[(&str, &str)]) -> Run {
        let mut cmd = self.cmd();
        for (k, v) in env {
            cmd.env(k, v);
        }
        let out = cmd.args(args).output().expect("run mmjudge");
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    /// Runs a command that must be refused, proves the database is unchanged, returns the message.
    #[track_caller]
    pub fn refuses(&self, args: &[&str]) -> String {
        let before = self.dump();
        let run = self.run(args);
        let msg = run.refused().to_string();
        assert_eq!(before, self.dump(), "a refused command changed the database: {args:?}");
        msg
    }

    /// Pairs round `number` now, directly in the database (until `round pair` exists): one match per
    /// `(table, seat A, seat B)`, players named exactly and added when missing.
    pub fn seat_round(&self, number: u32, tables: &[(u32, &str, &str)]) {
        let conn = rusqlite::Connection::open(self.db()).expect("open db");
        conn.execute(
            "INSERT INTO round (number, movement, paired_at) VALUES (?1, 'test', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
            [number],
        )
        .expect("insert round");
        for (table, a, b) in tables {
            let (a, b) = (player_id(&conn, a), player_id(&conn, b));
            conn.execute(
                "INSERT INTO match (round, table_no, a_player, b_player) VALUES (?1, ?2, ?3, ?4)",
                rusqlite::params![number, table, a, b],
            )
            .expect("insert match");
        }
    }

    /// [`Event::seat_round`] with the round's clock already running since [`ROUND_STARTED`] (as `round start` leaves
    /// it): cards are declared only once a round's clock runs.
    pub fn seat_started_round(&self, number: u32, tables: &[(u32, &str, &str)]) {
        self.seat_round(number, tables);
        self.mark_started(number);
    }

    /// Marks a round seated directly in the database as started at [`ROUND_STARTED`].
    pub fn mark_started(&self, number: u32) {
        let conn = rusqlite::Connection::open(self.db()).expect("open db");
        conn.execute("UPDATE round SET started_at = ?2 WHERE number = ?1", rusqlite::params![number, ROUND_STARTED])
            .expect("start round");
    }

    /// Gives a player a bye in a paired round (directly in the database).
    pub fn bye(&self, number: u32, name: &str) {
        let conn = rusqlite::Connection::open(self.db()).expect("open db");
        let p = player_id(&conn, name);
        conn.execute(
            "INSERT INTO match (round, a_player, result, reason) VALUES (?1, ?2, 'A', 'bye')",
            rusqlite::params![number, p],
        )
        .expect("insert bye");
    }

    /// Records a template note with the real `note` command (`TABLE PLAYER COST CARD ...`); returns its id.
    /// A note dated `--at HH:MM` is entered at [`NOTES_NOW`].
    #[track_caller]
    pub fn note(&self, args: &[&str]) -> i64 {
        let mut all = vec!["--json", "note"];
        all.extend_from_slice(args);
        let clock_time = |a: &&str| a.len() == 5 && a.as_bytes()[2] == b':';
        let env: &[(&str, &str)] = if args.iter().any(clock_time) { &[("MMJUDGE_NOW", NOTES_NOW)] } else { &[] };
        let doc = self.run_with(&all, env).json();
        doc["note"].as_i64().unwrap_or_else(|| panic!("no note id in {doc}"))
    }

    /// A full, ordered dump of every table (schema and rows), to compare before and after.
    pub fn dump(&self) -> String {
        dump(&self.db())
    }
}

/// The id of the player with this exact name, added when missing.
fn player_id(conn: &rusqlite::Connection, name: &str) -> i64 {
    let found = conn.query_row("SELECT id FROM player WHERE name = ?1", [name], |r| r.get(0));
    found.unwrap_or_else(|_| {
        conn.execute("INSERT INTO player (name, name_key) VALUES (?1, lower(?1))", [name]).expect("insert player");
        conn.last_insert_rowid()
    })
}

impl Event {
    /// Runs SQL on the event file: fixtures for rows that commands of other groups write.
    pub fn sql(&self, sql: &str) {
        let conn = rusqlite::Connection::open(self.db()).expect("open db");
        conn.execute_batch(sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
    }

    /// Fixed libraries at tables 1..=tables, seats A and B (as `library build` leaves them, without cards).
    pub fn fake_libraries(&self, tables: u32) {
        let rows: Vec<String> = (1..=tables).map(|t| format!("({t}, 'A'), ({t}, 'B')")).collect();
        self.sql(&format!("INSERT INTO library (table_no, seat) VALUES {};", rows.join(", ")));
    }

    /// One sealed library per player (as `library register` leaves them, without cards).
    pub fn fake_sealed_libraries(&self) {
        self.sql(
            "INSERT INTO library (player_id) SELECT id FROM player WHERE id NOT IN \
                  (SELECT player_id FROM library WHERE player_id IS NOT NULL);",
        );
    }

    /// Records a result at every open table of `round`: seat A wins at odd tables, seat B at even ones.
    pub fn finish_round(&self, round: u32) {
        self.sql(&format!(
            "UPDATE match SET result = CASE table_no % 2 WHEN 1 THEN 'A' ELSE 'B' END, reason = 'life', \
             result_at = '2026-05-01T12:00:00Z' WHERE round = {round} AND result IS NULL;"
        ));
    }

    /// Adds `n` players named "Player 01".. with one command.
    pub fn add_players(&self, n: usize) -> Vec<String> {
        let names: Vec<String> = (1..=n).map(|i| format!("Player {i:02}")).collect();
        let mut args = vec!["player", "add"];
        args.extend(names.iter().map(String::as_str));
        self.run(&args).ok();
        names
    }
}

/// How many runs a long loop makes: `RUNS` from the environment, else `default`.
/// The size of an attack: `full` with `MMJUDGE_ATTACKS=full` (`cargo bench -- attacks` runs it so), else `quick`,
/// the scale every `cargo test` and CI runs.
pub fn attack(full: u32, quick: u32) -> u32 {
    if std::env::var_os("MMJUDGE_ATTACKS").is_some_and(|v| v == "full") { full } else { quick }
}

pub fn runs(default: u64) -> u64 {
    std::env::var("RUNS").ok().and_then(|r| r.parse().ok()).unwrap_or(default)
}

/// Dumps a database: schema, then every row of every table in rowid/primary-key order.
pub fn dump(path: &Path) -> String {
    if !path.exists() {
        return "<no file>".into();
    }
    let conn =
        rusqlite::Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY).expect("open db");
    let mut out = String::new();
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap_or(-1);
    out.push_str(&format!("user_version {version}\n"));
    let mut stmt =
        conn.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'table' ORDER BY name").expect("schema");
    let tables: Vec<(String, String)> =
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).expect("tables").map(|r| r.expect("row")).collect();
    for (name, sql) in tables {
        out.push_str(&sql);
        out.push('\n');
        // The counts of wrong tries at secrets are no change of the event (tests/cli/serve_bounds.rs reads them).
        if name.starts_with("guess_") {
            continue;
        }
        // SQLite writes each row (quote(): text quoted as it is stored, numbers, blobs in hex): formatting every
        // cell in the test's debug build took much of the tests' time, since most tests dump the file twice.
        let columns: Vec<String> = conn
            .prepare("SELECT name FROM pragma_table_info(?1) ORDER BY cid")
            .expect("columns")
            .query_map([&name], |r| r.get(0))
            .expect("columns")
            .map(|r| r.expect("column"))
            .collect();
        let line = columns.iter().map(|c| format!("quote(\"{c}\")")).collect::<Vec<_>>().join(" || '|' || ");
        let order = columns.iter().take(2).map(|c| format!("\"{c}\"")).collect::<Vec<_>>().join(", ");
        let query = format!("SELECT {line} FROM \"{name}\" ORDER BY {order}");
        let mut rows = conn.prepare(&query).expect("select");
        let mut q = rows.query([]).expect("query");
        while let Some(row) = q.next().expect("next") {
            out.push_str(&row.get::<_, String>(0).expect("a row's line"));
            out.push('\n');
        }
    }
    out
}

impl Event {
    /// Seats a paired round for the clock tests (until `round pair` exists here): adds any player not yet in
    /// the event, then inserts the round and one match per `(table, seat A, seat B)` with rusqlite.
    pub fn seat_round_for_clock(&self, round: u32, tables: &[(u32, &str, &str)]) {
        let conn = rusqlite::Connection::open(self.db()).expect("open db");
        let id_of = |name: &str| -> Option<i64> {
            conn.query_row("SELECT id FROM player WHERE name = ?1", [name], |r| r.get(0)).ok()
        };
        for name in tables.iter().flat_map(|(_, a, b)| [*a, *b]) {
            if id_of(name).is_none() {
                self.run(&["player", "add", name]).ok();
            }
        }
        conn.execute(
            "INSERT INTO round (number, movement, paired_at) VALUES (?1, 'mitchell', '2026-05-01T09:00:00.000Z')",
            [round],
        )
        .expect("insert round");
        for (table, a, b) in tables {
            conn.execute(
                "INSERT INTO match (round, table_no, a_player, b_player) VALUES (?1, ?2, ?3, ?4)",
                rusqlite::params![round, table, id_of(a), id_of(b)],
            )
            .expect("insert match");
        }
    }

    /// Records a result at a table with rusqlite (until `result` exists here): `outcome` is A, B or draw.
    pub fn set_result_for_clock(&self, round: u32, table: u32, outcome: &str) {
        let conn = rusqlite::Connection::open(self.db()).expect("open db");
        conn.execute(
            "UPDATE match SET result = ?3, reason = 'life', result_at = '2026-05-01T10:30:00.000Z'
             WHERE round = ?1 AND table_no = ?2",
            rusqlite::params![round, table, outcome],
        )
        .expect("set result");
    }
}

/// One game to seed: (seat A, seat B or "" for a bye, result "A" | "B" | "draw" | "" while playing).
pub type Seeded<'a> = (&'a str, &'a str, &'a str);

impl Event {
    /// Inserts rounds after the existing ones with rusqlite (until `round pair` and `result` are wired): each
    /// round's games sit at tables 1, 2, ... in order with the fixed libraries tA and tB (created when
    /// missing); a bye (B "") has no table and result A. Players are named exactly as added.
    pub fn seed_played_rounds(&self, rounds: &[&[Seeded]]) {
        let conn = rusqlite::Connection::open(self.db()).expect("open db");
        let first: u32 =
            conn.query_row("SELECT coalesce(max(number), 0) + 1 FROM round", [], |r| r.get(0)).expect("round");
        let id = |name: &str| -> i64 {
            conn.query_row("SELECT id FROM player WHERE name = ?1", [name], |r| r.get(0))
                .unwrap_or_else(|_| panic!("seed_played_rounds: no player named {name:?}"))
        };
        let library = |table: i64, seat: &str| -> i64 {
            conn.execute(
                "INSERT OR IGNORE INTO library (table_no, seat) VALUES (?1, ?2)",
                rusqlite::params![table, seat],
            )
            .expect("library");
            conn.query_row(
                "SELECT id FROM library WHERE table_no = ?1 AND seat = ?2",
                rusqlite::params![table, seat],
                |r| r.get(0),
            )
            .expect("library id")
        };
        for (i, games) in rounds.iter().enumerate() {
            let round = first + i as u32;
            conn.execute(
                "INSERT INTO round (number, movement, paired_at, started_at) VALUES (?1, 'swiss', '2026-05-01T10:00:00.000Z', '2026-05-01T10:05:00.000Z')",
                [round],
            )
            .expect("round");
            let mut table = 0i64;
            for &(a, b, result) in games.iter() {
                if b.is_empty() {
                    conn.execute(
                        "INSERT INTO match (round, a_player, result, reason) VALUES (?1, ?2, 'A', 'bye')",
                        rusqlite::params![round, id(a)],
                    )
                    .expect("bye");
                    continue;
                }
                table += 1;
                let (outcome, reason) = if result.is_empty() { (None, None) } else { (Some(result), Some("life")) };
                conn.execute(
                    "INSERT INTO match (round, table_no, a_player, b_player, a_library, b_library, result, reason) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                    rusqlite::params![round, table, id(a), id(b), library(table, "A"), library(table, "B"), outcome, reason],
                )
                .expect("match");
            }
        }
    }

    /// Marks a player disqualified with rusqlite (until penalties are wired).
    pub fn seed_disqualified(&self, name: &str) {
        let conn = rusqlite::Connection::open(self.db()).expect("open db");
        let n = conn.execute("UPDATE player SET disqualified = 1 WHERE name = ?1", [name]).expect("update");
        assert_eq!(n, 1, "seed_disqualified: no player named {name:?}");
    }

    /// Records round `n` as paired (a bare `round` row), as if `round pair` had run: libraries lock.
    pub fn mark_round_paired(&self, n: u32) {
        let conn = rusqlite::Connection::open(self.db()).expect("open db");
        conn.execute(
            "INSERT INTO round (number, movement, paired_at) VALUES (?1, 'mitchell', '2026-05-01T10:00:00Z')",
            [n],
        )
        .expect("insert round");
    }
}

/// The path of a bundled example file.
pub fn example(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples").join(name).to_string_lossy().into_owned()
}
