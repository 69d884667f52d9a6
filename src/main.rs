#![deny(unsafe_code)]

fn main() {
    restore_default_sigpipe();
    std::process::exit(mmjudge::run());
}

/// Lets `mmjudge ... | head` end quietly: with SIGPIPE at its default, a closed pipe ends the process
/// like any Unix tool instead of making `println!` panic.
#[cfg(unix)]
#[allow(unsafe_code)]
fn restore_default_sigpipe() {
    // SAFETY: resetting one signal to its default disposition at start-up, before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn restore_default_sigpipe() {}
