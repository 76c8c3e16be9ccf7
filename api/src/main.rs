use clap::Parser;
use ludis_api::{App, Settings, telemetry};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let settings = Settings::parse();
    telemetry::init(&settings.log_format);
    let app = App::build(settings).await?;
    tracing::info!(address = %app.local_addr(), "ludis-api listening");
    app.run_until_stopped().await?;
    Ok(())
}
