//! mmjudge: the judge's bookkeeping for Mental Magic tournaments.
//!
//! Layers: `cli` (clap types) -> `commands` (one module per group, glue) -> `domain` (pure rules),
//! `store` (all SQL) and `render` (tables, JSON, CSV, HTML).

pub mod cli;
pub mod clock_screen;
pub mod commands;
pub mod domain;
pub mod error;
pub mod ops;
pub mod render;
pub mod store;
pub mod time;

use clap::Parser;

/// Parses the command line, runs the command, prints any error on one line, and returns the exit code.
pub fn run() -> i32 {
    let args: Vec<String> = std::env::args().collect();
    let cli = match cli::Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = e.exit_code();
            let _ = e.print();
            return code;
        }
    };
    let ctx = commands::Ctx::from_cli(&cli, &args);
    match commands::dispatch(cli, &ctx) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            e.exit_code()
        }
    }
}
