use super::Ctx;
use crate::cli::judge::ServeArgs;
use crate::error::Result;
/// Runs the live server.
pub fn run(_ctx: &Ctx, _args: &ServeArgs) -> Result<()> {
    Err(crate::error::Error::refused("not yet"))
}
