#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The packaging test (README "Packages"; .ci/run calls it). From a configured and built tree:
#  1. cpack writes railyard_*.deb and railyard-agent_*.deb into BUILD_DIR/packages;
#  2. static checks: dpkg-deb contents and fields (no Qt in the agent's dependencies), lintian
#     (fails on errors, lists warnings), the .desktop file, systemd-analyze verify and security
#     on the unit (prints its exposure score, fails above RAILYARD_EXPOSURE_MAX);
#  3. as root: installs both into a clean Debian 12 root (debootstrap --variant=minbase, made
#     once and cached; each run works in an overlay on it and leaves nothing), checks the user,
#     the token and the config, starts the installed agent as its unit does (same command line,
#     user, no capabilities, no new privileges) against an emulated sysfs tree, scrapes it,
#     stops it, purges both packages and checks that nothing of them is left.
#
#   installer/test-packages.sh [BUILD_DIR]       BUILD_DIR (from the checkout's top) defaults to build/ci
# Environment:
#   RAILYARD_PKG_CHROOT=0        skip step 3 (no root or no network needed)
#   RAILYARD_DEBIAN_MIRROR       mirror for debootstrap and apt (default http://deb.debian.org/debian)
#   RAILYARD_PKG_CACHE           where the clean root and the downloaded .debs are kept
#                                (default ${XDG_CACHE_HOME:-~/.cache}/railyard/pkgtest)
#   RAILYARD_EXPOSURE_MAX        highest systemd-analyze security exposure allowed (default 2.0)
set -euo pipefail

