//! The shared builder of big events: N players after R rounds, written straight into the event file with SQL
//! (after `event new` made it), since going through thousands of commands would only time the setup. Every
//! timed command is then the real binary. The SQL of the benches lives here only.

use crate::must;
use rusqlite::{Connection, Transaction, params};
use std::path::{Path, PathBuf};

/// The shape of a bench event.
pub struct Plan {
    /// The event file's stem and name.
    pub name: &'static str,
    pub players: usize,
    /// Rounds written: all but the last `playing` ones finished.
    pub rounds: u32,
    /// 1 leaves the last round playing (no results); 0 finishes every round.
    pub playing: u32,
    /// Fixed libraries: two per table (seats A and B), each match seated at its table's pair.
    pub libraries: bool,
    /// `event set` pairs applied before the rows are written.
    pub settings: &'static [(&'static str, &'static str)],
}

/// One game written: its match id, round, table and players (indices from 0; `b` None for a bye).
pub struct Game {
    pub id: i64,
    pub round: u32,
    pub table: u32,
    pub a: usize,
    pub b: Option<usize>,
}

/// A player's name from an index from 0: "Player 0001".
pub fn name(i: usize) -> String {
    format!("Player {:04}", i + 1)
}

/// A small deterministic generator (xorshift), so the benches need no extra crates.
pub struct Rng(pub u64);

impl Rng {
    /// A number in 0..n.
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Makes the event `dir/NAME.db` and applies the plan's settings; `fill` then writes its rows.
pub fn new_event(dir: &Path, plan: &Plan) -> PathBuf {
    let db = dir.join(format!("{}.db", plan.name));
    // A kept bench folder (MMJUDGE_BENCH_DIR) holds the last run's file: the bench made it, it goes.
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(dir.join(format!("{}.db{suffix}", plan.name)));
    }
    must(&db, &["event", "new", plan.name, "--seed", "7"]);
    for (key, value) in plan.settings {
        must(&db, &["event", "set", key, value]);
    }
    db
}

/// `new_event` then `fill`: returns the event file and the games of the last round.
pub fn build(dir: &Path, plan: &Plan, extra: impl FnMut(&Transaction, &mut Rng, &Game)) -> (PathBuf, Vec<Game>) {
    let db = new_event(dir, plan);
    let last = fill(&db, plan, extra);
    (db, last)
}

/// Writes players, libraries and rounds in one transaction; `extra` adds more rows for each game (notes,
/// decisions...). Rounds are paired Swiss-like (by points, ties shuffled). Returns the last round's games.
pub fn fill(db: &Path, plan: &Plan, mut extra: impl FnMut(&Transaction, &mut Rng, &Game)) -> Vec<Game> {
    let mut conn = Connection::open(db).expect("open the event");
    let tx = conn.transaction().expect("transaction");
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    players(&tx, plan.players);
    let libraries = if plan.libraries { libraries(&tx, plan.players.div_ceil(2)) } else { Vec::new() };
    let mut points = vec![0u32; plan.players];
    let mut last = Vec::new();
    for round in 1..=plan.rounds {
        let finished = round + plan.playing <= plan.rounds;
        last = round_rows(&tx, &mut rng, round, finished, &libraries, &mut points);
        for game in &last {
            extra(&tx, &mut rng, game);
        }
    }
    tx.commit().expect("commit");
    last
}

fn players(tx: &Transaction, count: usize) {
    let mut add = tx.prepare("INSERT INTO player (id, name, name_key) VALUES (?1, ?2, lower(?2))").expect("sql");
    for i in 0..count {
        add.execute(params![i as i64 + 1, name(i)]).expect("player");
    }
}

/// Two libraries for each table; returns their ids by table (index 0 is table 1).
fn libraries(tx: &Transaction, tables: usize) -> Vec<(i64, i64)> {
    let mut add = tx.prepare("INSERT INTO library (table_no, seat) VALUES (?1, ?2)").expect("sql");
    (1..=tables as i64)
        .map(|t| {
            let a = add.insert(params![t, "A"]).expect("library");
            (a, add.insert(params![t, "B"]).expect("library"))
        })
        .collect()
}

