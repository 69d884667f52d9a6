//! mmjudge: the judge's bookkeeping for Mental Magic tournaments.
//!
//! The house, top down: `cli` (clap types) and `commands` (the command-line front end: parse, call, render) use
//! `ops` (every judge action and view: typed input, typed outcome, one transaction plus its audit row), `render`
//! (tables, JSON, CSV, HTML) and `domain` types; `ops` uses `store` (the connection and every SQL string) and
//! `domain` (pure rules: no I/O, no SQL, no clock); `output` writes files safely (temp file and rename). Nothing
//! outside `commands` uses `commands`, and no command module uses another: `tests/cli/layering.rs` checks both
//! (with no exceptions left), and that SQL is written only in `store`.

#![deny(unsafe_code)]

pub mod cli;
pub mod clock_screen;
pub mod commands;
pub mod domain;
pub mod error;
pub mod ops;
pub mod output;
pub mod render;
pub mod replica;
pub mod store;
pub mod time;
pub mod web;

use clap::Parser;

/// Parses the command line, runs the command, prints any error on one line, and returns the exit code.
///
/// Started with no arguments in a console window of its own (a double-click in Windows' Explorer), mmjudge runs
/// `open`, and on an error waits for Enter so the window does not close before its words are read; typed alone
/// in a terminal it prints its help.
pub fn run() -> i32 {
    let Some(mut args) = std::env::args_os().map(|a| a.into_string().ok()).collect::<Option<Vec<String>>>() else {
        eprintln!("error: an argument is not valid UTF-8 text: type names and paths as UTF-8");
        return 1;
    };
    let double_clicked = args.len() == 1 && console_is_its_own();
    if double_clicked {
        args.push("open".into());
    }
    let code = run_args(&args);
    if double_clicked && code != 0 {
        eprintln!("Press Enter to close this window.");
        let _ = std::io::stdin().read_line(&mut String::new());
    }
    code
}

/// Whether this process is alone in its console: Windows made the console for it (Explorer started it), no
/// terminal or shell shares it. `GetConsoleProcessList` counts the processes attached to the console.
#[cfg(windows)]
#[allow(unsafe_code)]
fn console_is_its_own() -> bool {
    #[link(name = "kernel32")]
    unsafe extern "system" {
        fn GetConsoleProcessList(process_ids: *mut u32, count: u32) -> u32;
    }
    let mut ids = [0u32; 2];
    // SAFETY: the buffer holds the 2 ids its length says; the call only writes into it.
    unsafe { GetConsoleProcessList(ids.as_mut_ptr(), 2) == 1 }
}

/// Elsewhere a program started without a terminal has no window to speak in: the shortcuts open one
/// (`Terminal=true` on Linux, a `.command` file on macOS) and run `mmjudge open`.
#[cfg(not(windows))]
fn console_is_its_own() -> bool {
    false
}

/// [`run`] on the arguments (the program's name first).
fn run_args(args: &[String]) -> i32 {
    if let Some(msg) = typed_control(args) {
        eprintln!("error: {msg}");
        return 1;
    }
    let cli = match cli::Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) if e.kind() == clap::error::ErrorKind::ValueValidation => {
            // A typed value out of its bounds is bad input, not bad usage: one line, exit 1.
            let text = e.to_string();
            let line = text.lines().next().unwrap_or("error: invalid value");
            eprintln!("{}", domain::text::escape(line, false));
            return 1;
        }
        Err(e) if e.kind() == clap::error::ErrorKind::MissingSubcommand => {
            // `mmjudge` or `mmjudge round` alone: that command's help (exit 2), whether or not MMJUDGE_DB is set.
            eprint!("{}", help_of_usage(&e.render().to_string()));
            return e.exit_code();
        }
        Err(e) if e.use_stderr() && e.kind() != clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            // Bad usage: clap's message on one line, as every error is (exit 2).
            eprintln!("{}", domain::text::escape(&usage_line(&e.render().to_string()), false));
            return e.exit_code();
        }
        Err(e) => {
            // Help and version, asked for.
            let code = e.exit_code();
            let _ = e.print();
            return code;
        }
    };
    let ctx = commands::Ctx::from_cli(&cli, args);
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

/// Clap's usage error as one line: its lines joined, the pointer to `--help` left out (the usage line says
/// it all), and the global options out of the usage line (clap lists them there when they come from the
/// environment, as if the command needed them).
fn usage_line(text: &str) -> String {
    let (mut line, mut listing) = (String::new(), false);
    for part in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with("For more information")) {
        let usage = part.strip_prefix("Usage: ");
        // The lines after one ending in a colon are its list ("--by <PLAYER>", "--about <TEXT>"), up to the next
        // section (the usage, a tip).
        listing &= usage.is_none() && !part.starts_with("tip:") && !part.starts_with('[');
        let part = match usage {
            Some(usage) => format!("usage: {}", usage.replace(" --db <FILE>", "").replace(" --judge <NAME>", "")),
            None => part.to_string(),
        };
        if line.ends_with(':') {
            line.push(' ');
            listing = true;
        } else if !line.is_empty() {
            line.push_str(if listing { ", " } else { "; " });
        }
        line.push_str(&part);
    }
    line
}

/// The help of the command a usage error's `Usage: mmjudge round [OPTIONS] <COMMAND>` line names, as
/// `mmjudge round --help` prints it.
fn help_of_usage(text: &str) -> String {
    let usage = text.lines().find_map(|l| l.trim().strip_prefix("Usage: ")).unwrap_or_default();
    let path = usage.split_whitespace().take_while(|w| !w.starts_with(['[', '<', '-']));
    match <cli::Cli as clap::CommandFactory>::command().try_get_matches_from(path.chain(["--help"])) {
        Err(help) => help.render().to_string(),
        Ok(_) => text.to_string(),
    }
}

/// Refuses a control character typed in any argument (a line feed is allowed, for free text over several
/// lines): the message shows the argument with the character escaped.
fn typed_control(args: &[String]) -> Option<String> {
    args.iter().skip(1).find_map(|a| {
        domain::text::check(&format!("the argument \"{}\"", domain::text::escape(a, false)), a, true).err()
    })
}
