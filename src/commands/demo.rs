//! `demo`: a whole simulated tournament on the bundled examples, run through the judge actions of `ops`.
//!
//! The demo writes the bundled reference, pool and players into `<out>/data/`, creates a fresh event
//! (default `./mmjudge-demo.db`), then takes every step a judge would — import, curation, libraries,
//! pairing by the movement, the round clock, timed decisions, template notes (with a few refused
//! attempts shown as the judge sees them), challenges, a penalty, results, a drop, standings and the site.
//! Each judge action calls its `ops` function on one connection kept for the whole event, as a simulated
//! judge at the simulated clock, and the audit log records the command line that judge would have typed.
//! What a judge reads (a card's text, the standings) and the printed files (deck sheets, the site) are the
//! real commands' own output, run in-process.

mod day;
mod table;

use super::Ctx;
use crate::cli::{Cli, DemoArgs};
use crate::domain::simulate::Simulator;
use crate::error::{Error, Result};
use crate::ops::cards as card_import;
use crate::render::Format;
use crate::store::{Actor, Store, file};
use chrono::{DateTime, Duration, TimeZone, Utc};
use clap::Parser;
use std::path::{Path, PathBuf};

/// The bundled example players (16, varied names).
pub const PLAYERS_CSV: &str = include_str!("../../examples/players.csv");
/// The bundled card reference (a curated subset of real cards).
pub const CARDS_CSV: &str = include_str!("../../examples/cards.csv");
/// Texts for a few cards of the bundled reference (in our own words), imported on top of it.
pub const CARD_TEXTS_CSV: &str = include_str!("../../examples/card-texts.csv");
/// The bundled judge's pool.
pub const POOL_CSV: &str = include_str!("../../examples/pool.csv");

/// The demo event's name: an event file holding any other event is never replaced by the demo.
const DEMO_EVENT: &str = "Mental Magic Demo Open";

/// Tables per round that get the full simulation (notes, decisions, challenges); the rest only results.
const DETAILED_TABLES: u32 = 12;

/// The running demo: its event (one connection for the whole run), its simulated clock and its dice.
pub struct Demo {
    ctx: Ctx,
    store: Store,
    now: DateTime<Utc>,
    sim: Simulator,
    out: PathBuf,
    /// Refused attempts shown so far (the demo shows a few, as a judge would see them).
    pub shown_refusals: usize,
}

impl Demo {
    /// Takes one judge action at the simulated now (or at `at`, the moment the action records, when that is
    /// later: the simulated judge enters it then), recording `line` as the command the judge would type.
    pub fn act<T>(
        &mut self,
        line: &[&str],
        at: Option<DateTime<Utc>>,
        action: impl FnOnce(&mut Store, &Actor) -> Result<T>,
    ) -> Result<T> {
        let now = at.map_or(self.now, |d| d.max(self.now));
        let actor = Actor {
            judge: self.ctx.judge.clone(),
            command_line: command_line(line),
            at: now,
            via: "cli".to_string(),
            claim: None,
        };
        let store = &mut self.store;
        crate::time::simulated(now, || action(store, &actor))
    }

    /// Runs one command line silently at the simulated now (the printed files: deck sheets, the site).
    pub fn run(&self, args: &[&str]) -> Result<()> {
        self.run_as(args, Format::Quiet)
    }

    /// Runs one command line, printing its output as a person would see it.
    pub fn show(&self, args: &[&str]) -> Result<()> {
        self.run_as(args, Format::Human)
    }

    fn run_as(&self, args: &[&str], format: Format) -> Result<()> {
        let line: Vec<String> = std::iter::once("mmjudge").chain(args.iter().copied()).map(String::from).collect();
        let cli = Cli::try_parse_from(&line).map_err(|e| Error::refused(format!("demo: {}", e.to_string().trim())))?;
        let ctx = Ctx { format, command_line: line.join(" "), now: Some(self.now), ..self.ctx.clone() };
        crate::time::simulated(self.now, || super::dispatch(cli, &ctx))
    }

