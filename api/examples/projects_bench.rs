//! Benchmark of a project's streams and files (issue 14) on the running local platform
//! (`dev/up.sh`: the API, the operator and the real node; everything on loopback and the node's
//! link). Each figure is printed beside its baseline, measured in the same run:
//! 1. terminal round trip: one keystroke sent and its echo read back, through the API's
//!    `/terminalConnection` vs the API server's exec stream directly (what `kubectl exec -it`
//!    speaks), p50/p99 and the ratio (goal ≤ 1.2×);
//! 2. log streaming: lines/s of a 100,000-line burst written to the preview's output, read through
//!    `/containerLogs` vs `kubectl logs -f` (the binary, LUDIS_BENCH_KUBECTL); then 500
//!    `/containerLogs` sessions held at once by the API, and its RSS growth per session (goal
//!    ≤ 1 MiB);
//! 3. `repocontents` of each folder of a 10,000-file repository (pushed with git over the API's
//!    smart HTTP: `data/` with 1,000 files, 90 modules of 100): p50/p99 through the API vs
//!    `git ls-tree -l` of the same folder in a clone (goal p99 ≤ 50 ms).
//!
//! `dev/bench-projects.sh` runs it (env: LUDIS_BENCH_URL, LUDIS_BENCH_PASSWORD,
//! LUDIS_BENCH_API_PID, KUBECONFIG). It makes a project "bench-<time>" and deletes it at the end.

use std::time::{Duration, Instant};

use base64::Engine as _;
use futures::{SinkExt as _, StreamExt as _};
use k8s_openapi::api::core::v1::Pod;
use kube::{
    Api,
    api::{AttachParams, ListParams},
};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio_tungstenite::tungstenite::{Message, client::IntoClientRequest as _};

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

const KEYSTROKES: usize = 400;
const BURST: usize = 100_000;
const STREAMS: usize = 500;
/// The repository: `data/` with 1,000 files and `src/module_00` … `src/module_89` with 100 each.
const FILES: usize = 10_000;
const FOLDERS: [&str; 4] = ["", "src", "src/module_42", "data"];
const LISTINGS: usize = 100;

struct Bench {
    http: reqwest::Client,
    url: String,
    token: String,
}

impl Bench {
    async fn call(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
        let mut req = self
            .http
            .request(method, format!("{}{path}", self.url))
            .bearer_auth(&self.token);
        if let Some(b) = body {
            req = req.json(&b);
        }
        let res = req.send().await.expect("the API answers");
        let status = res.status();
        let body: Value = res.json().await.unwrap_or(Value::Null);
        assert!(status.is_success(), "{path}: {status} {body}");
        body
    }