chroot_test=${RAILYARD_PKG_CHROOT:-1}
if [ "$chroot_test" != 0 ] && [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null; then
    exec sudo -E "$0" "$@"   # mount and chroot need root (as installer/install-deps.sh does)
fi
cd "$(dirname "$0")/.."

build=${1:-build/ci}
mirror=${RAILYARD_DEBIAN_MIRROR:-http://deb.debian.org/debian}
cache=${RAILYARD_PKG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/railyard/pkgtest}
exposure_max=${RAILYARD_EXPOSURE_MAX:-2.0}
suite=bookworm

start=$(date +%s)
step() { echo "== test-packages: $* ($(($(date +%s) - start)) s)"; }
fail() { echo "test-packages: FAIL: $*" >&2; exit 1; }

for tool in cpack dpkg-deb lintian systemd-analyze curl; do
    command -v "$tool" >/dev/null || fail "$tool is missing (run installer/install-deps.sh)"
done
[ -f "$build/CPackConfig.cmake" ] || fail "$build is not a configured build tree (cmake --preset ci)"
[ -x "$build/bin/railyard-agent" ] || fail "$build/bin/railyard-agent is not built (cmake --build --preset ci)"

tmp=$(mktemp -d)
root=""
agent_pid=""
cleanup() {
    if [ -n "$agent_pid" ]; then
        kill "$agent_pid" 2>/dev/null || true
        wait "$agent_pid" 2>/dev/null || true
    fi
    if [ -n "$root" ] && mountpoint -q "$root"; then
        umount -R "$root" || umount -R -l "$root" || true
    fi
    if [ -n "$root" ] && mountpoint -q "$root"; then
        echo "test-packages: $root is still mounted; leaving $tmp in place" >&2
        return
    fi
    rm -rf "$tmp"
}
trap cleanup EXIT

# ---------------------------------------------------------------- 1. packages
step "cpack ($build)"
rm -f "$build"/packages/*.deb
cpack --config "$build/CPackConfig.cmake" >"$tmp/cpack.log" 2>&1 || { cat "$tmp/cpack.log" >&2; fail "cpack"; }
app_deb=$(ls "$build"/packages/railyard_*.deb)
agent_deb=$(ls "$build"/packages/railyard-agent_*.deb)
ls -l "$app_deb" "$agent_deb"
gui=0
[ -x "$build/bin/railyard" ] && gui=1

# ---------------------------------------------------------------- 2. static checks
step "package contents"
dpkg-deb -c "$app_deb" | awk '{print $6}' | sed 's|^\./||' >"$tmp/app.files"
dpkg-deb -c "$agent_deb" | awk '{print $6}' | sed 's|^\./||' >"$tmp/agent.files"
expect() { # expect LIST FILE...
    local list=$1
    shift
    for f in "$@"; do grep -qx "$f" "$tmp/$list.files" || fail "$list package lacks $f"; done
}
expect app usr/bin/railyard-cli usr/bin/railyard-sim \
    usr/share/railyard/catalog/switches.json usr/share/railyard/catalog/README.md \
    usr/share/railyard/examples/dgx-h100-superpod-4su.plan.json \
    usr/share/man/man1/railyard-cli.1.gz usr/share/man/man1/railyard-cli-live-check.1.gz \
    usr/share/man/man1/railyard-sim.1.gz usr/share/doc/railyard/copyright usr/share/doc/railyard/changelog.gz
if [ "$gui" = 1 ]; then
    expect app usr/bin/railyard usr/share/man/man1/railyard.1.gz \
        usr/share/applications/invalid.railyard.railyard.desktop \
        usr/share/icons/hicolor/scalable/apps/invalid.railyard.railyard.svg \
        usr/share/railyard/translations/railyard_en.qm usr/share/railyard/translations/railyard_ko.qm
fi
# The agent's package holds exactly this (directories aside).
grep -v '/$' "$tmp/agent.files" | sort >"$tmp/agent.got"
sort >"$tmp/agent.want" <<'EOF'
etc/railyard/agent.conf
lib/systemd/system/railyard-agent.service
usr/bin/railyard-agent
usr/share/doc/railyard-agent/changelog.gz
usr/share/doc/railyard-agent/copyright
usr/share/man/man1/railyard-agent.1.gz
EOF
diff -u "$tmp/agent.want" "$tmp/agent.got" || fail "the agent package holds other files than these"
grep -q railyard-agent "$tmp/app.files" && fail "the railyard package holds agent files"
echo "railyard: $(grep -vc '/$' "$tmp/app.files") files; railyard-agent: $(wc -l <"$tmp/agent.got") files"

step "package fields"
agent_depends=$(dpkg-deb -f "$agent_deb" Depends)
echo "railyard-agent Depends: $agent_depends"
echo "railyard Depends: $(dpkg-deb -f "$app_deb" Depends)"
if echo "$agent_depends" | grep -qi 'qt'; then fail "railyard-agent depends on Qt"; fi
echo "$agent_depends" | grep -q 'adduser' || fail "railyard-agent does not depend on adduser"
dpkg-deb -I "$agent_deb" conffiles | grep -qx /etc/railyard/agent.conf || fail "agent.conf is not a conffile"
if [ "$gui" = 1 ]; then
    dpkg-deb -f "$app_deb" Depends | grep -q 'libqt6widgets6' || fail "railyard does not depend on Qt Widgets"
fi

step "lintian"
set +e
lintian --fail-on error --display-level '>=warning' "$app_deb" "$agent_deb" >"$tmp/lintian.txt" 2>"$tmp/lintian.err"
lintian_rc=$?
set -e
cat "$tmp/lintian.txt"
errors=$(grep -c '^E:' "$tmp/lintian.txt" || true)
warnings=$(grep -c '^W:' "$tmp/lintian.txt" || true)
echo "lintian: $errors errors, $warnings warnings"
[ "$lintian_rc" -eq 0 ] || { cat "$tmp/lintian.err" >&2; fail "lintian found errors"; }

if [ "$gui" = 1 ] && command -v desktop-file-validate >/dev/null; then
    step "desktop file"
    mkdir "$tmp/app"
    dpkg-deb -x "$app_deb" "$tmp/app"
    desktop-file-validate "$tmp/app/usr/share/applications/invalid.railyard.railyard.desktop"
fi

step "systemd-analyze verify and security"
# The agent's package over a copy of this host's units (so that the unit's dependencies exist);
# MANPATH lets verify find railyard-agent(1), the unit's Documentation=.
unit_root="$tmp/unit-root"
mkdir -p "$unit_root/lib/systemd/system"
cp -a /lib/systemd/system/. "$unit_root/lib/systemd/system/"
dpkg-deb -x "$agent_deb" "$unit_root"
MANPATH="$unit_root/usr/share/man" systemd-analyze verify --root="$unit_root" /lib/systemd/system/railyard-agent.service \
    || fail "systemd-analyze verify railyard-agent.service"
threshold=$(awk -v x="$exposure_max" 'BEGIN { printf "%d", x * 10 + 0.5 }')
set +e
systemd-analyze security --offline=yes --root="$unit_root" --threshold="$threshold" railyard-agent.service >"$tmp/security.txt" 2>&1
security_rc=$?
set -e
grep -E '^✗' "$tmp/security.txt" | cut -c1-150 || true
exposure=$(sed -n 's/.*Overall exposure level for railyard-agent.service: \([0-9.]*\).*/\1/p' "$tmp/security.txt")
[ -n "$exposure" ] || { cat "$tmp/security.txt" >&2; fail "systemd-analyze security gave no exposure level"; }
echo "systemd-analyze security: railyard-agent.service exposure $exposure (at most $exposure_max allowed)"
[ "$security_rc" -eq 0 ] || fail "exposure $exposure is above $exposure_max"

if [ "$chroot_test" = 0 ]; then
    step "done (RAILYARD_PKG_CHROOT=0: not installed)"
    exit 0
fi

# ---------------------------------------------------------------- 3. install into a clean root
[ "$(id -u)" -eq 0 ] || fail "installing into a clean root needs root (sudo $0 $build, or RAILYARD_PKG_CHROOT=0)"
command -v debootstrap >/dev/null || fail "debootstrap is missing (run installer/install-deps.sh)"

base="$cache/$suite-minbase"
if [ ! -f "$base/.complete" ] || [ -n "$(find "$base/.complete" -mtime +13)" ]; then
    step "debootstrap $suite (minbase) from $mirror into $base"
    rm -rf "$base"
    mkdir -p "$cache/debootstrap"
    debootstrap --variant=minbase --cache-dir="$cache/debootstrap" "$suite" "$base" "$mirror" >"$tmp/debootstrap.log" 2>&1 \
        || { tail -20 "$tmp/debootstrap.log" >&2; rm -rf "$base"; fail "debootstrap"; }
    touch "$base/.complete"
fi

step "clean root: an overlay on $base"
mkdir -p "$tmp/upper" "$tmp/work" "$tmp/root" "$cache/archives/partial"
root="$tmp/root"
mount -t overlay overlay -o "lowerdir=$base,upperdir=$tmp/upper,workdir=$tmp/work" "$root"
mount --bind "$cache/archives" "$root/var/cache/apt/archives"
mount -t proc proc "$root/proc"
cp /etc/resolv.conf "$root/etc/resolv.conf"
echo "deb $mirror $suite main" >"$root/etc/apt/sources.list"
test_dir=/srv/railyard-test # in the clean root: the .debs, a plan, the emulated node
mkdir "$root$test_dir"
cp "$app_deb" "$agent_deb" "$root$test_dir/"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }
apt_get() { in_root apt-get -q -y -o Dpkg::Use-Pty=0 -o APT::Sandbox::User=root --no-install-recommends "$@"; }
apt_get update >"$tmp/apt.log" 2>&1 || { cat "$tmp/apt.log" >&2; fail "apt-get update in the clean root"; }

step "install railyard-agent alone"
apt_get install "$test_dir/$(basename "$agent_deb")" >>"$tmp/apt.log" 2>&1 \
    || { tail -30 "$tmp/apt.log" >&2; fail "apt-get install railyard-agent"; }
if in_root dpkg-query -W -f '${Package}\n' | grep -i 'qt'; then fail "installing railyard-agent pulled in Qt"; fi
passwd=$(in_root getent passwd railyard-agent) || fail "no user railyard-agent"
echo "user: $passwd"
case "$passwd" in *:/nonexistent:/usr/sbin/nologin) ;; *) fail "railyard-agent has a home or a login shell" ;; esac
in_root getent group railyard-agent >/dev/null || fail "no group railyard-agent"
token_stat=$(in_root stat -c '%a %U:%G' /etc/railyard/token) || fail "no /etc/railyard/token"
echo "token: /etc/railyard/token $token_stat"
[ "$token_stat" = "640 root:railyard-agent" ] || fail "/etc/railyard/token is $token_stat, not 640 root:railyard-agent"
grep -Eqx '[0-9a-f]{64}' "$root/etc/railyard/token" || fail "the token is not 64 hex digits"
[ -f "$root/etc/railyard/agent.conf" ] || fail "no /etc/railyard/agent.conf"
[ -L "$root/etc/systemd/system/multi-user.target.wants/railyard-agent.service" ] || fail "railyard-agent.service was not enabled"