    /// The event, for reading (through `ops::demo`).
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The simulated clock.
    pub fn now(&self) -> DateTime<Utc> {
        self.now
    }

    /// Moves the simulated clock to `at`.
    pub fn set_now(&mut self, at: DateTime<Utc>) {
        self.now = at;
    }

    /// The dice.
    pub fn sim(&mut self) -> &mut Simulator {
        &mut self.sim
    }
}

/// Runs the demo.
pub fn run(ctx: &Ctx, args: DemoArgs) -> Result<()> {
    if args.players < 2 {
        return Err(Error::refused("the demo needs at least 2 players: try --players 16"));
    }
    if args.rounds == 0 || args.rounds > 20 {
        return Err(Error::refused("the demo runs 1 to 20 rounds: try --rounds 5"));
    }
    let most = most_players();
    if args.players as usize > most {
        let stocked = most.saturating_add(day::LATE_COUNT).div_ceil(2);
        let bound = if stocked >= crate::domain::bounds::MAX_TABLES as usize {
            "the bound on tables".to_string()
        } else {
            format!(
                "as many as its pool's {} cards of at most {} copies each stock (the bound on one card's copies)",
                pool_cards().len(),
                crate::domain::bounds::grouped(i64::from(crate::domain::bounds::MAX_COPIES))
            )
        };
        return Err(Error::refused(format!(
            "the demo seats at most {} players: with its {} late players, {} tables, {bound}; try --players {}",
            crate::domain::bounds::grouped(most as i64),
            day::LATE_COUNT,
            crate::domain::bounds::grouped(stocked as i64),
            most
        )));
    }
    crate::output::check_folder(&args.out)?;
    if args.out.exists() && !args.out.is_dir() {
        return Err(Error::refused(format!(
            "{} is a file, not a folder: give the demo a folder, e.g. --out mmjudge-demo",
            args.out.display()
        )));
    }
    let db = demo_db(ctx);
    check_not_a_real_event(&db)?;
    let created_db = !matches!(file::inspect(&db)?, file::Found::Event(_));
    // What this run creates, so that a demo that stops leaves nothing it made.
    let data = args.out.join("data");
    let new = |p: &Path| std::fs::symlink_metadata(p).is_err();
    let new_folders: Vec<PathBuf> =
        [args.out.clone(), args.out.join("libraries"), args.out.join("site")].into_iter().filter(|p| new(p)).collect();
    let new_files: Vec<PathBuf> = ["cards.csv", "card-texts.csv", "pool.csv", "players.csv"]
        .iter()
        .map(|n| data.join(n))
        .filter(|p| new(p))
        .collect();
    let new_data = new(&data);
    let result = play(ctx, &args, &db);
    if result.is_ok() && args.serve {
        return serve(ctx, &db, args.bind, args.quiet);
    }
    if result.is_err() {
        if created_db {
            for suffix in ["", "-wal", "-shm", "-journal"] {
                let mut p = db.as_os_str().to_owned();
                p.push(suffix);
                let _ = std::fs::remove_file(PathBuf::from(p));
            }
        }
        for f in &new_files {
            let _ = std::fs::remove_file(f);
        }
        if new_data {
            let _ = std::fs::remove_dir(&data);
        }
        for folder in new_folders.iter().rev() {
            let _ = std::fs::remove_dir_all(folder);
        }
    }
    result
}

fn play(ctx: &Ctx, args: &DemoArgs, db: &Path) -> Result<()> {
    let started = std::time::Instant::now();
    let data = args.out.join("data");
    std::fs::create_dir_all(&data).map_err(|e| Error::io(&data, e))?;
    let files = write_data(&data, args.players as usize)?;
    let day = Utc.with_ymd_and_hms(2026, 6, 13, 9, 0, 0).single().unwrap_or_else(Utc::now);
    let ctx = Ctx { db: db.to_path_buf(), judge: "Demo Judge".into(), ..ctx.clone() };
    create_event(&ctx, args, day)?;
    let mut demo = Demo {
        store: Store::open(db)?,
        ctx,
        now: day,
        sim: Simulator::new(args.seed),
        out: args.out.clone(),
        shown_refusals: 0,
    };
    setup(&mut demo, args, &files)?;
    for round in 1..=args.rounds {
        let start = day + Duration::minutes(30 + 70 * i64::from(round - 1));
        table::play_round(&mut demo, round, start)?;
        if round == 1 && args.rounds > 1 {
            day::late_entries(&mut demo, start + Duration::minutes(57))?;
        }
        if round == 2 && args.rounds > 2 {
            drop_one(&mut demo)?;
        }
    }
    finish(&mut demo, db, started)
}

