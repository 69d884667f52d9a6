//! Listening: plain HTTP, or HTTPS with the organiser's certificate (`serve --tls CERT KEY`), one hyper
//! HTTP/1.1 connection per phone with a header-read timeout (a client that never finishes its request's
//! headers is cut off; the per-request timeout is in [`super::layers`]). Over HTTPS every answer also says
//! HSTS and its cookies are `Secure`.
//!
//! TLS is rustls (through tokio-rustls, with the `ring` provider): pure Rust, no OpenSSL on the machine.

use crate::error::{Error, Result};
use axum::Router;
use axum::extract::ConnectInfo;
use axum::http::HeaderValue;
use axum::http::header::SET_COOKIE;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::ServerConfig;
use tokio_rustls::rustls::pki_types::pem::{self, PemObject};
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tower::ServiceExt;

/// How long a client has to send a request's headers (and, with TLS, to finish its handshake); an idle
/// kept-alive connection is closed after as long.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(5);

/// The environment variable that sets [`HEADER_TIMEOUT`] in milliseconds (tests use a short one).
pub const HEADER_TIMEOUT_ENV: &str = "MMJUDGE_HEADER_TIMEOUT_MS";

/// The connections one address may hold open at once: three for each live stream it may hold (a phone's page,
/// its write and its stream), and never fewer than 64. A connection beyond it is closed as soon as it is
/// accepted, so that idle connections from one address cannot hold the file handles the other phones' pages need
/// (behind a venue's NAT, raise `--streams-per-address`: this follows it).
pub fn connections_per_address(streams_per_address: usize) -> usize {
    streams_per_address.saturating_mul(3).max(64)
}

/// The connections open per address, each taken back when its connection ends.
#[derive(Debug, Default)]
struct Open(std::sync::Mutex<std::collections::HashMap<std::net::IpAddr, usize>>);

/// One connection counted against its address until dropped.
struct Held(Arc<Open>, std::net::IpAddr);

impl Open {
    /// Counts a connection from `ip`, or None when the address holds `most` already.
    fn hold(self: &Arc<Self>, ip: std::net::IpAddr, most: usize) -> Option<Held> {
        let mut open = self.0.lock().ok()?;
        let n = open.entry(ip).or_default();
        if *n >= most {
            return None;
        }
        *n += 1;
        Some(Held(self.clone(), ip))
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        if let Ok(mut open) = self.0.0.lock()
            && let Some(n) = open.get_mut(&self.1)
        {
            *n = n.saturating_sub(1);
            if *n == 0 {
                open.remove(&self.1);
            }
        }
    }
}

/// How long open connections (the phones' live updates) get to finish after Ctrl-C.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(1);

/// The certificate and key files of `serve --tls CERT KEY`.
#[derive(Debug, Clone)]
pub struct Tls {
    /// The PEM certificate (chain), the server's own certificate first.
    pub cert: PathBuf,
    /// The PEM private key of that certificate.
    pub key: PathBuf,
}

/// The header-read timeout in force: [`HEADER_TIMEOUT`] unless the environment sets another.
pub fn header_timeout() -> Duration {
    std::env::var(HEADER_TIMEOUT_ENV)
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|ms| *ms > 0)
        .map(Duration::from_millis)
        .unwrap_or(HEADER_TIMEOUT)
}

/// A phone (or a standby) that hung up before its answer was written must not end the server: the command line
/// runs with SIGPIPE at its default (`mmjudge ... | head` ends quietly, see main.rs), under which hyper's
/// vectored write (`writev`, which takes no `MSG_NOSIGNAL`) to a connection its peer reset kills the process
/// without a word. A laptop woken from sleep writes at once to every connection whose peer gave up meanwhile (the
/// writers that timed out, the standby's stream that reconnected elsewhere): it died so in about one run of seven
/// of `scripts/standby-freeze.sh`. The server ignores SIGPIPE: such a write fails with `EPIPE` and hyper drops
/// that one connection.
#[cfg(unix)]
#[allow(unsafe_code)]
pub fn ignore_broken_pipes() {
    // SAFETY: setting one signal's disposition to "ignore" (no handler runs), before the server's runtime starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
}

/// Nothing to do where there is no SIGPIPE.
#[cfg(not(unix))]
pub fn ignore_broken_pipes() {}

/// Reads the certificate and key; every problem is one line naming the file and the fix.
pub fn tls_config(tls: &Tls) -> Result<Arc<ServerConfig>> {
    let certs = CertificateDer::pem_file_iter(&tls.cert)
        .and_then(|all| all.collect::<std::result::Result<Vec<_>, _>>())
        .map_err(|e| pem_error(&tls.cert, "certificate", "CERTIFICATE", e))?;
    if certs.is_empty() {
        return Err(pem_error(&tls.cert, "certificate", "CERTIFICATE", pem::Error::NoItemsFound));
    }
    let key = PrivateKeyDer::from_pem_file(&tls.key).map_err(|e| pem_error(&tls.key, "key", "PRIVATE KEY", e))?;
    let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
    let mut config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| Error::bad_input(format!("TLS cannot start here ({e})")))?
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .map_err(|e| {
            Error::bad_input(format!(
                "the key {} does not go with the certificate {} ({e}): give the certificate's own private key as --tls CERT KEY",
                tls.key.display(),
                tls.cert.display()
            ))
        })?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

