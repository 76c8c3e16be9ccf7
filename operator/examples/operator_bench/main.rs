//! Operator benchmarks on the local control plane (run by `dev/bench-operator.sh`, which starts
//! the operator), in a fresh namespace deleted at the end:
//!
//! - `burst` (default, [`burst`]): N Projects and N Insights created at once — how long until all
//!   are Ready, the operator's CPU time and peak RSS, CR → child latency under that flood, beside
//!   a baseline of N ConfigMaps created and watched;
//! - `steady` ([`steady`]): with the same 2N objects present, a steady rate of spec changes —
//!   CR → child latency percentiles against the Kubernetes SLO (p99 ≤ 1 s), and the operator's
//!   share of it from its own metrics.
//!
//! Environment: KUBECONFIG (an administrator's), BENCH_OPERATOR_PID, BENCH_METRICS_URL,
//! BENCH_COUNT (N, default 1000); for `steady` BENCH_RATE (changes a second, default 20) and
//! BENCH_SECONDS (default 300).

#[path = "../bench_util/mod.rs"]
mod bench_util;
mod burst;
mod population;
mod steady;

use kube::Client;
use ludis_operator::metrics::read::{self, Sample};

use bench_util::{count_from_env, create_namespace, delete_namespace};

/// Which benchmark runs.
#[derive(Clone, Copy, Debug)]
enum Mode {
    Burst,
    Steady,
}

impl Mode {
    fn parse(arg: Option<&str>) -> anyhow::Result<Self> {
        match arg {
            None | Some("burst") => Ok(Self::Burst),
            Some("steady") => Ok(Self::Steady),
            Some(other) => anyhow::bail!("unknown mode {other:?}: burst or steady"),
        }
    }
}

/// The operator process under test.
pub struct Operator {
    pub pid: u32,
    metrics_url: String,
}

impl Operator {
    fn from_env() -> anyhow::Result<Self> {
        Ok(Self {
            pid: std::env::var("BENCH_OPERATOR_PID")?.parse()?,
            metrics_url: std::env::var("BENCH_METRICS_URL")
                .unwrap_or_else(|_| "http://127.0.0.1:18081/metrics".into()),
        })
    }

    /// Its metrics now (none when they cannot be read).
    pub async fn scrape(&self) -> Vec<Sample> {
        match reqwest::get(&self.metrics_url).await {
            Ok(r) => read::parse(&r.text().await.unwrap_or_default()),
            Err(_) => Vec::new(),
        }
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    // The S3 gateway's crates bring a second TLS provider: choose ring, as the operator does.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let mode = Mode::parse(std::env::args().nth(1).as_deref())?;
    let n: usize = count_from_env("BENCH_COUNT", 1000);
    let operator = Operator::from_env()?;
    let client = Client::try_default().await?;
    let ns = create_namespace(&client, "bench").await?;
    let result = match mode {
        Mode::Burst => burst::run(&client, &ns, n, &operator).await,
        Mode::Steady => {
            let rate = count_from_env("BENCH_RATE", 20);
            let seconds = count_from_env("BENCH_SECONDS", 300);
            steady::run(&client, &ns, n, rate, seconds, &operator).await
        }
    };
    delete_namespace(&client, &ns).await?;
    result
}
