#!/usr/bin/env bash
# hostile_repo.sh - nothing a repository brings can make probekit touch a
# path outside it. Each attack is committed to a little git repository and
# run in a fresh `git clone` of it (what a user does with someone's code):
# journals of a multi-file write in the old format (overwrite, delete, junk
# header), journals in the current format that get every check right but a
# name (through a committed link, "..", an absolute path), one from another
# machine, one naming a file of another set, a real pending journal tracked
# by git, probe-sweep state behind a committed link, a tree copied with
# cp -a while a journal was pending, a FIFO and a 400 MB file named like a
# journal; source files that are links committed to outside the tree
# (absolute, relative, through a linked folder). Every case: exit 2 (one line naming the journal and
# --discard-journal) or a documented no-op, every file outside the tree
# byte-identical, nothing deleted, the clone's sources untouched.
#   bash tests/sh/hostile_repo.sh BIN_DIR SRC_DIR
source "$(dirname "$0")/block-lib.bash" "$@"
command -v git >/dev/null || skip "no git"
cd "$scratch" || exit 1
export GIT_CONFIG_NOSYSTEM=1 HOME=$scratch GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t \
	GIT_COMMITTER_EMAIL=t@t

# the user's own files outside any tree
ext=$scratch/outside
mkdir -p "$ext/dir"
echo "the user's secret" >"$ext/victim.txt"
kernel "$ext/k_moved.cpp"
for i in 1 2 3; do echo "keep $i" >"$ext/dir/f$i"; done
snapshot() { (cd "$ext" && find . -printf '%p %y %s %i\n' | sort && find . -type f -exec sha256sum {} + | sort); }
before=$(snapshot)
outside_same() { # WHAT
	[ "$(snapshot)" = "$before" ] && ok "$1: every file outside the tree byte-identical, nothing deleted" ||
		fail "$1: a file outside the tree changed or went"
}

# repo NAME: a repository with a kernel, set up by the function setup_NAME
# (run inside it), committed and cloned to $scratch/NAME; cd there
repo() {
	rm -rf "$scratch/src-$1" "$scratch/$1"
	mkdir "$scratch/src-$1"
	(cd "$scratch/src-$1" && git init -q && kernel k.cpp && "setup_$1" && git add -A . && git commit -qm x) ||
		fail "$1: cannot build the repository"
	git clone -q "$scratch/src-$1" "$scratch/$1" || fail "$1: cannot clone"
	cd "$scratch/$1" || exit 1
	cp k.cpp "$scratch/k.$1"
}
# refused WHAT CMD...: exit 2, a line naming the journal and the option,
# the clone's kernel untouched, outside untouched
refused() {
	local what=$1
	shift
	run_expect 2 "$what" timeout 60 "$@" && ok "$what: exit 2: $out"
	case "$out" in *"--discard-journal"*) ok "$what: the message names --discard-journal" ;;
	*) fail "$what: no --discard-journal in: $out" ;; esac
	[ "$(printf '%s\n' "$out" | grep -c .)" -le 3 ] || fail "$what: more than a line a journal copy: $out"
	same "$what: the clone's kernel untouched" "$scratch/k.$(basename "$PWD")" k.cpp
	outside_same "$what"
}

