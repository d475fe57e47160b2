#!/usr/bin/env python3
"""make mutate: puts small, realistic bugs into the code one at a time and runs the unit tests
against each; a mutation the tests fail on is caught, one they pass is missed. Prints the score
per area and overall, and exits 1 below the target (90%).

The list is tests/mutate/mutations.txt, one mutation per line:
    area | file | line | old text | new text
`line` is where the text was when the mutation was written (a hint for the reader); the text
itself must occur exactly once in the file, or the mutation is reported as stale. Blank lines
and lines starting with # are skipped. A literal | in code is written \\|.

Usage: scripts/mutate.py [--only AREA] [--list | --check]
--check reads the list and finds each text once in its file, builds and runs nothing: make test
runs it, so a line that no longer parses or applies fails there, not an hour into a run.
"""
import os, re, shutil, signal, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = "build-mutate"
TARGET = 0.90
# The suites that take most of the run's time (probes that measure, terminals driven through tmux,
# reports rendered in a browser, databases grown to their limits). A mutation runs against the
# others first and against these only when the others pass: a failure in either half is a catch,
# and a miss has run every test, as before.
SLOW_SUITES = "probe_signals|probe_cli|tui|tui_screens|kb_create|kb_limits|report_html|mpi|frameworks"


def parse(path):
    muts = []
    for n, raw in enumerate(open(path, encoding="utf-8"), 1):
        line = raw.rstrip("\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = [p.strip().replace("\\|", "|") for p in re.split(r"(?<!\\)\|", line)]
        if len(parts) != 5:
            sys.exit(f"mutations.txt:{n}: expected 'area | file | line | old | new', got {len(parts)} fields")
        area, file, hint, old, new = parts
        muts.append({"n": n, "area": area, "file": file, "line": hint, "old": old, "new": new})
    return muts


def run(cmd, log, timeout):
    """cmd's exit status, or -1 past timeout: then its whole process group goes (the test
    binary's workers, the fwadvisor processes they start, tmux servers), not make alone, so
    nothing of one mutation keeps loading the machine through the next."""
    with open(log, "a") as f:
        p = subprocess.Popen(cmd, cwd=ROOT, stdout=f, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            return p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            return -1
        except BaseException:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            raise


def main():
    # SIGTERM and SIGINT end the run through the finally below, which puts the file back.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(130))
    only = None
    args = sys.argv[1:]
    if "--only" in args:
        only = args[args.index("--only") + 1]
    muts = parse(os.path.join(ROOT, "tests", "mutate", "mutations.txt"))
    if only:
        muts = [m for m in muts if m["area"] == only]
    if "--check" in args:
        bad = 0
        for m in muts:
            path = os.path.join(ROOT, m["file"])
            count = open(path, encoding="utf-8").read().count(m["old"]) if os.path.isfile(path) else -1
            if count != 1:
                bad += 1
                what = "no such file" if count < 0 else f"the text occurs {count} times"
                print(f"mutations.txt:{m['n']}: {m['file']}: {what}: {m['old']!r}", file=sys.stderr)
        return 1 if bad else 0
    if "--list" in args:
        for m in muts:
            print(f"{m['area']:10} {m['file']}:{m['line']}  {m['old']!r} -> {m['new']!r}")
        return 0
    os.makedirs(os.path.join(ROOT, BUILD), exist_ok=True)
    # PO_CHECK=0: a mutation of a message's text is a bug for the tests to catch, not a build
    # failure of the catalog check.
    make = ["make", "--no-print-directory", f"BUILD={BUILD}", f"BIN={BUILD}/fwadvisor", "CUDA=0", "PO_CHECK=0"]
    for name in ("baseline-build.log", "baseline-test.log"):
        open(os.path.join(ROOT, BUILD, name), "w").close()
    if run(make + ["test-prep"], os.path.join(ROOT, BUILD, "baseline-build.log"), 1800) != 0:
        sys.exit(f"the unmutated tree does not build: {BUILD}/baseline-build.log")
    env_test = make + ["test-run", "TEST_ARGS=--fail-fast"]
    halves = [make + ["test-run", f"TEST_ARGS=--fail-fast --filter '{g}({SLOW_SUITES})/*'"] for g in "!@"]
    if run(env_test, os.path.join(ROOT, BUILD, "baseline-test.log"), 1800) != 0:
        sys.exit(f"the unmutated tree fails its tests: {BUILD}/baseline-test.log")
    results = {}
    for m in muts:
        path = os.path.join(ROOT, m["file"])
        src = open(path, encoding="utf-8").read()
        count = src.count(m["old"])
        tag = f"{m['area']:10} {m['file']}:{m['line']}"
        if count != 1:
            print(f"STALE   {tag}  the text occurs {count} times", flush=True)
            results.setdefault(m["area"], []).append("stale")
            continue
        backup = path + ".mutate-orig"
        shutil.copy2(path, backup)
        t0 = time.time()
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(src.replace(m["old"], m["new"], 1))
            log = os.path.join(ROOT, BUILD, f"mutation-{m['n']}.log")
            open(log, "w").close()
            built = run(make + ["test-prep"], log, 1800) == 0
            # A mutation that does not compile is caught by the compiler, not by a test: reported apart.
            verdict = "nobuild" if not built else (
                "caught" if any(run(h, log, 1800) != 0 for h in halves) else "MISSED")
        finally:
            shutil.move(backup, path)
            os.utime(path, None)  # newer than the mutated object: the next build recompiles it
        print(f"{verdict:7} {tag}  {m['old']!r} -> {m['new']!r}  ({time.time() - t0:.0f} s)", flush=True)
        results.setdefault(m["area"], []).append(verdict)
    total = caught = 0
    print("\narea        caught / counted  (stale and non-compiling mutations are not counted)")
    for area, vs in sorted(results.items()):
        c, k = vs.count("caught"), vs.count("caught") + vs.count("MISSED")
        total, caught = total + k, caught + c
        print(f"{area:11} {c:3} / {k:<3}  {100 * c / k if k else 0:5.1f}%")
    score = caught / total if total else 0
    print(f"{'all':11} {caught:3} / {total:<3}  {100 * score:5.1f}%  (target {100 * TARGET:.0f}%)")
    return 0 if score >= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
