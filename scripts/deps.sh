#!/bin/sh
# Installs the Debian packages fwadvisor's build and tests need (tmux drives the interface's tests, Chromium opens the
# HTML reports). Does nothing when pkg-config
# already finds every library; on a system without apt it prints the package names instead.
#   scripts/deps.sh          install what is missing
#   scripts/deps.sh --check  exit 0 when everything is present, 1 otherwise (installs nothing)
#   scripts/deps.sh --check-build  the same for what the build and unit tests cannot do without
#                            (the libraries, cc, make, pkg-config; not tmux, MPI or jsonschema)
#   scripts/deps.sh --peer   also PyTorch (Debian's python3-torch) for the peer check and bench, and
#                            python3-venv, munge, slurmctld and slurm-client for the launch files' check
#   scripts/deps.sh --fuzz   also clang and its libFuzzer runtime for make fuzz
#   scripts/deps.sh --venv   also python3-venv, for make bench-peers's virtual environment
set -eu

mode=${1:-}

# pkg-config module -> Debian package
MODULES="sqlite3:libsqlite3-dev libcjson:libcjson-dev ncursesw:libncurses-dev criterion:libcriterion-dev openblas:libopenblas-dev hwloc:libhwloc-dev"
# OpenMPI builds the MPI plug-in and runs the multi-rank probe tests (the binary itself never needs it).
# gettext's tools build the message catalogs (po/) and check them against the code.
BUILD_TOOLS="pkg-config:pkg-config cc:gcc make:make msgfmt:gettext xgettext:gettext"
# zsh and fish run the generated completion scripts in their tests (bash is always there).
TOOLS="$BUILD_TOOLS tmux:tmux mpicc:libopenmpi-dev mpirun:openmpi-bin zsh:zsh fish:fish"
[ "$mode" = "--check-build" ] && TOOLS=$BUILD_TOOLS

missing=""
for pair in $TOOLS; do
    cmd=${pair%%:*}
    command -v "$cmd" >/dev/null 2>&1 || missing="$missing ${pair#*:}"
done
if command -v pkg-config >/dev/null 2>&1; then
    for pair in $MODULES; do
        pkg-config --exists "${pair%%:*}" || missing="$missing ${pair#*:}"
    done
else
    for pair in $MODULES; do missing="$missing ${pair#*:}"; done
fi

if [ "$mode" = "--peer" ] && ! /usr/bin/python3 -c 'import torch, numpy' >/dev/null 2>&1; then
    missing="$missing python3-torch python3-numpy"
fi
# The launch files' check: a virtual environment for accelerate and DeepSpeed beside Debian's torch,
# and a Slurm controller of its own on localhost for sbatch --test-only.
if [ "$mode" = "--peer" ]; then
    /usr/bin/python3 -m venv --help >/dev/null 2>&1 || missing="$missing python3-venv"
    for pair in munged:munge slurmctld:slurmctld sbatch:slurm-client; do
        PATH="$PATH:/usr/sbin" command -v "${pair%%:*}" >/dev/null 2>&1 || missing="$missing ${pair#*:}"
    done
fi
if [ "$mode" = "--venv" ] && ! /usr/bin/python3 -m venv --help >/dev/null 2>&1; then
    missing="$missing python3-venv"
fi
if [ "$mode" = "--fuzz" ] && ! command -v clang >/dev/null 2>&1; then
    missing="$missing clang libclang-rt-14-dev"
fi

# The tests validate JSON reports against docs/*.schema.json with Debian's python3-jsonschema
# (they skip without it).
if [ "$mode" != "--check-build" ] && ! /usr/bin/python3 -c 'import jsonschema' >/dev/null 2>&1; then
    missing="$missing python3-jsonschema"
fi

# The HTML reports' tests parse the pages with Debian's python3-html5lib and open them in headless
# Chromium (they skip, saying why, without them).
if [ "$mode" != "--check-build" ] && ! /usr/bin/python3 -c 'import html5lib' >/dev/null 2>&1; then
    missing="$missing python3-html5lib"
fi
if [ "$mode" != "--check-build" ] && ! command -v chromium >/dev/null 2>&1; then
    missing="$missing chromium"
fi

if [ -z "$missing" ]; then
    exit 0
fi
if [ "$mode" = "--check" ] || [ "$mode" = "--check-build" ]; then
    echo "fwadvisor: missing build dependencies:$missing" >&2
    exit 1
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "fwadvisor: no apt-get here; install these packages (Debian names) with your package manager:$missing" >&2
    exit 1
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        sudo="sudo"
    else
        echo "fwadvisor: need root to install:$missing (no sudo found)" >&2
        exit 1
    fi
fi
echo "fwadvisor: installing:$missing" >&2
$sudo apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing
