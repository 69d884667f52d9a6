//! The standby's side of the wire: plain HTTP/1.1 requests to the primary with hyper's client (one connection a
//! request, or one kept for requests in turn: [`Kept`]), and whether an address answers at all.

use crate::error::{Error, Result};
use axum::body::Body;
use hyper::client::conn::http1::SendRequest;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use std::time::Duration;

/// A server's address: `http://HOST:PORT` (a path after it is ignored).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Url {
    /// `HOST:PORT`.
    pub authority: String,
    /// The address as given, without a trailing slash.
    pub text: String,
}

impl Url {
    /// Reads `text`, refusing anything but `http://HOST[:PORT]`.
    pub fn parse(text: &str) -> Result<Url> {
        let bad = || {
            Error::bad_input(format!(
                "{text} is not a server's address: give it as the primary's terminal prints it, e.g. http://192.168.1.23:8080"
            ))
        };
        if text.starts_with("https://") {
            return Err(Error::bad_input(format!(
                "{text}: a standby follows its primary over plain http only (on the venue's own network): give its http:// address"
            )));
        }
        let rest = text.strip_prefix("http://").ok_or_else(bad)?;
        let host = rest.split('/').next().unwrap_or_default();
        if host.is_empty() || host.contains('@') || host.contains(' ') {
            return Err(bad());
        }
        let has_port = host.rsplit_once(':').is_some_and(|(_, p)| p.parse::<u16>().is_ok()) && !host.ends_with(']');
        let authority = if has_port { host.to_string() } else { format!("{host}:80") };
        Ok(Url { authority, text: format!("http://{host}") })
    }
}

/// Sends one request to `url` (`path` after its host) on a connection of its own, with the key as a bearer token
/// where given, and returns the response as soon as its head arrives (its body streams on).
pub async fn send(
    url: &Url,
    method: &str,
    path: &str,
    bearer: Option<&str>,
    body: Option<String>,
) -> Result<Response<hyper::body::Incoming>> {
    let mut sender = connect(url).await?;
    sender.send_request(request(url, method, path, bearer, body)?).await.map_err(|e| unreachable(url, &e))
}

/// One kept connection to a server for requests in turn (the standby's acknowledgements): opened at the first
/// request, and again when the server closed it or a request on it failed ([`Kept::forget`]).
pub struct Kept {
    url: Url,
    sender: Option<SendRequest<Body>>,
}

impl Kept {
    /// No connection yet to `url`.
    pub fn new(url: Url) -> Kept {
        Kept { url, sender: None }
    }

    /// Sends one request on the kept connection (see [`send`]); the answer's body must be read before the next.
    pub async fn send(
        &mut self,
        method: &str,
        path: &str,
        bearer: Option<&str>,
        body: Option<String>,
    ) -> Result<Response<hyper::body::Incoming>> {
        let kept = match self.sender.take() {
            Some(mut kept) => kept.ready().await.is_ok().then_some(kept),
            None => None,
        };
        let mut sender = match kept {
            Some(kept) => kept,
            None => connect(&self.url).await?,
        };
        let res = sender
            .send_request(request(&self.url, method, path, bearer, body)?)
            .await
            .map_err(|e| unreachable(&self.url, &e))?;
        self.sender = Some(sender);
        Ok(res)
    }

    /// Closes the kept connection (a request on it failed or took too long): the next request opens another.
    pub fn forget(&mut self) {
        self.sender = None;
    }
}

fn unreachable(url: &Url, e: &dyn std::fmt::Display) -> Error {
    Error::refused(format!("cannot reach {}: {e}", url.text))
}

/// A new HTTP/1.1 connection to `url`.
async fn connect(url: &Url) -> Result<SendRequest<Body>> {
    let stream = tokio::net::TcpStream::connect(&url.authority).await.map_err(|e| unreachable(url, &e))?;
    let _ = stream.set_nodelay(true);
    let (sender, conn) =
        hyper::client::conn::http1::handshake(TokioIo::new(stream)).await.map_err(|e| unreachable(url, &e))?;
    tokio::spawn(async move {
        let _ = conn.await;
    });
    Ok(sender)
}

/// A request to `url`'s `path`, with the key as a bearer token where given and a JSON body where given.
fn request(url: &Url, method: &str, path: &str, bearer: Option<&str>, body: Option<String>) -> Result<Request<Body>> {
    let mut req = Request::builder().method(method).uri(path).header("host", &url.authority);
    if let Some(key) = bearer {
        req = req.header("authorization", format!("Bearer {key}"));
    }
    match body {
        Some(json) => req.header("content-type", "application/json").body(Body::from(json)),
        None => req.body(Body::empty()),
    }
    .map_err(|e| Error::bad_input(format!("{}: {e}", url.text)))
}

/// Reads a whole (small) response body as text.
pub async fn text(res: Response<hyper::body::Incoming>) -> Result<String> {
    let body = Body::new(res.into_body());
    let bytes =
        axum::body::to_bytes(body, 1 << 20).await.map_err(|e| Error::refused(format!("the answer broke off: {e}")))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Whether the server at `url` answers `GET /api/time` with a success within `within`.
pub async fn answers(url: &Url, within: Duration) -> bool {
    let asked = tokio::time::timeout(within, send(url, "GET", super::wire::TIME, None, None)).await;
    matches!(asked, Ok(Ok(res)) if res.status() == StatusCode::OK)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_plain_http_with_a_port() -> Result<()> {
        assert_eq!(Url::parse("http://10.0.0.2:8080/")?.authority, "10.0.0.2:8080");
        assert_eq!(Url::parse("http://laptop")?.authority, "laptop:80");
        assert_eq!(Url::parse("http://10.0.0.2:8080/x")?.text, "http://10.0.0.2:8080");
        assert!(Url::parse("https://10.0.0.2").is_err());
        assert!(Url::parse("10.0.0.2:8080").is_err());
        assert!(Url::parse("http://").is_err());
        Ok(())
    }
}