fn pem_error(file: &Path, what: &str, label: &str, e: pem::Error) -> Error {
    let file = file.display();
    match e {
        pem::Error::Io(io) if io.kind() == std::io::ErrorKind::NotFound => Error::bad_input(format!(
            "the TLS {what} file {file} does not exist: give the path of your PEM {what} (--tls CERT KEY)"
        )),
        pem::Error::Io(io) => Error::bad_input(format!(
            "cannot read the TLS {what} file {file} ({io}): check that the file is readable (--tls CERT KEY)"
        )),
        pem::Error::NoItemsFound => Error::bad_input(format!(
            "{file} holds no PEM {what} (a \"-----BEGIN {label}-----\" block): give the {what} file as PEM text (--tls CERT KEY, certificate first)"
        )),
        other => Error::bad_input(format!(
            "{file} is not a readable PEM {what} ({other:?}): give the {what} file as PEM text (--tls CERT KEY)"
        )),
    }
}

/// Serves `router` on `listener` until Ctrl-C: each connection an HTTP/1.1 connection (over TLS when
/// `tls` is given) with the header-read timeout (which also closes a kept-alive connection left idle), at most
/// `per_address` open at once from one address; the phone's address reaches handlers as `ConnectInfo`.
pub async fn run(
    listener: TcpListener,
    router: Router,
    tls: Option<Arc<ServerConfig>>,
    (header_timeout, per_address): (Duration, usize),
) {
    let acceptor = tls.map(TlsAcceptor::from);
    let open = Arc::new(Open::default());
    let graceful = GracefulShutdown::new();
    let mut stop = std::pin::pin!(tokio::signal::ctrl_c());
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new()).header_read_timeout(header_timeout);
    loop {
        let (stream, addr) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                // Out of file handles and the like: wait a moment rather than spin.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = &mut stop => break,
        };
        let Some(held) = open.hold(addr.ip(), per_address) else {
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let with_addr = move |mut req: hyper::Request<Incoming>| {
            req.extensions_mut().insert(ConnectInfo(addr));
            req
        };
        let http = http.clone();
        let watcher = graceful.watcher();
        match &acceptor {
            None => {
                let service = TowerToHyperService::new(router.clone().map_request(with_addr));
                let conn = http.serve_connection(TokioIo::new(stream), service);
                tokio::spawn(async move {
                    let _ = watcher.watch(conn).await;
                    drop(held);
                });
            }
            Some(acceptor) => {
                let acceptor = acceptor.clone();
                let service = TowerToHyperService::new(router.clone().map_request(with_addr).map_response(over_https));
                tokio::spawn(async move {
                    // A handshake that never finishes is cut off like headers that never do.
                    let Ok(Ok(stream)) = tokio::time::timeout(header_timeout, acceptor.accept(stream)).await else {
                        return;
                    };
                    let conn = http.serve_connection(TokioIo::new(stream), service);
                    let _ = watcher.watch(conn).await;
                    drop(held);
                });
            }
        }
    }
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, graceful.shutdown()).await;
}

/// How long a phone that reached the server over HTTPS keeps to HTTPS for it (`Strict-Transport-Security`): one
/// day, as a venue's certificate serves one event; never `includeSubDomains`, the name may be the organiser's.
pub const HSTS: &str = "max-age=86400";

/// Every answer over HTTPS: cookies `Secure` ([`secure_cookies`]) and `Strict-Transport-Security` ([`HSTS`]).
fn over_https(res: axum::response::Response) -> axum::response::Response {
    let mut res = secure_cookies(res);
    res.headers_mut().insert(axum::http::header::STRICT_TRANSPORT_SECURITY, HeaderValue::from_static(HSTS));
    res
}

/// Over HTTPS every cookie is also `Secure`: a phone never sends the session or the login form's token back over
/// plain HTTP.
fn secure_cookies(mut res: axum::response::Response) -> axum::response::Response {
    let headers = res.headers_mut();
    let cookies: Vec<HeaderValue> = headers.get_all(SET_COOKIE).iter().cloned().collect();
    if cookies.is_empty() {
        return res;
    }
    headers.remove(SET_COOKIE);
    for cookie in cookies {
        let secured = cookie
            .to_str()
            .ok()
            .filter(|c| !c.contains("; Secure"))
            .and_then(|c| HeaderValue::from_str(&format!("{c}; Secure")).ok());
        headers.append(SET_COOKIE, secured.unwrap_or(cookie));
    }
    res
}