    async fn socket(&self, path: &str, id: &str) -> Socket {
        let url = format!(
            "{}/{path}?id={id}&uid=bench",
            self.url.replace("http://", "ws://")
        );
        let mut request = url.as_str().into_client_request().unwrap();
        request.headers_mut().insert(
            "sec-websocket-protocol",
            format!("ludis.v1, bearer.{}", self.token).parse().unwrap(),
        );
        tokio_tungstenite::connect_async(request)
            .await
            .expect("the stream opens")
            .0
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// Reads binary frames until `needle` shows up; the bytes read.
async fn read_until(socket: &mut Socket, needle: &[u8]) -> Vec<u8> {
    let mut seen = Vec::new();
    while !seen.windows(needle.len()).any(|w| w == needle) {
        match tokio::time::timeout(Duration::from_secs(30), socket.next())
            .await
            .expect("an answer within 30 s")
        {
            Some(Ok(Message::Binary(b))) => seen.extend_from_slice(&b),
            Some(Ok(Message::Close(c))) => panic!("the terminal closed: {c:?}"),
            Some(Ok(_)) => {}
            other => panic!("the terminal failed: {other:?}"),
        }
    }
    seen
}

/// Keystroke round trips through the API's terminal (an open session).
async fn api_keystrokes(socket: &mut Socket, n: usize) -> Vec<Duration> {
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let key = [b'a' + (i % 26) as u8];
        let t = Instant::now();
        socket.send(Message::Binary(key.to_vec().into())).await.unwrap();
        read_until(socket, &key).await;
        out.push(t.elapsed());
        if i % 50 == 49 {
            // Ctrl-U clears the line typed so far.
            socket.send(Message::Binary(vec![0x15].into())).await.unwrap();
        }
    }
    out
}

/// Opens the API's terminal and waits for the shell.
async fn api_terminal(b: &Bench, id: &str) -> Socket {
    let mut socket = b.socket("terminalConnection", id).await;
    socket
        .send(Message::Binary(b"echo ready-$((1+1))\n".to_vec().into()))
        .await
        .unwrap();
    read_until(&mut socket, b"ready-2").await;
    socket
}

/// A shell through the API server's exec stream, as `kubectl exec -it` opens it.
struct DirectShell {
    stdin: Box<dyn tokio::io::AsyncWrite + Unpin + Send>,
    stdout: Box<dyn tokio::io::AsyncRead + Unpin + Send>,
    _process: kube::api::AttachedProcess,
}

async fn direct_terminal(pods: &Api<Pod>, pod: &str) -> DirectShell {
    let params = AttachParams::interactive_tty().container("preview");
    let mut process = pods
        .exec(pod, ["sh", "-c", "exec sh"], &params)
        .await
        .expect("exec opens");
    let mut shell = DirectShell {
        stdin: Box::new(process.stdin().unwrap()),
        stdout: Box::new(process.stdout().unwrap()),
        _process: process,
    };
    let mut buffer = vec![0u8; 16 * 1024];
    let mut seen = Vec::new();
    shell.stdin.write_all(b"echo ready-$((1+1))\n").await.unwrap();
    while !seen.windows(7).any(|w| w == b"ready-2") {
        let n = shell.stdout.read(&mut buffer).await.unwrap();
        seen.extend_from_slice(&buffer[..n]);
    }
    shell
}

/// Keystroke round trips through the API server's exec stream directly.
async fn direct_keystrokes(shell: &mut DirectShell, n: usize) -> Vec<Duration> {
    let mut buffer = vec![0u8; 16 * 1024];
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let key = b'a' + (i % 26) as u8;
        let t = Instant::now();
        shell.stdin.write_all(&[key]).await.unwrap();
        loop {
            let read = shell.stdout.read(&mut buffer).await.unwrap();
            if buffer[..read].contains(&key) {
                break;
            }
        }
        out.push(t.elapsed());
        if i % 50 == 49 {
            shell.stdin.write_all(&[0x15]).await.unwrap();
        }
    }
    out
}

fn summary(label: &str, mut rtts: Vec<Duration>) -> (Duration, Duration) {
    rtts.sort_unstable();
    let (p50, p99) = (percentile(&rtts, 0.5), percentile(&rtts, 0.99));
    println!("  {label:<34} p50 {:>7.2} ms   p99 {:>7.2} ms", ms(p50), ms(p99));
    (p50, p99)
}

/// Writes a burst of numbered lines to the container's own output (PID 1's stdout), so they
/// reach its log.
async fn burst(pods: &Api<Pod>, pod: &str, tag: &str) {
    let program = format!(
        "import sys\nout = open('/proc/1/fd/1', 'w', buffering=1 << 20)\n\
         for i in range({BURST}): out.write(f'{tag} {{i}}\\n')\nout.write('{tag} done\\n')\nout.flush()"
    );
    let mut p = pods
        .exec(
            pod,
            ["python", "-c", program.as_str()],
            &AttachParams::default()
                .container("preview")
                .stdout(false)
                .stderr(true),
        )
        .await
        .expect("the burst runs");
    let status = p.take_status().unwrap().await;
    assert!(
        status.as_ref().and_then(|s| s.status.as_deref()) == Some("Success"),
        "the burst failed: {status:?}"
    );
}

