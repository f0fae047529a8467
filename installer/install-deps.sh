#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs every Debian 12 package that Railyard's build, programs and tests need.
# Idempotent and non-interactive; run as root (or it re-runs itself through sudo).
set -euo pipefail

if [ "$(id -u)" -ne 0 ]; then
    exec sudo -E "$0" "$@"
fi

packages=(
    # toolchain
    build-essential cmake ninja-build ccache pkg-config git
    # engine libraries
    libboost-dev libboost-graph-dev nlohmann-json3-dev libsqlite3-dev sqlite3 libcli11-dev libxlsxwriter-dev
    # desktop application (Qt 6 Widgets, Charts, SVG; translations; Qt Test) and a headless X server
    qt6-base-dev qt6-charts-dev libqt6opengl6-dev qt6-svg-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
    xvfb xauth fonts-dejavu-core fonts-nanum
    # tests and benchmarks
    googletest libgtest-dev libgmock-dev libbenchmark-dev
    # tests/core/test_text.cpp compiles de_DE (a comma locale) with localedef from these sources
    locales
    # fuzz/: libFuzzer targets (clang with its fuzzer, ASan and UBSan runtimes)
    clang-14 libclang-rt-14-dev
    # the real InfiniBand tools the tests drive: simulated subnet, subnet manager, diagnostics
    ibsim-utils opensm infiniband-diags
    # live mode: the agent's HTTP server, rdma-core (verbs, umad, ibnetdisc, ibmad), network namespaces,
    # and the Prometheus node exporter the agent is compared with
    libcpp-httplib-dev libibverbs-dev libibumad-dev libibnetdisc-dev libibmad-dev iproute2 prometheus-node-exporter
    # tests/live/test_hostile_network.cpp: packet loss (nft numgen) in a network namespace; tc's tbf is iproute2's
    nftables
    # live watch --prometheus: a real Prometheus server (Debian 12: 2.42) scrapes the emulator's agents in the tests
    prometheus
    # live test --kind allreduce: Open MPI's mpirun launches nccl-tests (the emulator's stand-in in the tests)
    openmpi-bin
    # Debian packages (CPack: dpkg-shlibdeps, file; man pages from --help) and their test
    # (installer/test-packages.sh: lintian, the .desktop file, the unit, a clean root, scraping)
    help2man dpkg-dev file lintian desktop-file-utils systemd debootstrap curl
)

export DEBIAN_FRONTEND=noninteractive
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: all ${#packages[@]} packages already installed"
    exit 0
fi
echo "install-deps: installing ${missing[*]}"
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
