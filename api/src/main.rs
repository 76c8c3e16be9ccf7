use ludis_api::{App, Settings, openapi, telemetry};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    // A spreadsheet preview runs in a child process of this binary (see routes/datasets/previews.rs).
    ludis_storage::preview::run_worker_if_asked();
    if std::env::args().nth(1).as_deref() == Some("--print-openapi") {
        print!("{}", openapi::document_json());
        return Ok(());
    }
    let settings = Settings::load()?;
    let telemetry = telemetry::init(&settings)?;
    let app = App::build(settings).await?;
    tracing::info!(
        address = %app.local_addr(),
        metrics = ?app.metrics_addr(),
        storage_gateway = ?app.storage_addr(),
        "ludis-api listening"
    );
    app.run_until_stopped().await?;
    // The exporter's last batch leaves before the process ends (it blocks).
    tokio::task::spawn_blocking(move || telemetry.shutdown()).await?;
    Ok(())
}
