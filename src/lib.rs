//! mmjudge: the judge's bookkeeping for Mental Magic tournaments.
//!
//! The house, top down: `cli` (clap types) and `commands` (the command-line front end: parse, call, render) use
//! `ops` (every judge action and view: typed input, typed outcome, one transaction plus its audit row), `render`
//! (tables, JSON, CSV, HTML) and `domain` types; `ops` uses `store` (the connection and every SQL string) and
//! `domain` (pure rules: no I/O, no SQL, no clock); `output` writes files safely (temp file and rename). Nothing
//! outside `commands` uses `commands`, and no command module uses another: `tests/cli/layering.rs` checks both
//! (with no exceptions left), and that SQL is written only in `store`.

pub mod cli;
pub mod clock_screen;
pub mod commands;
pub mod domain;
pub mod error;
pub mod ops;
pub mod output;
pub mod render;
pub mod store;
pub mod time;
pub mod web;

use clap::Parser;

/// Parses the command line, runs the command, prints any error on one line, and returns the exit code.
pub fn run() -> i32 {
    let Some(args) = std::env::args_os().map(|a| a.into_string().ok()).collect::<Option<Vec<String>>>() else {
        eprintln!("error: an argument is not valid UTF-8 text: type names and paths as UTF-8");
        return 1;
    };
    if let Some(msg) = typed_control(&args) {
        eprintln!("error: {msg}");
        return 1;
    }
    let cli = match cli::Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) if e.kind() == clap::error::ErrorKind::ValueValidation => {
            // A typed value out of its bounds is bad input, not bad usage: one line, exit 1.
            let text = e.to_string();
            let line = text.lines().next().unwrap_or("error: invalid value");
            eprintln!("{}", domain::text::escape(line, false));
            return 1;
        }
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
            // The one place errors are printed: a control character in a message (a name read from an old
            // event file, a path) is shown as an escape, never sent raw to the terminal.
            eprintln!("error: {}", domain::text::escape(&e.to_string(), false));
            e.exit_code()
        }
    }
}

/// Refuses a control character typed in any argument (a line feed is allowed, for free text over several
/// lines): the message shows the argument with the character escaped.
fn typed_control(args: &[String]) -> Option<String> {
    args.iter().skip(1).find_map(|a| {
        domain::text::check(&format!("the argument \"{}\"", domain::text::escape(a, false)), a, true).err()
    })
}
