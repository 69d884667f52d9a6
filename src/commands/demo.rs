//! `demo`: a whole simulated tournament on the bundled examples.

use super::Ctx;
use crate::cli::DemoArgs;
use crate::error::{Error, Result};
use crate::store::player;

/// The bundled example players (16, varied names).
pub const PLAYERS_CSV: &str = include_str!("../../examples/players.csv");
/// The bundled card reference.
pub const CARDS_CSV: &str = include_str!("../../examples/cards.csv");
/// The bundled judges' pool.
pub const POOL_CSV: &str = include_str!("../../examples/pool.csv");

/// Runs the demo into a fresh database (default ./mmjudge-demo.db).
pub fn run(ctx: &Ctx, args: DemoArgs) -> Result<()> {
    if args.players < 2 {
        return Err(Error::refused("the demo needs at least 2 players: --players 16"));
    }
    let demo_ctx = Ctx { db: demo_db(ctx), ..ctx.clone() };
    std::fs::create_dir_all(&args.out).map_err(|e| Error::io(&args.out, e))?;
    let mut store = super::event::create(&demo_ctx, "Mental Magic Demo Open", args.rounds, Some(args.seed), true)?;
    let rows = demo_players(args.players as usize)?;
    let actor = demo_ctx.actor()?;
    store.write(&actor, |tx| super::player::insert_rows(tx, &rows, |_| String::new()))?;
    println!("Demo event in {} ({} players):", demo_ctx.db.display(), rows.len());
    for p in player::all(store.conn())? {
        println!("  {}", p.name);
    }
    libraries(&mut store, &demo_ctx, &args)
}

/// Imports the bundled reference and pool, prints the curation summary, builds the libraries for the
/// demo's tables and writes their deck sheets to `<out>/libraries/`.
fn libraries(store: &mut crate::store::Store, ctx: &Ctx, args: &DemoArgs) -> Result<()> {
    let actor = ctx.actor()?;
    store.write(&actor, |tx| super::cards::import_bytes(tx, CARDS_CSV.as_bytes(), "examples/cards.csv"))?;
    let added = store
        .write(&actor, |tx| super::pool::import_bytes(tx, POOL_CSV.as_bytes(), "examples/pool.csv", false, false))?;
    let report = super::curation::report(store.conn())?;
    println!("Pool: {} copies imported; {}", added.copies, report.summary_line());
    let wanted = args.players.div_ceil(2);
    let most = report.summary.copies / (2 * super::library::MAIN_SIZE as u32);
    let tables = wanted.min(most);
    if tables < wanted {
        println!("The bundled pool fills {most} tables, not {wanted}: building {most}.");
    }
    if tables == 0 {
        return Ok(());
    }
    let line = store.write(&actor, |tx| {
        let (change, line) = super::library::build_for_demo(tx, tables)?;
        Ok((line, change))
    })?;
    println!("Libraries: {line}");
    let dir = args.out.join("libraries");
    let n = super::library_sheets::write_sheets(store.conn(), &dir)?;
    println!("Deck sheets: {n} in {}", dir.join("index.html").display());
    Ok(())
}

/// The demo's database: --db when given explicitly, else ./mmjudge-demo.db.
fn demo_db(ctx: &Ctx) -> std::path::PathBuf {
    if ctx.db == std::path::Path::new("mmjudge.db") {
        std::path::PathBuf::from("mmjudge-demo.db")
    } else {
        ctx.db.clone()
    }
}

/// `n` players: the bundled ones first, then numbered extras.
fn demo_players(n: usize) -> Result<Vec<super::player::NewRow>> {
    let mut reader = csv::Reader::from_reader(PLAYERS_CSV.as_bytes());
    let mut rows = Vec::new();
    for rec in reader.records() {
        let rec = rec.map_err(|e| Error::refused(format!("bundled players.csv: {e}")))?;
        rows.push(super::player::NewRow {
            name: rec.get(0).unwrap_or_default().to_string(),
            ext_id: rec.get(1).map(String::from),
            email: rec.get(2).map(String::from),
        });
    }
    rows.truncate(n);
    for i in rows.len()..n {
        rows.push(super::player::NewRow { name: format!("Player {:04}", i + 1), ext_id: None, email: None });
    }
    Ok(rows)
}