/// One round: pairs by points (ties shuffled); when finished, started and ended with results (half seat A, 40% seat B, 10%
/// draws) with an audit entry naming both players, as `result` leaves.
fn round_rows(
    tx: &Transaction,
    rng: &mut Rng,
    round: u32,
    finished: bool,
    libraries: &[(i64, i64)],
    points: &mut [u32],
) -> Vec<Game> {
    let hour = format!("2026-05-01T{:02}", 8 + round);
    tx.execute(
        "INSERT INTO round (number, movement, paired_at, started_at, ended_at) VALUES (?1, 'swiss', ?2, ?3, ?4)",
        params![
            round,
            format!("{hour}:00:00.000Z"),
            finished.then(|| format!("{hour}:05:00.000Z")),
            finished.then(|| format!("{hour}:55:00.000Z"))
        ],
    )
    .expect("round");
    let shuffle: Vec<usize> = (0..points.len()).map(|_| rng.below(1 << 30)).collect();
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by_key(|&p| (std::cmp::Reverse(points[p]), shuffle[p]));
    let mut add = tx
        .prepare_cached(
            "INSERT INTO match (round, table_no, a_player, b_player, a_library, b_library, result, reason, life_a, \
             life_b, result_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 0, ?10)",
        )
        .expect("sql");
    let mut games = Vec::new();
    for (t, pair) in order.chunks(2).enumerate() {
        let (a, b) = (pair[0], pair.get(1).copied());
        let result = match (finished, b) {
            (false, _) => None,
            (true, None) => Some("A"),
            (true, Some(_)) => Some(match rng.below(10) {
                0 => "draw",
                1..=4 => "B",
                _ => "A",
            }),
        };
        score(points, a, b, result);
        let (la, lb) = libraries.get(t).map_or((None, None), |&(la, lb)| (Some(la), Some(lb)));
        let at = result.map(|_| format!("{hour}:45:00.000Z"));
        let life = result.map(|_| 1 + rng.below(20) as i64);
        let player = |p: Option<usize>| p.map(|p| p as i64 + 1);
        let id = add
            .insert(params![
                round,
                t as i64 + 1,
                a as i64 + 1,
                player(b),
                la,
                lb,
                result,
                result.map(|_| "life"),
                life,
                at
            ])
            .expect("match");
        if let Some(at) = &at {
            audit(tx, at, &[a, b.unwrap_or(a)]);
        }
        games.push(Game { id, round, table: t as u32 + 1, a, b });
    }
    games
}

fn score(points: &mut [u32], a: usize, b: Option<usize>, result: Option<&str>) {
    match (result, b) {
        (Some("A"), _) => points[a] += 3,
        (Some("B"), Some(b)) => points[b] += 3,
        (Some("draw"), Some(b)) => {
            points[a] += 1;
            points[b] += 1;
        }
        _ => {}
    }
}

fn audit(tx: &Transaction, at: &str, players: &[usize]) {
    let mut entry = tx
        .prepare_cached(
            "INSERT INTO audit (at, judge, command_line, summary) VALUES (?1, 'bench', 'mmjudge result', 'result')",
        )
        .expect("sql");
    let id = entry.insert([at]).expect("audit");
    let mut about = tx.prepare_cached("INSERT OR IGNORE INTO audit_player VALUES (?1, ?2)").expect("sql");
    for &p in players {
        about.execute(params![id, p as i64 + 1]).expect("audit player");
    }
}

/// Template notes, decisions and now and then a challenge, a ruling or a penalty at a game: a judged table.
/// `cards` are (name, printed cost) pairs to declare; `notes` a game.
pub fn judged(tx: &Transaction, rng: &mut Rng, game: &Game, cards: &[(String, String)], notes: usize) {
    let Some(b) = game.b else { return };
    let players = [game.a as i64 + 1, b as i64 + 1];
    let hour = format!("2026-05-01T{:02}", 8 + game.round);
    let mut note = tx
        .prepare_cached(
            "INSERT INTO template_note (match_id, player_id, cost, card_name, at) VALUES (?1, ?2, ?3, ?4, ?5)",
        )
        .expect("sql");
    for k in 0..notes {
        let (card, cost) = &cards[rng.below(cards.len())];
        note.execute(params![game.id, players[k % 2], cost, card, format!("{hour}:{:02}:00.000Z", 5 + k)])
            .expect("note");
    }
    let mut decision = tx
        .prepare_cached(
            "INSERT INTO decision (match_id, player_id, started_at, ended_at, duration_ms, limit_ms, overrun_ms) \
             VALUES (?1, ?2, ?3, ?3, ?4, 45000, ?5)",
        )
        .expect("sql");
    for k in 0..40 {
        let took = 5000 + rng.below(45_000) as i64;
        let at = format!("{hour}:{:02}:{:02}.000Z", 5 + k, rng.below(60));
        decision.execute(params![game.id, players[k % 2], at, took, (took - 45_000).max(0)]).expect("decision");
    }
    let at = |minute: u32| format!("{hour}:{minute:02}:00.000Z");
    if rng.below(3) == 0 {
        let by = rng.below(2);
        let (ruling, loser) = if rng.below(2) == 0 { ("denied", by) } else { ("upheld", 1 - by) };
        tx.execute(
            "INSERT INTO challenge (match_id, by_player, about, ruling, loser, judge, at) \
             VALUES (?1, ?2, 'what the card does', ?3, ?4, 'bench', ?5)",
            params![game.id, players[by], ruling, players[loser], at(20)],
        )
        .expect("challenge");
    }
    if rng.below(8) == 0 {
        tx.execute(
            "INSERT INTO ruling (match_id, text, judge, at) VALUES (?1, 'the trigger resolves first', 'bench', ?2)",
            params![game.id, at(25)],
        )
        .expect("ruling");
    }
    if rng.below(6) == 0 {
        tx.execute(
            "INSERT INTO penalty (player_id, match_id, infraction, penalty, judge, at) \
             VALUES (?1, ?2, 'game-rule-violation', 'warning', 'bench', ?3)",
            params![players[rng.below(2)], game.id, at(30)],
        )
        .expect("penalty");
    }
}

