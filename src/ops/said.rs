//! A write's summary said two ways: the command line's words (the audit line, byte for byte as before) and the
//! web's (no command to type: what to tap, or whom to ask). Most of a summary is the same for both; only a
//! consequence's way forward differs, as a refusal's [`crate::error::WayOut`] does.

/// A summary being written, in the command line's words and the web's.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Said {
    /// The command line's words (the audit line).
    pub cli: String,
    /// The web's words.
    pub web: String,
}

impl Said {
    /// A summary that starts with `text`, the same for both.
    pub fn new(text: impl Into<String>) -> Said {
        let cli = text.into();
        Said { web: cli.clone(), cli }
    }

    /// Adds `text` to both.
    pub fn push(&mut self, text: &str) {
        self.cli.push_str(text);
        self.web.push_str(text);
    }

    /// Adds a way forward worded for each front end.
    pub fn hint(&mut self, cli: &str, web: &str) {
        self.cli.push_str(cli);
        self.web.push_str(web);
    }
}
