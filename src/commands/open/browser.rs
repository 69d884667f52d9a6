//! Opening the judge's browser on an address: `$BROWSER` when set (a list of commands separated by `:`, `;` on
//! Windows, each taking the address as its argument or in place of a `%s`, tried in order), else the
//! platform's opener (`xdg-open`, macOS `open`, Windows' URL handler).

use std::process::{Command, Stdio};

/// Starts a browser on `url` without waiting for it; false when no browser could be started.
pub fn open(url: &str) -> bool {
    let chosen = std::env::var("BROWSER").unwrap_or_default();
    let separator = if cfg!(windows) { ';' } else { ':' };
    let listed = chosen.split(separator).filter_map(|entry| command(entry, url));
    listed.chain(std::iter::once(platform(url))).any(start)
}

/// One `$BROWSER` entry as a command for `url`; None when the entry is blank.
fn command(entry: &str, url: &str) -> Option<Command> {
    let mut words = entry.split_whitespace();
    let mut cmd = Command::new(words.next()?);
    let mut placed = false;
    for w in words {
        placed |= w.contains("%s");
        cmd.arg(w.replace("%s", url));
    }
    if !placed {
        cmd.arg(url);
    }
    Some(cmd)
}

/// The platform's way to open an address in the default browser.
fn platform(url: &str) -> Command {
    let mut cmd = if cfg!(windows) {
        let mut c = Command::new("rundll32.exe");
        c.arg("url.dll,FileProtocolHandler");
        c
    } else if cfg!(target_os = "macos") {
        Command::new("open")
    } else {
        Command::new("xdg-open")
    };
    cmd.arg(url);
    cmd
}

/// Starts `cmd` quietly (its output would mix with the window's), without waiting for it: a browser may run as
/// long as the event (the system collects its exit when mmjudge ends).
fn start(mut cmd: Command) -> bool {
    cmd.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null()).spawn().is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(entry: &str) -> Vec<String> {
        let cmd = command(entry, "http://127.0.0.1:8080/judge").expect("a command");
        std::iter::once(cmd.get_program()).chain(cmd.get_args()).map(|a| a.to_string_lossy().into_owned()).collect()
    }

    #[test]
    fn a_browser_entry_takes_the_address_last_or_in_place_of_its_placeholder() {
        assert_eq!(args("firefox"), ["firefox", "http://127.0.0.1:8080/judge"]);
        assert_eq!(args("firefox --new-window"), ["firefox", "--new-window", "http://127.0.0.1:8080/judge"]);
        assert_eq!(args("lynx %s -dump"), ["lynx", "http://127.0.0.1:8080/judge", "-dump"]);
        assert!(command("  ", "http://x").is_none());
    }
}