step "install railyard"
apt_get install "$test_dir/$(basename "$app_deb")" >>"$tmp/apt.log" 2>&1 \
    || { tail -30 "$tmp/apt.log" >&2; fail "apt-get install railyard"; }
echo "installed: $(in_root dpkg-query -W -f '${Package}\n' | wc -l) packages in the clean root"
programs="railyard-agent railyard-cli railyard-sim"
[ "$gui" = 1 ] && programs="$programs railyard"
for p in $programs; do
    if in_root ldd "/usr/bin/$p" | grep 'not found'; then fail "/usr/bin/$p: a library is missing from the dependencies"; fi
done
in_root railyard-cli --version
in_root railyard-cli plan --example dgx-h100-superpod-1su >/dev/null || fail "railyard-cli plan in the clean root"
[ "$gui" = 1 ] && { in_root env QT_QPA_PLATFORM=offscreen railyard --version 2>/dev/null || fail "railyard --version in the clean root"; }

step "emulated node (railyard-sim)"
cat >"$root$test_dir/two-nodes.plan.json" <<'EOF'
{ "name": "packaging test: 2 DGX H100 nodes", "fabric": "infiniband", "nodes": 2, "node_type": "dgx-h100",
  "link": { "generation": "NDR", "width": 4 }, "leaf_switch": "qm9700", "spine_switch": "qm9700", "su_size": 2,
  "oversubscription": { "leaf": "1:1", "spine": "1:1" }, "tiers": "auto" }