/// Up to `limit` ordinary spells of the imported reference, as (name, printed cost), minus `except`.
pub fn spells(db: &Path, limit: usize, except: &[&str]) -> Vec<(String, String)> {
    let conn = Connection::open(db).expect("open the event");
    let mut stmt = conn
        .prepare(
            "SELECT name, mana_cost FROM card WHERE mana_cost LIKE '{%' AND layout = 'normal' ORDER BY id LIMIT ?1",
        )
        .expect("sql");
    let rows = stmt.query_map([limit as i64], |r| Ok((r.get(0)?, r.get(1)?))).expect("cards");
    rows.map(|r| r.expect("card")).filter(|(n, _): &(String, String)| !except.contains(&n.as_str())).collect()
}

/// Results for every game of `round` still playing: seat A or B by table and round (varied scores).
pub fn finish(db: &Path, round: u32) {
    let conn = Connection::open(db).expect("open the event");
    conn.execute(
        "UPDATE match SET result = CASE ((table_no * 7 + ?1 * 3) / 2) % 2 WHEN 0 THEN 'A' ELSE 'B' END, \
         reason = 'life', result_at = '2026-05-01T12:00:00Z' WHERE round = ?1 AND result IS NULL AND b_player IS NOT NULL",
        [round],
    )
    .expect("results");
}

/// Drops every 97th player after round 6 and disqualifies every 1001st.
pub fn drop_some(db: &Path) {
    let conn = Connection::open(db).expect("open the event");
    conn.execute_batch(
        "UPDATE player SET dropped_after = 6 WHERE id % 97 = 0; UPDATE player SET disqualified = 1 WHERE id % 1001 = 0;",
    )
    .expect("drops");
}

/// `count` finished decisions spread over the round's tables and players.
pub fn decisions(db: &Path, count: i64, tables: i64, players: i64) {
    let conn = Connection::open(db).expect("open the event");
    conn.execute(
        "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?1 - 1) \
         INSERT INTO decision (match_id, player_id, started_at, ended_at, duration_ms, limit_ms, overrun_ms) \
         SELECT 1 + i % ?2, 1 + i % ?3, '2026-01-01T10:00:00.000Z', '2026-01-01T10:00:30.000Z', \
         20000 + i * 37 % 40000, 45000, max(0, 20000 + i * 37 % 40000 - 45000) FROM n",
        params![count, tables, players],
    )
    .expect("decisions");
}

/// Starts round `round`'s clock at `at` (a round playing now, for the live server).
pub fn start_round(db: &Path, round: u32, at: chrono::DateTime<chrono::Utc>) {
    let conn = Connection::open(db).expect("open the event");
    let stamp = at.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string();
    conn.execute("UPDATE round SET started_at = ?1 WHERE number = ?2", params![stamp, round]).expect("start the round");
}

/// The audit entries after `after` that a route or command wrote: (id, command line), oldest first.
pub fn audit_after(db: &Path, after: i64) -> Vec<(i64, String)> {
    let conn = Connection::open(db).expect("open the event");
    let mut stmt = conn.prepare("SELECT id, command_line FROM audit WHERE id > ?1 ORDER BY id").expect("sql");
    let rows = stmt.query_map([after], |r| Ok((r.get(0)?, r.get(1)?))).expect("audit");
    rows.map(|r| r.expect("audit row")).collect()
}

/// The highest audit id.
pub fn last_audit(db: &Path) -> i64 {
    let conn = Connection::open(db).expect("open the event");
    conn.query_row("SELECT coalesce(max(id), 0) FROM audit", [], |r| r.get(0)).expect("audit")
}

/// Up to `limit` ordinary spells a player may declare in a default event: no excluded kind (joke, digital...),
/// not banned; as (name, printed cost).
pub fn declarable(db: &Path, limit: usize) -> Vec<(String, String)> {
    let conn = Connection::open(db).expect("open the event");
    let mut stmt = conn
        .prepare(
            "SELECT name, mana_cost FROM card WHERE mana_cost LIKE '{%' AND layout = 'normal' AND kinds = '' \
             AND name NOT IN (SELECT card_name FROM ban) ORDER BY id LIMIT ?1",
        )
        .expect("sql");
    let rows = stmt.query_map([limit as i64], |r| Ok((r.get(0)?, r.get(1)?))).expect("cards");
    rows.map(|r| r.expect("card")).collect()
}