/// The files the demo imports: written from the bundled examples into `<out>/data`.
struct DataFiles {
    cards: PathBuf,
    texts: PathBuf,
    pool: PathBuf,
    players: PathBuf,
}

fn write_data(dir: &Path, players: usize) -> Result<DataFiles> {
    let files = DataFiles {
        cards: dir.join("cards.csv"),
        texts: dir.join("card-texts.csv"),
        pool: dir.join("pool.csv"),
        players: dir.join("players.csv"),
    };
    let header = |text: &'static str| crate::output::Kind::DemoData(text.lines().next().unwrap_or_default());
    crate::output::write(&files.cards, header(CARDS_CSV), false, CARDS_CSV.as_bytes())?;
    crate::output::write(&files.texts, header(CARD_TEXTS_CSV), false, CARD_TEXTS_CSV.as_bytes())?;
    // The pool also has room for the late players' table.
    let pool = scaled_pool(players + day::LATE_COUNT);
    let players = player_csv(players);
    crate::output::write(&files.pool, header(POOL_CSV), false, pool.as_bytes())?;
    crate::output::write(&files.players, header(PLAYERS_CSV), false, players.as_bytes())?;
    Ok(files)
}

/// The bundled pool's lines after its header: (the line before its count, its count).
fn pool_cards() -> Vec<(&'static str, usize)> {
    POOL_CSV
        .lines()
        .skip(1)
        .filter_map(|l| {
            let (head, count) = l.rsplit_once(',')?;
            Some((head, count.trim().parse().ok()?))
        })
        .collect()
}

/// Of a pool's copies, the share a build is sure to use (nine in ten).
fn usable(copies: usize) -> usize {
    copies * 9 / 10
}

/// The most players the demo seats (the late players' table added): as many as its pool stocks with every
/// card at most [`crate::domain::bounds::MAX_COPIES`] copies, and no more than the table bound allows.
pub fn most_players() -> usize {
    let max = crate::domain::bounds::MAX_COPIES as usize;
    let tables = (usable(pool_cards().len() * max) / (2 * 40)).min(crate::domain::bounds::MAX_TABLES as usize);
    (tables * 2).saturating_sub(day::LATE_COUNT)
}

/// The bundled pool, with every count multiplied so that big demos have enough cards (40 per player), each
/// card at most [`crate::domain::bounds::MAX_COPIES`] copies (the factor grows until the copies suffice).
fn scaled_pool(players: usize) -> String {
    let cards = pool_cards();
    let max = crate::domain::bounds::MAX_COPIES as usize;
    let capped = |factor: usize| -> usize { cards.iter().map(|c| (c.1 * factor).min(max)).sum() };
    let copies: usize = cards.iter().map(|c| c.1).sum();
    let needed = players.div_ceil(2) * 2 * 40;
    let mut factor = needed.div_ceil(usable(copies).max(1)).max(1);
    if factor == 1 {
        return POOL_CSV.to_string();
    }
    while usable(capped(factor)) < needed && factor < max {
        factor += 1;
    }
    let mut out = String::new();
    if let Some(header) = POOL_CSV.lines().next() {
        out.push_str(header);
        out.push('\n');
    }
    for (head, n) in cards {
        out.push_str(&format!("{head},{}\n", (n * factor).min(max)));
    }
    out
}

