#!/bin/sh
# Downloads the Debian packages that build and test fwadvisor into DIR (default gpu-bundle/), so
# that scripts/gpu-check.sh can build on a machine with no package registry: it unpacks them into
# a private prefix with dpkg-deb, no root needed. Run it on a Debian machine of the same release
# and architecture as the packages should be (apt-get download needs no root, only current
# package lists: `apt-get update` first if they are missing).
#   scripts/gpu-bundle.sh [DIR]
# The set is what the build needs beyond a compiler: the -dev packages of scripts/deps.sh, make,
# pkgconf, and everything they depend on, less what any Linux machine with a C compiler already
# has (libc, the compiler's runtime, zlib and the like). The C and C++ compilers (nvcc's host
# compiler), CUDA and the NVIDIA driver come from the target machine, which scripts/gpu-check.sh
# checks before it builds; NCCL is optional (opened at run time).
set -eu

dir=${1:-gpu-bundle}

ROOTS="libsqlite3-dev libcjson-dev libopenblas-dev libopenblas-pthread-dev libhwloc-dev
libncurses-dev libcriterion-dev pkgconf make"

# Never bundled: the C library and toolchain (a bundled copy would clash with the target's
# compiler), the base libraries every system and compiler already loads, and build tools.
SKIP="libc6 libc6-dev libc-dev-bin linux-libc-dev libcrypt1 libcrypt-dev libnsl2 libnsl-dev
libtirpc3 libtirpc-dev libtirpc-common rpcsvc-proto libgcc-s1 gcc-12-base libstdc++6 libgomp1
zlib1g libzstd1 liblzma5 libbz2-1.0 libselinux1 libpcre2-8-0 libmd0 libacl1 debianutils dpkg
tar perl perl-base perl-modules-5.36 libperl5.36 libgdbm6 libgdbm-compat4 libdb5.3 m4 autoconf
automake automake-1.16 autotools-dev ncurses-bin"

for tool in apt-cache apt-get; do
    command -v "$tool" >/dev/null 2>&1 || { echo "gpu-bundle: $tool not found (a Debian machine is needed)" >&2; exit 1; }
done

# Direct dependencies of one package: the first choice of each alternative group, the first
# provider of a virtual package.
deps_of() {
    apt-cache depends --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces \
        --no-enhances "$1" 2>/dev/null | awk '
        /^ [ |](Pre)?Depends: / {
            in_group = after_bar; after_bar = ($1 ~ /^\|/)
            want_provider = 0
            if (in_group) next
            if ($2 ~ /^</) { want_provider = 1; next }
            print $2; next
        }
        /^    [^ ]/ { if (want_provider) { print $1; want_provider = 0 } }'
}

contains() { case " $(echo "$1" | tr '\n' ' ') " in *" $2 "*) return 0 ;; esac; return 1; }

for p in $ROOTS; do
    if ! apt-cache show "$p" >/dev/null 2>&1; then
        echo "gpu-bundle: apt knows no package $p (run apt-get update, as root, first)" >&2
        exit 1
    fi
done

# Breadth-first closure over the dependencies.
queue=$ROOTS
seen=""
while [ -n "$(echo "$queue" | tr -d ' \n')" ]; do
    next=""
    for p in $queue; do
        contains "$seen" "$p" && continue
        contains "$SKIP" "$p" && continue
        seen="$seen $p"
        next="$next $(deps_of "$p" | tr '\n' ' ')"
    done
    queue=$next
done

mkdir -p "$dir"
rm -f "$dir"/*.deb
# shellcheck disable=SC2086
set -- $seen
echo "gpu-bundle: downloading $# packages into $dir" >&2
# apt-get download writes into the current directory; as root it warns that the _apt user cannot
# write there, which is harmless.
(cd "$dir" || exit 1; apt-get download -q "$@" 2>&1 | grep -v -e 'unsandboxed as root' -e '^Get:' >&2; true)

missing=""
for p in "$@"; do
    ls "$dir/${p}_"*.deb >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "gpu-bundle: not downloaded:$missing" >&2
    exit 1
fi
for f in "$dir"/*.deb; do
    dpkg-deb -f "$f" Package Version Architecture | tr "\n" " " | sed "s/ *$//"
    echo
done | sed 's/Package: //; s/ Version: /=/; s/ Architecture: / /' | sort > "$dir/MANIFEST"
echo "gpu-bundle: $(wc -l < "$dir/MANIFEST") packages, $(du -sh "$dir" | cut -f1) in $dir ($dir/MANIFEST lists them)" >&2
