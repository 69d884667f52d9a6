//! `judge` and `serve`: the judges who log in to the live server, and the server itself.

use std::net::SocketAddr;

/// `judge` verbs.
#[derive(Debug, clap::Subcommand)]
pub enum JudgeCmd {
    /// Add a judge: prints a PIN (shown this once) and a login QR code.
    Add {
        /// The judge's name (used to log in).
        name: String,
        /// floor (records at the table) or head (also rounds, corrections, settings).
        #[arg(long, value_enum)]
        role: RoleArg,
        /// The server's address for the login QR code (default: the first address `mmjudge serve` announces
        /// with its default --bind, 0.0.0.0:8080).
        #[arg(long, value_name = "URL")]
        url: Option<String>,
    },
    /// Give a judge a new PIN: the old one stops working and the judge's logins end.
    Pin {
        /// The judge.
        name: String,
        /// The server's address for the login QR code (default: the first address `mmjudge serve` announces
        /// with its default --bind, 0.0.0.0:8080).
        #[arg(long, value_name = "URL")]
        url: Option<String>,
    },
    /// A one-time login link for a judge on a new phone (a QR code): it logs in once without the PIN, for a few
    /// minutes, even while wrong guesses hold the PIN back; the PIN stays as it is.
    Link {
        /// The judge.
        name: String,
        /// The server's address for the link (default: the first address `mmjudge serve` announces with its
        /// default --bind, 0.0.0.0:8080).
        #[arg(long, value_name = "URL")]
        url: Option<String>,
        /// How long the link works, in minutes (1 to 1440).
        #[arg(long, default_value_t = crate::ops::judges::link::LINK_MINUTES, value_name = "N")]
        minutes: i64,
    },
    /// List the judges, their roles and open logins.
    List,
    /// Remove a judge: the judge's logins end.
    Remove {
        /// The judge.
        name: String,
    },
}

/// A judge's role as typed.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum RoleArg {
    /// Records at the table.
    Floor,
    /// Also rounds, corrections and settings.
    Head,
}

/// `serve` options.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// Where to listen: 0.0.0.0:8080 for every phone on the venue's network, 127.0.0.1:PORT for this machine
    /// only (port 0: any free port, printed).
    #[arg(long, default_value = crate::render::qr::DEFAULT_BIND, value_name = "ADDRESS:PORT")]
    pub bind: SocketAddr,
    /// Serve HTTPS with this PEM certificate (chain) and its PEM private key (from the organiser).
    #[arg(long, num_args = 2, value_names = ["CERT", "KEY"])]
    pub tls: Option<Vec<std::path::PathBuf>>,
    /// Leave out the request log's line for each request that went well (failures are still written to stderr).
    #[arg(long)]
    pub quiet: bool,
    /// Run as the standby (a second laptop) of the primary server at URL: a full copy into --db first, then
    /// every change as it is made; pages are served, writes refused until `mmjudge standby promote`.
    #[arg(long, value_name = "URL", requires = "key")]
    pub standby_of: Option<String>,
    /// The standby key `mmjudge standby key` printed on the primary.
    #[arg(long, value_name = "KEY", env = "MMJUDGE_STANDBY_KEY", hide_env_values = true, requires = "standby_of")]
    pub key: Option<String>,
    /// The address the primary gives phones for this standby (default: its first network address).
    #[arg(long, value_name = "URL", requires = "standby_of")]
    pub advertise: Option<String>,
    /// Answer a write only once the standby applied it (or, after 500 ms, marked behind).
    #[arg(long, conflicts_with = "standby_of")]
    pub standby_required: bool,
    /// Live-update streams one address may hold at once (a venue's NAT puts a few dozen phones behind one).
    #[arg(long, value_name = "N", default_value_t = 64, value_parser = clap::value_parser!(u16).range(1..))]
    pub streams_per_address: u16,
    /// Start a new event from the browser: --db names a file that holds no event yet, and a one-time set-up
    /// link (with its QR code) creates the event and its head judge. Without --new a missing file is refused.
    #[arg(long, conflicts_with = "standby_of")]
    pub new: bool,
}