/// The bundled players first, then numbered extras.
fn player_csv(n: usize) -> String {
    let mut lines: Vec<String> = PLAYERS_CSV.lines().map(String::from).collect();
    lines.truncate(n + 1);
    for i in lines.len()..=n {
        lines.push(format!("Player {i:04},D{i:04},"));
    }
    lines.join("\n") + "\n"
}

/// Creates the demo's event, replacing an earlier demo's.
fn create_event(ctx: &Ctx, args: &DemoArgs, day: DateTime<Utc>) -> Result<()> {
    let (rounds, seed) = (args.rounds.to_string(), args.seed.to_string());
    let line = command_line(&["event", "new", DEMO_EVENT, "--rounds", &rounds, "--seed", &seed]);
    let ctx = Ctx { command_line: line, now: Some(day), ..ctx.clone() };
    let input = crate::ops::event::NewEvent {
        path: &ctx.db,
        name: DEMO_EVENT,
        rounds: args.rounds,
        seed: Some(args.seed),
        force: true,
        keep: false,
    };
    crate::ops::event::create(&ctx.actor()?, input)?;
    Ok(())
}

fn setup(demo: &mut Demo, args: &DemoArgs, files: &DataFiles) -> Result<()> {
    let path = |p: &Path| p.to_string_lossy().to_string();
    for file in [&files.cards, &files.texts] {
        let shown = path(file);
        let bytes = std::fs::read(file).map_err(|e| Error::io(file, e))?;
        demo.act(&["cards", "import", &shown], None, |s, a| {
            let input = card_import::ImportInput { bytes: &bytes, shown: &shown, replace: false, force: false };
            card_import::import(s, a, input, &mut |_, _, _| {})
        })?;
    }
    let shown = path(&files.players);
    let input = crate::ops::players::read_import(&files.players)?;
    demo.act(&["player", "import", &shown], None, |s, a| crate::ops::players::import_players(s, a, &input))?;
    let shown = path(&files.pool);
    let bytes = std::fs::read(&files.pool).map_err(|e| Error::io(&files.pool, e))?;
    let input =
        crate::ops::pool::edit::ImportInput { bytes, shown: shown.clone(), allow_unknown: false, replace: false };
    demo.act(&["pool", "import", &shown], None, |s, a| crate::ops::pool::edit::import(s, a, input))?;
    let tables = args.players.div_ceil(2);
    let (tables_text, seed) = (tables.to_string(), args.seed.to_string());
    let input = crate::ops::library::BuildInput::new(tables);
    input.check()?;
    demo.act(&["library", "build", "--tables", &tables_text], None, |s, a| crate::ops::library::build(s, a, input))?;
    let sheets = demo.out.join("libraries");
    demo.run(&["library", "sheets", &path(&sheets)])?;
    day::inspection(demo)?;
    let (libraries, report) = crate::ops::demo::opening(demo.store())?;
    println!(
        "Mental Magic Demo Open: {}, {}, {libraries} libraries of 40 cards on {tables} tables (seed {seed})",
        crate::domain::words::count(args.players, "player"),
        crate::domain::words::count(args.rounds, "round")
    );
    println!("  pool curation: {}", crate::render::pages::curation_summary(&report));
    println!("  deck sheets: {}", sheets.join("index.html").display());
    println!("\nDuring a challenge, what does the card do?");
    demo.show(&["cards", "show", "demonic tutr"])?;
    demo.show(&["cards", "find", "--text", "draw cards lose life", "--cost", "B1"])?;
    println!();
    Ok(())
}

/// The command line a judge would type for an action (the audit log records it).
fn command_line(args: &[&str]) -> String {
    let mut line = String::from("mmjudge");
    for a in args {
        line.push(' ');
        line.push_str(a);
    }
    line
}

/// After round 2 a player drops (the field changes, so the movement carries on with Swiss pairing).
fn drop_one(demo: &mut Demo) -> Result<()> {
    let players = crate::ops::demo::players(demo.store())?;
    if let Some(p) = players.iter().rev().find(|p| p.active_in(3) && p.joined_round <= 1) {
        demo.act(&["player", "drop", &p.name], None, |s, a| crate::ops::players::drop_player(s, a, &p.name))?;
        println!("  {} drops after round 2", p.name);
    }
    Ok(())
}