/// Lines/s of one burst read through the API's `/containerLogs`.
async fn api_burst(b: &Bench, pods: &Api<Pod>, pod: &str, id: &str, tag: &str) -> f64 {
    let mut socket = b.socket("containerLogs", id).await;
    // The status frame, then the last 100 lines of what came before.
    loop {
        if let Some(Ok(Message::Text(t))) = socket.next().await
            && t.contains("\"running\"")
        {
            break;
        }
    }
    let writer = {
        let (pods, pod, tag) = (pods.clone(), pod.to_owned(), tag.to_owned());
        tokio::spawn(async move { burst(&pods, &pod, &tag).await })
    };
    let (prefix, done) = (format!("{tag} "), format!("{tag} done"));
    let (mut first, mut count) = (None, 0usize);
    loop {
        match socket.next().await {
            Some(Ok(Message::Text(t))) if t.starts_with(&prefix) => {
                first.get_or_insert_with(Instant::now);
                if t.trim_end() == done {
                    break;
                }
                count += 1;
            }
            Some(Ok(_)) => {}
            other => panic!("the log stream ended: {other:?}"),
        }
    }
    writer.await.unwrap();
    assert_eq!(count, BURST, "every line of the burst, once");
    count as f64 / first.unwrap().elapsed().as_secs_f64()
}

/// Lines/s of one burst read through `kubectl logs -f` (the binary, `LUDIS_BENCH_KUBECTL`).
async fn kubectl_burst(pods: &Api<Pod>, namespace: &str, pod: &str, tag: &str) -> f64 {
    use tokio::io::AsyncBufReadExt as _;
    let kubectl = std::env::var("LUDIS_BENCH_KUBECTL").unwrap_or_else(|_| "kubectl".into());
    let mut child = tokio::process::Command::new(kubectl)
        .args(["logs", "-f", "--tail=1", "-c", "preview", "-n", namespace, pod])
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("kubectl runs");
    let mut lines = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
    // The tail line arrives first: the stream is open.
    lines.next_line().await.unwrap();
    let writer = {
        let (pods, pod, tag) = (pods.clone(), pod.to_owned(), tag.to_owned());
        tokio::spawn(async move { burst(&pods, &pod, &tag).await })
    };
    let (prefix, done) = (format!("{tag} "), format!("{tag} done"));
    let (mut first, mut count) = (None, 0usize);
    while let Some(line) = lines.next_line().await.unwrap() {
        if line.starts_with(&prefix) {
            first.get_or_insert_with(Instant::now);
            if line == done {
                break;
            }
            count += 1;
        }
    }
    writer.await.unwrap();
    assert_eq!(count, BURST, "every line of the burst, once");
    count as f64 / first.unwrap().elapsed().as_secs_f64()
}

/// Pushes a commit with the `FILES` files to the hosted repository.
fn push_many(url: &str, id: &str, namespace: &str, email: &str, key: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let remote = url.replacen(
        "://",
        &format!("://{}:{}@", percent_encode(email), percent_encode(key)),
        1,
    ) + &format!("/git/{namespace}/{id}.git");
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .args(args)
            .current_dir(dir.path())
            .env("GIT_TERMINAL_PROMPT", "0")
            .output()
            .expect("git runs");
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    git(&["clone", "-q", &remote, "."]);
    std::fs::create_dir_all(dir.path().join("data")).unwrap();
    for i in 0..1_000 {
        std::fs::write(
            dir.path().join(format!("data/part-{i:04}.csv")),
            format!("id\n{i}\n"),
        )
        .unwrap();
    }
    for m in 0..90 {
        let module = dir.path().join(format!("src/module_{m:02}"));
        std::fs::create_dir_all(&module).unwrap();
        for f in 0..100 {
            std::fs::write(module.join(format!("file_{f:03}.py")), format!("X = {f}\n")).unwrap();
        }
    }
    git(&["add", "data", "src"]);
    git(&[
        "-c",
        "user.name=Bench",
        "-c",
        &format!("user.email={email}"),
        "commit",
        "-qm",
        "10,000 files",
    ]);
    git(&["push", "-q", "origin", "HEAD"]);
    dir
}