# A journal in the current format, crafted by someone who knows this
# user's id, this machine and even the clone's inode numbers: ARGS are
# NAME HOST ENTRY... with ENTRY "target|tmp|before|after" (before/after:
# a file whose state is recorded, or "-" for none).
craft() {
	python3 - "$@" <<'EOF'
import os, socket, sys
def h64(b):
    h = 14695981039346656037
    for c in b:
        h = ((h ^ c) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h
def state(p):
    if p == "-" or not os.path.lexists(p):
        return ["0", "0", "0", "0", "0"]
    st = os.lstat(p)
    data = open(p, "rb").read() if os.path.isfile(p) else b""
    return ["1", str(st.st_dev), str(st.st_ino), str(len(data)), str(h64(data))]
name, host = sys.argv[1], sys.argv[2]
if host == "this":
    mid = open("/etc/machine-id").read().split("\n")[0] if os.path.exists("/etc/machine-id") else ""
    host = mid + "/" + socket.gethostname()[:95]
st = os.stat(".")
ents = [e.split("|") for e in sys.argv[3:]]
f = [b"H", str(os.geteuid()).encode(), host.encode(), str(st.st_dev).encode(), str(st.st_ino).encode(),
     str(len(ents)).encode(), b"1"]
for t, tmp, b, a in ents:
    f += [b"F", t.encode(), tmp.encode()] + [x.encode() for x in state(b)] + [x.encode() for x in state(a)]
f += [b"J", name.encode(), b"E"]
open(name, "wb").write(b"probekit txn 2\n" + b"".join(x + b"\0" for x in f))
EOF
}

# 1. the old format: overwrite an absolute path, delete one, a junk header
setup_v1_overwrite() {
	echo "payload" >payload
	printf 'probekit txn 1\nT\0payload\0%s\0E\0' "$ext/victim.txt" >.probekit-txn.1.AAAAAA
}
repo v1_overwrite
refused "old journal overwriting an absolute path" probe-inject --probe STAGE_B k.cpp
setup_v1_delete() { printf 'probekit txn 1\nT\0%s\0' "$ext/victim.txt" >.probekit-txn.1.AAAAAA; }
repo v1_delete
refused "old journal deleting an absolute path" probe-inject --probe STAGE_B k.cpp
setup_junk() {
	echo "payload" >payload
	printf 'JUNKJUNKJUNKJUNK\nT\0payload\0%s\0E\0' "$ext/victim.txt" >.probekit-txn.1.AAAAAA
}
repo junk
refused "journal with junk for a header" probe-inject --probe STAGE_B k.cpp

# 2. the current format, every check right but the names (crafted in the
# clone, with its inode numbers: the strongest attacker a clone allows)
setup_link() { ln -s "$ext" link; }
repo link
echo payload >"$scratch/payload"
cp "$scratch/payload" .probekit.victim.txt.1.AAAAAA
craft .probekit-txn.1.AAAAAA this "link/victim.txt|link/.probekit.victim.txt.1.AAAAAA|$ext/victim.txt|.probekit.victim.txt.1.AAAAAA"
refused "journal naming a file through a committed link" probe-inject --probe STAGE_B k.cpp
setup_dotdot() { :; }
repo dotdot
kernel .probekit.k_moved.cpp.1.AAAAAA
craft .probekit-txn.1.AAAAAA this "../outside/k_moved.cpp|../outside/.probekit.k_moved.cpp.1.AAAAAA|$ext/k_moved.cpp|.probekit.k_moved.cpp.1.AAAAAA"
refused "journal naming ../ (the kernel moved out of the tree)" probe-inject --probe STAGE_B k.cpp
setup_abs() { :; }
repo abs
craft .probekit-txn.1.AAAAAA this "$ext/victim.txt||$ext/victim.txt|-"
refused "journal naming an absolute path (a removal)" probe-inject --probe STAGE_B k.cpp
setup_machine() { :; }
repo machine
cp k.cpp .probekit.k.cpp.1.AAAAAA
echo "// other" >>.probekit.k.cpp.1.AAAAAA
craft .probekit-txn.1.AAAAAA "0123456789abcdef/elsewhere" "k.cpp|.probekit.k.cpp.1.AAAAAA|k.cpp|.probekit.k.cpp.1.AAAAAA"
refused "journal from another machine" probe-inject --probe STAGE_B k.cpp
setup_otherset() { mkdir other && kernel other/k2.cpp; }
repo otherset
cp other/k2.cpp "$scratch/k2.orig"
echo "// payload" >other/.probekit.k2.cpp.1.AAAAAA
craft .probekit-txn.1.AAAAAA this "other/k2.cpp|other/.probekit.k2.cpp.1.AAAAAA|$ext/victim.txt|other/.probekit.k2.cpp.1.AAAAAA"
refused "journal naming a file of another set" probe-inject --probe STAGE_B k.cpp
same "the other set's file untouched" "$scratch/k2.orig" other/k2.cpp

# an event map (a file the repository brings too) listing a kernel of the
# user's outside the tree, by name or through a committed link or linked folder: probe-strip of the clone's kernel leaves it
setup_map() {
	ln -s ../outside/k_moved.cpp orch.cpp && ln -s ../outside sub
	printf '{"magic_rule": "row[7] == magic + slot", "files": ["../outside/k_moved.cpp", "%s", "orch.cpp", %s]}\n' \
		"$ext/victim.txt" '"sub/k_moved.cpp"' >k.cpp.timing.json
}
repo map
run_expect 0 "an event map naming files outside the tree" timeout 60 probe-strip k.cpp &&
	has "the map's outside files are named and not stripped" "outside the work tree" &&
	has "the map's link to outside is named" "lists orch.cpp, outside" &&
	has "the map's file in a linked folder is named" "lists sub/k_moved.cpp, outside"
outside_same "an event map naming files outside the tree"

# 3. a real pending journal (a run killed between two renames), tracked by
# git and cloned; and the same tree copied with cp -a
wait_journal() {
	for _ in $(seq 1 300); do
		[ -n "$(find "$1" -name '.probekit-txn.*' | head -1)" ] && return 0
		sleep 0.02
	done
	return 1
}
pending() { # DIR: a two-folder block write killed between its renames
	mkdir -p "$1/a" "$1/b"
	kernel "$1/a/k.cpp"
	kernel "$1/b/k.cpp"
	(cd "$1" && PROBEKIT_TEST_RENAME_PAUSE=30 exec probe-inject --probe STAGE_A a/k.cpp b/k.cpp 2>/dev/null) &
	local pid=$!
	wait_journal "$1" || fail "no journal while the renames are held"
	for _ in $(seq 300); do cmp -s "$1/a/k.cpp" "$1/b/k.cpp" || break; sleep 0.02; done
	kill -9 "$pid"
	wait "$pid" 2>/dev/null
	cmp -s "$1/a/k.cpp" "$1/b/k.cpp" && fail "the kill did not land between the renames"
	return 0
}
setup_tracked() { pending .; }
repo tracked
[ -n "$(git ls-files | grep probekit-txn)" ] && ok "the journal is tracked by git" || fail "no journal in git"
cd a || exit 1
cp k.cpp "$scratch/k.a"
refused "journal tracked by git, in a clone" probe-inject --probe STAGE_B k.cpp
[ "$(cd "$scratch/src-tracked" && git status --porcelain)" = "" ] && ok "the repository cloned from is untouched" ||
	fail "the repository cloned from changed"
cd .. || exit 1
mkdir "$scratch/cpa"
pending "$scratch/cpa/orig"
cp -a "$scratch/cpa/orig" "$scratch/cpa/copy"
snap_orig() { (cd "$scratch/cpa/orig" && find . -type f -exec sha256sum {} + | sort); }
o_before=$(snap_orig)
cd "$scratch/cpa/copy/a" || exit 1
cp k.cpp "$scratch/k.a"
refused "a copy (cp -a) of a tree with a pending journal" probe-inject --probe STAGE_B k.cpp
[ "$(snap_orig)" = "$o_before" ] && ok "cp -a: the original tree untouched" || fail "cp -a: the original changed"
cd "$scratch/cpa/orig" || exit 1
run_expect 0 "the original's own journal" probe-inject --disable-all a/k.cpp b/k.cpp && has \
	"the original's own journal is finished, and says so" "finished an earlier run's interrupted write"
cmp -s a/k.cpp b/k.cpp && ok "the original's set is whole again" || fail "the original's set is mixed"

# 4. a FIFO and a 400 MB file named like a journal (made in the clone: git
# stores neither); probe-list and probe-check report, never act
setup_fifo() { :; }
repo fifo
mkfifo .probekit-txn.1.FIFO00
refused "a FIFO named like a journal" probe-inject --probe STAGE_B k.cpp
run_expect 1 "probe-list with a pending journal" timeout 60 probe-list k.cpp && has \
	"probe-list reports the journal" ".probekit-txn.1.FIFO00: pending journal"
run_expect 1 "probe-check with a pending journal" timeout 60 probe-check k.cpp && has \
	"probe-check reports the journal" ".probekit-txn.1.FIFO00: pending journal"
[ -p .probekit-txn.1.FIFO00 ] && ok "the FIFO is left alone" || fail "the FIFO went"
run_expect 0 "--discard-journal" timeout 60 probe-inject --discard-journal --probe STAGE_B k.cpp &&
	has "--discard-journal says what it discarded" "journal discarded"
[ -e .probekit-txn.1.FIFO00 ] && fail "--discard-journal kept the FIFO"
grep -q '^#if 1  // TIMING_PROBE: STAGE_B' k.cpp && ok "after the discard the run did its work" ||
	fail "after the discard STAGE_B is not on"
outside_same "--discard-journal"
setup_huge() { :; }
repo huge
truncate -s 400M .probekit-txn.1.HUGE00
start=$SECONDS
refused "a 400 MB file named like a journal" probe-inject --probe STAGE_B k.cpp
[ $((SECONDS - start)) -lt 20 ] && ok "the 400 MB journal is not read" || fail "the 400 MB journal took $((SECONDS - start)) s"
[ "$(stat -c %s .probekit-txn.1.HUGE00)" = 419430400 ] && ok "the 400 MB file is left alone" ||
	fail "the 400 MB file changed"

# 6. links the repository commits, named by the user or by an event map:
# a write goes through a link only when the file it reaches is in the tree
# linked NAME WHAT CMD...: exit 2, one line naming NAME, its target and
# what to do (and one for each other file of a set, not changed because of it); the clone's kernel and everything outside untouched
linked() {
	local name=$1 what=$2
	shift 2
	run_expect 2 "$what" timeout 60 "$@" && ok "$what: exit 2: $out"
	[ "$(printf '%s\n' "$out" | grep -c 'outside the work tree')" -eq 1 ] &&
		[ "$(printf '%s\n' "$out" | grep -v 'outside the work tree' | grep -vc "not changed, because '$name'")" -eq 0 ] ||
		fail "$what: not one line (and one per other file of the set): $out"
	has "$what: the message names the link" "$name:"
	has "$what: the message names the target" "$ext/"
	has "$what: the message says what to do" "itself"
	same "$what: the clone's kernel untouched" "$scratch/k.$(basename "$PWD")" k.cpp
	no_temp_files "$ext"
	outside_same "$what"
}
setup_links() {
	ln -s "$ext/k_moved.cpp" kernel.cpp
	ln -s ../outside/k_moved.cpp orch.cpp
	ln -s ../outside sub
	mkdir lib && kernel lib/real.cpp && ln -s k.cpp alias.cpp && ln -s lib inlib
}
repo links
linked kernel.cpp "inject through an absolute link to outside" probe-inject --probe STAGE_B kernel.cpp
linked kernel.cpp "strip through an absolute link to outside" probe-strip kernel.cpp
linked orch.cpp "inject through a relative link to outside" probe-inject --probe STAGE_B orch.cpp
linked orch.cpp "-o through a link to outside" probe-inject --probe STAGE_B -o orch.cpp k.cpp
linked sub/k_moved.cpp "inject through a linked folder to outside" probe-inject --probe STAGE_B sub/k_moved.cpp
linked sub/k_moved.cpp "strip through a linked folder to outside" probe-strip sub/k_moved.cpp
linked orch.cpp "a set with one link to outside" probe-inject --probe STAGE_B k.cpp orch.cpp
cd lib || exit 1
run_expect 2 "a link named with .. from a subfolder" timeout 60 probe-inject --probe STAGE_B ../orch.cpp &&
	has "a link named with .. from a subfolder: named" "../orch.cpp:"
cd .. || exit 1
outside_same "a link named with .. from a subfolder"
# the user's own file named by its own path is still written
cp -a "$ext" "$scratch/outside-copy"
run_expect 0 "a file outside named by its own path" timeout 60 probe-inject --probe STAGE_B "$scratch/outside-copy/k_moved.cpp" &&
	grep -q '^#if 1  // TIMING_PROBE: STAGE_B' "$scratch/outside-copy/k_moved.cpp" &&
	ok "a file outside named by its own path is written"
# links that stay in the tree are written through, as always
run_expect 0 "inject through an in-tree link" timeout 60 probe-inject --probe STAGE_B alias.cpp &&
	[ -L alias.cpp ] && grep -q '^#if 1  // TIMING_PROBE: STAGE_B' k.cpp &&
	ok "an in-tree link is written through and stays a link"
run_expect 0 "inject through an in-tree linked folder" timeout 60 probe-inject --probe STAGE_B inlib/real.cpp &&
	[ -L inlib ] && grep -q '^#if 1  // TIMING_PROBE: STAGE_B' lib/real.cpp &&
	ok "an in-tree linked folder is written through"
run_expect 0 "strip through an in-tree link" timeout 60 probe-strip alias.cpp && [ -L alias.cpp ] &&
	ok "strip through an in-tree link"
outside_same "in-tree links"

# 5. probe-sweep state: a committed .journal link to a folder of the
# user's, and an output folder that is itself a link
if [ -x "$bin/probe-sweep" ]; then
	setup_sweep() { mkdir probe-sweep.out && ln -s "$ext/dir" probe-sweep.out/.journal; }
	repo sweep
	refused "probe-sweep --recover with .journal a link" probe-sweep --recover
	refused "probe-sweep with .journal a link" probe-sweep --probes STAGE_A --run true k.cpp
	run_expect 1 "probe-list reports probe-sweep state" timeout 60 probe-list k.cpp &&
		has "probe-list names the sweep journal" "probe-sweep.out/.journal: pending journal"
	setup_sweepout() { ln -s "$ext/dir" probe-sweep.out; }
	repo sweepout
	run_expect 2 "probe-sweep with its output folder a link" timeout 60 probe-sweep --probes STAGE_A --run true \
		k.cpp && ok "probe-sweep with its output folder a link: exit 2"
	outside_same "probe-sweep with its output folder a link"
	# a well-formed index in a real folder, naming a file outside (the
	# owner line cannot be right: the clone's folder is new)
	setup_sweepidx() {
		mkdir -p probe-sweep.out/.journal
		cp "$ext/victim.txt" probe-sweep.out/.journal/orig.0
		printf 'probe-sweep journal 2\nowner\t%s\tx\t1\t1\nfile\t18\t0\torig.0\t%s\n' "$(id -u)" \
			"$ext/victim.txt" >probe-sweep.out/.journal/index
	}
	repo sweepidx
	refused "probe-sweep --recover with an index a clone brought" probe-sweep --recover
	[ -e probe-sweep.out/.journal/index ] && ok "the refused index is kept" || fail "the refused index went"
fi
finish
