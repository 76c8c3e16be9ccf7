"""`python -m ludis.parse <dagFile>`: runs the DAG file and prints what it declares as one JSON
document on a line starting with `MARKER` (the last such line of the output is the result):

    {"dag": {"dagId", "schedule", "tasks": [{"name", "operator"}], "edges": [{"from", "to"}]}}
    {"error": {"type", "message", "file", "line", "traceback"}}

The exit code is 0 either way (a broken DAG file is a result, not a failure of the parser)."""

from __future__ import annotations

import json
import os
import sys
import traceback

from .loader import describe, import_file, the_dag

MARKER = "::ludis-dag::"
#: How many lines of the traceback the error keeps.
TRACEBACK_LINES = 12


def parse(path: str) -> dict:
    try:
        return {"dag": describe(the_dag(import_file(path)))}
    except BaseException as e:  # noqa: BLE001 - any failure of the file is its import error
        if isinstance(e, KeyboardInterrupt):
            raise
        return {"error": error_of(e, path)}


def error_of(e: BaseException, path: str) -> dict:
    frames = traceback.extract_tb(e.__traceback__)
    here = os.path.dirname(os.path.abspath(__file__))
    # Where in the user's code it happened: the deepest frame outside this package (a syntax
    # error says where itself).
    file, line = None, None
    for f in frames:
        if not os.path.abspath(f.filename).startswith(here + os.sep):
            file, line = f.filename, f.lineno
    if isinstance(e, SyntaxError):
        file, line = e.filename, e.lineno
    if file is not None and os.path.isabs(file):
        file = os.path.relpath(file)
    text = "".join(traceback.format_exception(type(e), e, e.__traceback__)).rstrip("\n")
    return {
        "type": type(e).__name__,
        "message": str(e) if not isinstance(e, SyntaxError) else f"{e.msg}",
        "file": file,
        "line": line,
        "traceback": "\n".join(text.splitlines()[-TRACEBACK_LINES:]),
    }


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m ludis.parse <dagFile>", file=sys.stderr)
        return 2
    result = parse(argv[0])
    sys.stdout.flush()
    print(MARKER + json.dumps(result, separators=(",", ":")), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