fn percent_encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[tokio::main]
async fn main() {
    let url = std::env::var("LUDIS_BENCH_URL").unwrap_or_else(|_| "http://127.0.0.1:8080".into());
    let password = std::env::var("LUDIS_BENCH_PASSWORD").expect("LUDIS_BENCH_PASSWORD");
    let api_pid: u32 = std::env::var("LUDIS_BENCH_API_PID")
        .expect("LUDIS_BENCH_API_PID")
        .parse()
        .unwrap();
    let http = reqwest::Client::new();
    let login: Value = http
        .post(format!("{url}/v1/auth/login"))
        .json(&json!({"user": {"email": "admin@ludis.local", "password": password}}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let token = login["token"].as_str().expect("signed in").to_owned();
    let (uid, email) = (
        login["user"]["uid"].as_str().unwrap().to_owned(),
        login["user"]["email"].as_str().unwrap().to_owned(),
    );
    let b = Bench {
        http,
        url: url.clone(),
        token,
    };

    let name = format!(
        "bench-{}",
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs()
    );
    let created = b
        .call(
            reqwest::Method::POST,
            "/v2/projects",
            Some(json!({"project": {"name": name, "description": "benchmark", "language": "python"}})),
        )
        .await;
    let id = created["project"]["id"].as_str().unwrap().to_owned();
    println!("project {name} ({id})");
    let app = "import http.server, os\nprint('bench preview up', flush=True)\n\
               http.server.ThreadingHTTPServer(('', int(os.environ.get('PORT', '8080'))), http.server.SimpleHTTPRequestHandler).serve_forever()\n";
    b.call(
        reqwest::Method::POST,
        "/v2/projects/commitfile",
        Some(
            json!({"project": id, "filePath": "app.py", "message": "bench app",
                    "contents": base64::engine::general_purpose::STANDARD.encode(app)}),
        ),
    )
    .await;
    b.call(reqwest::Method::POST, &format!("/v2/projects/run/{id}"), None)
        .await;
    let started = Instant::now();
    loop {
        let check = b
            .call(reqwest::Method::GET, &format!("/v2/projects/check/{id}"), None)
            .await;
        if check["preview"]["running"] == true && check["preview"]["status"] == "running" {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(180),
            "the preview did not start: {check}"
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    let client = kube::Client::try_default().await.expect("KUBECONFIG");
    let pods_all: Api<Pod> = Api::all(client.clone());
    let pod = pods_all
        .list(&ListParams::default().labels("app.kubernetes.io/component=preview"))
        .await
        .unwrap()
        .items
        .into_iter()
        .find(|p| {
            p.metadata
                .labels
                .as_ref()
                .and_then(|l| l.get("ludis.dev/project"))
                .is_some_and(|v| v.starts_with(&name))
        })
        .expect("the preview pod");
    let (namespace, pod_name) = (
        pod.metadata.namespace.clone().unwrap(),
        pod.metadata.name.clone().unwrap(),
    );
    let pods: Api<Pod> = Api::namespaced(client, &namespace);
    println!(
        "preview pod {namespace}/{pod_name} running after {:.1} s\n",
        started.elapsed().as_secs_f64()
    );

    println!("1. terminal round trip ({KEYSTROKES} keystrokes each, in 4 alternating rounds)");
    let mut direct_shell = direct_terminal(&pods, &pod_name).await;
    let mut api_socket = api_terminal(&b, &id).await;
    let (mut direct_rtts, mut api_rtts) = (Vec::new(), Vec::new());
    for _ in 0..4 {
        direct_rtts.extend(direct_keystrokes(&mut direct_shell, KEYSTROKES / 4).await);
        api_rtts.extend(api_keystrokes(&mut api_socket, KEYSTROKES / 4).await);
    }
    drop((direct_shell, api_socket));
    let (d50, d99) = summary("API server exec (kubectl exec)", direct_rtts);
    let (a50, a99) = summary("Ludis /terminalConnection", api_rtts);
    println!(
        "  ratio Ludis / direct: p50 {:.2}x   p99 {:.2}x   (goal <= 1.2x)\n",
        ms(a50) / ms(d50),
        ms(a99) / ms(d99)
    );

    println!("2. log streaming ({BURST} lines per burst, best of 3)");
    let mut direct = 0f64;
    let mut api = 0f64;
    for round in 0..3 {
        direct = direct.max(kubectl_burst(&pods, &namespace, &pod_name, &format!("d{round}")).await);
        api = api.max(api_burst(&b, &pods, &pod_name, &id, &format!("a{round}")).await);
    }
    println!("  kubectl logs -f                         {direct:>10.0} lines/s");
    println!("  Ludis /containerLogs                    {api:>10.0} lines/s");
    println!("  ratio Ludis / direct: {:.2}x", api / direct);
    let before = rss_kib(api_pid);
    let mut sockets = Vec::with_capacity(STREAMS);
    for _ in 0..STREAMS {
        let mut s = b.socket("containerLogs", &id).await;
        loop {
            if let Some(Ok(Message::Text(t))) = s.next().await
                && t.contains("\"running\"")
            {
                break;
            }
        }
        sockets.push(s);
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let after = rss_kib(api_pid);
    println!(
        "  {STREAMS} sessions held: API RSS {:.1} MiB -> {:.1} MiB, {:.1} KiB per session (goal <= 1024 KiB)\n",
        before as f64 / 1024.0,
        after as f64 / 1024.0,
        after.saturating_sub(before) as f64 / STREAMS as f64
    );
    drop(sockets);

    println!(
        "3. repocontents in a repository of {FILES} files ({LISTINGS} listings of each folder, alternating)"
    );
    let key = b
        .call(reqwest::Method::POST, &format!("/v1/users/{uid}/api_key"), None)
        .await["api_key"]
        .as_str()
        .unwrap()
        .to_owned();
    let clone = push_many(&url, &id, &namespace, &email, &key);
    let mut worst = Duration::ZERO;
    for folder in FOLDERS {
        let (mut git_times, mut api_times) = (Vec::with_capacity(LISTINGS), Vec::with_capacity(LISTINGS));
        let tree = if folder.is_empty() {
            "HEAD".to_owned()
        } else {
            format!("HEAD:{folder}")
        };
        for _ in 0..LISTINGS {
            let t = Instant::now();
            let out = std::process::Command::new("git")
                .args(["ls-tree", "-l", &tree])
                .current_dir(clone.path())
                .output()
                .unwrap();
            git_times.push(t.elapsed());
            let git_count = out.stdout.iter().filter(|&&c| c == b'\n').count();
            let t = Instant::now();
            let listed = b
                .call(
                    reqwest::Method::POST,
                    &format!("/v2/projects/repocontents/{id}"),
                    Some(json!({"project": id, "path": folder})),
                )
                .await;
            api_times.push(t.elapsed());
            let n = listed["contents"].as_array().map_or(0, Vec::len);
            assert_eq!(n, git_count, "{folder:?}: the same entries as git");
        }
        let shown = if folder.is_empty() { "/ (root)" } else { folder };
        println!("  {shown}");
        let (g50, g99) = summary("git ls-tree -l (a process each)", git_times);
        let (r50, r99) = summary("Ludis repocontents", api_times);
        println!(
            "  {:<34} p50 {:>6.2}x   p99 {:>6.2}x",
            "ratio Ludis / git",
            ms(r50) / ms(g50),
            ms(r99) / ms(g99)
        );
        worst = worst.max(r99);
    }
    println!(
        "  worst p99 of a folder through Ludis: {:.2} ms (goal <= 50 ms: {})",
        ms(worst),
        if ms(worst) <= 50.0 { "met" } else { "missed" }
    );

    b.call(reqwest::Method::DELETE, &format!("/v2/projects/{id}"), None)
        .await;
    println!("\nproject {name} deleted");
}