fn finish(demo: &mut Demo, db_path: &Path, started: std::time::Instant) -> Result<()> {
    let db = db_path.display();
    println!();
    demo.show(&["standings"])?;
    let site = demo.out.join("site");
    demo.run(&["site", &site.to_string_lossy(), "--judges"])?;
    println!(
        "\nDone in {:.1} s. Event file: {}  Site: {}",
        started.elapsed().as_secs_f64(),
        db,
        site.join("index.html").display()
    );
    println!("Look around: mmjudge --db {db} standings   (or: results --round 1, pairings, log, player history NAME)");
    println!("From the source tree:  cargo run --release -- --db {db} standings");
    Ok(())
}

/// `demo --serve`: the finished event served exactly as `mmjudge serve --bind ADDR` serves it (the same
/// command, run on the demo's file at the real clock), so that a new user can walk through it on a phone.
fn serve(ctx: &Ctx, db: &Path, bind: Option<std::net::SocketAddr>, quiet: bool) -> Result<()> {
    let bind = bind.map(|b| b.to_string());
    let mut line = vec!["mmjudge", "serve"];
    if let Some(b) = &bind {
        line.extend(["--bind", b]);
    }
    if quiet {
        line.push("--quiet");
    }
    let cli = Cli::try_parse_from(&line).map_err(|e| Error::refused(format!("demo: {}", e.to_string().trim())))?;
    println!("\nServing the demo's event live: open the address below on a phone on the same network.");
    let ctx = Ctx { db: db.to_path_buf(), command_line: line.join(" "), now: None, ..ctx.clone() };
    super::dispatch(cli, &ctx)
}

/// Refuses to replace an event file that holds a real event (say `MMJUDGE_DB` still points at one).
fn check_not_a_real_event(db: &Path) -> Result<()> {
    let name = match file::inspect(db)? {
        file::Found::Nothing | file::Found::Unfinished => return Ok(()),
        file::Found::NotEvent(e) => return Err(e),
        file::Found::Event(name) if name == DEMO_EVENT => return Ok(()),
        file::Found::Event(name) => name,
    };
    Err(Error::refused(format!(
        "{} holds the event \"{name}\"; the demo would replace it: give the demo its own file, e.g. `mmjudge --db demo.db demo`",
        db.display()
    )))
}

/// The demo's database: --db when given explicitly, else ./mmjudge-demo.db.
fn demo_db(ctx: &Ctx) -> PathBuf {
    if ctx.db == Path::new("mmjudge.db") { PathBuf::from("mmjudge-demo.db") } else { ctx.db.clone() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_big_demo_pool_keeps_every_card_within_the_copy_bound_and_stocks_its_tables() {
        let max = crate::domain::bounds::MAX_COPIES as usize;
        for players in [16, 600, 4096, 8192, most_players()] {
            let pool = scaled_pool(players + day::LATE_COUNT);
            let counts: Vec<usize> =
                pool.lines().skip(1).filter_map(|l| l.rsplit(',').next()?.trim().parse().ok()).collect();
            assert_eq!(counts.len(), pool_cards().len());
            assert!(counts.iter().all(|&n| n <= max), "{players}");
            let needed = (players + day::LATE_COUNT).div_ceil(2) * 2 * 40;
            assert!(usable(counts.iter().sum()) >= needed, "{players}: {} copies", counts.iter().sum::<usize>());
        }
        assert_eq!(scaled_pool(16), POOL_CSV, "a small demo's pool is the bundled one");
        let tables = crate::domain::bounds::MAX_TABLES as usize;
        assert_eq!(most_players(), tables * 2 - day::LATE_COUNT, "the table bound, not the copy bound, binds");
        let spells: usize = pool_cards().iter().filter(|(head, _)| !head.contains("Land")).count();
        assert!(usable(spells * max) >= tables * 2 * 40, "{spells} spells at the copy bound stock every table");
    }
}
