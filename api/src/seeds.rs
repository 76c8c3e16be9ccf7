//! First-start data.

use crate::app::AppState;

pub async fn run(_state: &AppState) -> anyhow::Result<()> {
    Ok(())
}