EOF
in_root railyard-sim --plan "$test_dir/two-nodes.plan.json" --root "$test_dir/fab" --seconds 1 --traffic idle >"$tmp/sim.log" 2>&1 \
    || { cat "$tmp/sim.log" >&2; fail "railyard-sim"; }
[ -d "$root$test_dir/fab/node001/sys/class/infiniband" ] || fail "railyard-sim wrote no sysfs tree"

step "start the installed agent as its unit does"
unit="$root/lib/systemd/system/railyard-agent.service"
exec_start=$(sed -n 's/^ExecStart=//p' "$unit")
user=$(sed -n 's/^User=//p' "$unit")
group=$(sed -n 's/^Group=//p' "$unit")
# What an admin writes into the config file; port 0: any free port.
node="$test_dir/fab/node001"
echo "RAILYARD_AGENT_OPTS=\"--listen 127.0.0.1:0 --node node001 --node-type dgx-h100 --sysfs-root $node/sys --emulated $node/sim\"" \
    >"$root/etc/railyard/agent.conf"
# EnvironmentFile= and $RAILYARD_AGENT_OPTS word splitting, User=/Group=, NoNewPrivileges=,
# CapabilityBoundingSet= and AmbientCapabilities= empty.
# Every step execs the next, so $! is the agent's own process.
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
    setpriv --reuid="$user" --regid="$group" --init-groups --no-new-privs --bounding-set=-all --inh-caps=-all \
    /bin/sh -c ". /etc/railyard/agent.conf && exec $exec_start" >"$tmp/agent.log" 2>&1 &
