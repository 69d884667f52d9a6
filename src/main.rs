fn main() {
    restore_default_sigpipe();
    std::process::exit(mmjudge::run());
}

/// Lets `mmjudge ... | head` end quietly: with SIGPIPE at its default, a closed pipe ends the process
/// like any Unix tool instead of making `println!` panic.
#[cfg(unix)]
fn restore_default_sigpipe() {
    unsafe extern "C" {
        fn signal(signum: i32, handler: usize) -> usize;
    }
    const SIGPIPE: i32 = 13;
    const SIG_DFL: usize = 0;
    // SAFETY: resetting one signal to its default disposition at start-up, before any thread exists.
    unsafe {
        signal(SIGPIPE, SIG_DFL);
    }
}

#[cfg(not(unix))]
fn restore_default_sigpipe() {}
