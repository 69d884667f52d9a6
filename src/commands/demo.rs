//! `demo`: a whole simulated tournament on the bundled examples.

use super::Ctx;
use crate::cli::DemoArgs;
use crate::error::{Error, Result};
use crate::store::player;

/// The bundled example players (16, varied names).
pub const PLAYERS_CSV: &str = include_str!("../../examples/players.csv");

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