agent_pid=$!
port=""
for _ in $(seq 100); do
    port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\) .*|\1|p' "$tmp/agent.log")
    [ -n "$port" ] && break
    kill -0 "$agent_pid" 2>/dev/null || { cat "$tmp/agent.log" >&2; fail "the agent exited"; }
    sleep 0.1
done
[ -n "$port" ] || { cat "$tmp/agent.log" >&2; fail "the agent did not start listening"; }
cat "$tmp/agent.log"
case "$(readlink "/proc/$agent_pid/exe")" in */usr/bin/railyard-agent) ;; *) fail "process $agent_pid is not the agent" ;; esac
uid=$(awk '/^Uid:/ {print $2}' "/proc/$agent_pid/status")
[ "$uid" = "$(in_root id -u "$user")" ] || fail "the agent runs as uid $uid, not as $user"
grep -q '^CapEff:[[:space:]]*0*$' "/proc/$agent_pid/status" || fail "the agent has capabilities"

step "scrape http://127.0.0.1:$port"
url="http://127.0.0.1:$port"
health=$(curl -fsS --max-time 10 "$url/v1/health") || fail "GET /v1/health"
echo "/v1/health: $health"
case "$health" in *api_version*) ;; *) fail "/v1/health has no api_version" ;; esac
curl -fsS --max-time 10 "$url/metrics" >"$tmp/metrics.txt" || fail "GET /metrics"
samples=$(grep -c '^railyard_' "$tmp/metrics.txt" || true)
echo "/metrics: $samples railyard_* samples, e.g.:"
grep -m3 '^railyard_' "$tmp/metrics.txt"
[ "$samples" -gt 0 ] || fail "/metrics has no railyard_* samples"
code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$url/v1/inventory")
[ "$code" = 401 ] || fail "/v1/inventory without the token answered $code, not 401"
token=$(head -n1 "$root/etc/railyard/token")
curl -fsS --max-time 10 -H "Authorization: Bearer $token" "$url/v1/inventory" >"$tmp/inventory.json" \
    || fail "/v1/inventory with the installed token"
grep -q node001 "$tmp/inventory.json" || fail "/v1/inventory does not name node001"
echo "/v1/inventory: 401 without the token, $(wc -c <"$tmp/inventory.json") bytes with it"

step "stop the agent (SIGTERM)"
kill -TERM "$agent_pid"
set +e
wait "$agent_pid"
agent_rc=$?
set -e
agent_pid=""
[ "$agent_rc" -eq 0 ] || { cat "$tmp/agent.log" >&2; fail "the agent exited with $agent_rc on SIGTERM"; }
tail -n1 "$tmp/agent.log"

step "purge both packages"
rm -rf "${root:?}$test_dir"
apt_get purge railyard railyard-agent >>"$tmp/apt.log" 2>&1 || { tail -30 "$tmp/apt.log" >&2; fail "apt-get purge"; }
apt_get autoremove --purge >>"$tmp/apt.log" 2>&1 || { tail -30 "$tmp/apt.log" >&2; fail "apt-get autoremove"; }
# Everything the run changed is in the overlay's upper layer: nothing may be named after us.
left=$(cd "$tmp/upper" && find . -name '*railyard*' | sort)
[ -z "$left" ] || { echo "$left" >&2; fail "files of the packages are left after the purge"; }
[ ! -e "$root/etc/railyard" ] || fail "/etc/railyard is left after the purge"
# The user and group stay (Debian practice; postrm says why); nothing else of ours does.
in_root getent passwd railyard-agent >/dev/null || fail "the purge removed the user railyard-agent"
echo "after the purge: no file named *railyard*; user and group railyard-agent kept (by design)"

step "done: packages built, checked, installed, run and purged"
