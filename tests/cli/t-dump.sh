#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ktprof dump, probe hits: each named after its probe, its arguments by the
# names and types of the capture's probe list (tests/report/probes.scn),
# in the text and in --json; a hit of a probe the list does not name, and
# every hit of a capture whose list is damaged, as the record has it (id,
# arg0... in hex). An argument named like one of the event's own keys
# keeps the JSON valid (no key twice): it is argN.
. "$(dirname "$0")/lib.sh"

"$GEN" -t "$TOP/tests/report/probes.scn" -o "$T/pr.ktp" || fail "gen-capture -t probes failed"
expect 0 '' dump "$T/pr.ktp"
printf '%s\n' "$out" | grep -E ' (probe|mark) ' | sed 's/^ *[0-9.]* \[000\] //; s/  */ /' >"$T/text"
cat >"$T/want" <<'EOF'
probe probe=rd probe_id=0 pid=10 fd=3 n=100
probe probe=rd probe_id=0 pid=10 fd=3 n=200
probe probe=rd probe_id=0 pid=11 fd=-2 n=100
probe probe=rd probe_id=0 pid=10 fd=4 n=300
probe probe=app probe_id=1 pid=10 s=odd
probe probe=app probe_id=1 pid=10 s=even
probe probe=app probe_id=1 pid=11 s=odd
probe probe=vfs_read%return probe_id=2 pid=10 at=return ret=100
probe probe=vfs_read%return probe_id=2 pid=10 at=return ret=-1
probe probe=vfs_read%return probe_id=2 pid=10 at=return ret=200
probe probe=7 probe_id=7 pid=10 arg0=0x1
mark pid=10 span=begin text=req
mark pid=10 span=begin text=req
mark pid=10 span=end text=req
mark pid=10 span=end text=req
mark pid=11 span=end text=req
mark pid=11 span=begin text=x
mark pid=10 text=hello
EOF
diff -u "$T/want" "$T/text" || fail "dump's probe hits are not named and typed by the list"

# The same in --json, each line an object with no key twice; a probe's
# x-types in hex as strings, as dump writes every hex field.
{
	sed -n '/^cpus/,/^10000/p' "$TOP/tests/report/probes.scn" |
		sed 's/^probe rd=k:vfs_read .*/probe rd=k:vfs_read fd=arg1:s32 n=arg3:u64 p=arg4:x16/'
} >"$T/hex.scn"
sed -i 's/^\(100 0 probe id=0 pid=10 args=3,100\)$/\1,0xbeef/' "$T/hex.scn"
"$GEN" -t "$T/hex.scn" -o "$T/hex.ktp" || fail "gen-capture -t hex failed"
# Arguments named like own keys: pid, probe and probe_id are argN (arg0_
# for pid: an argument is named arg0), the others keep their names; a
# damaged list (a probe line that does not parse) names nothing.
cat >"$T/clash.scn" <<'EOF'
cpus 1
stop 1000
probe x=k:f pid=arg1:s32 arg0=arg2:u8 probe=arg3:str probe_id=arg4:u16 ok=arg5
0 0 start pid=10
0 0 task pid=10 tgid=10 comm=a snapshot
100 0 probe id=0 pid=10 args=0xfffffffb,7,s:text,9,0x10
1000 0 stop pid=10
EOF
sed 's/^probe x=k:f .*/probe x=q:f/' "$T/clash.scn" >"$T/damaged.scn"
"$GEN" -t "$T/clash.scn" -o "$T/clash.ktp" || fail "gen-capture -t clash failed"
"$GEN" -t "$T/damaged.scn" -o "$T/damaged.ktp" || fail "gen-capture -t damaged failed"
for c in pr hex clash damaged; do
	expect 0 '' dump --json "$T/$c.ktp"
	printf '%s\n' "$out" >"$T/$c.json"
done
/usr/bin/python3 - "$T" <<'EOF' || fail "dump --json's probe hits are not the known answer"
import json, sys
t = sys.argv[1]
def once(pairs):
    keys = [k for k, _ in pairs]
    assert len(keys) == len(set(keys)), "a key twice: %s" % keys
    return dict(pairs)
def hits(name):
    out = []
    for line in open("%s/%s.json" % (t, name)):
        e = json.loads(line, object_pairs_hook=once)
        if e["type"] == "probe":
            del e["ts"], e["cpu"], e["type"]
            out.append(e)
    return out
got = hits("pr")
assert got[0] == {"probe": "rd", "probe_id": 0, "pid": 10, "fd": 3, "n": 100}, got[0]
assert got[2] == {"probe": "rd", "probe_id": 0, "pid": 11, "fd": -2, "n": 100}, got[2]
assert got[4] == {"probe": "app", "probe_id": 1, "pid": 10, "s": "odd"}, got[4]
assert got[8] == {"probe": "vfs_read%return", "probe_id": 2, "pid": 10, "at": "return",
                  "ret": -1}, got[8]
assert got[10] == {"probe": 7, "probe_id": 7, "pid": 10, "arg0": "0x1"}, got[10]
assert len(got) == 11, len(got)
got = hits("hex")
assert got[0] == {"probe": "rd", "probe_id": 0, "pid": 10, "fd": 3, "n": 100, "p": "0xbeef"}, got[0]
assert got[1] == {"probe": "rd", "probe_id": 0, "pid": 10, "fd": 3, "n": 200}, got[1]
got = hits("clash")
assert got == [{"probe": "x", "probe_id": 0, "pid": 10, "arg0_": -5, "arg0": 7, "arg2": "text",
                "arg3": 9, "ok": "0x10"}], got
got = hits("damaged")
assert got == [{"probe": 0, "probe_id": 0, "pid": 10, "arg0": "0xfffffffb", "arg1": "0x7",
                "arg2": "text", "arg3": "0x9", "arg4": "0x10"}], got
print("probe hits named in dump --json")
EOF
expect 0 '' dump "$T/clash.ktp"
printf '%s\n' "$out" | grep -q ' probe=x probe_id=0 pid=10 arg0_=-5 arg0=7 arg2=text arg3=9 ok=0x10$' ||
	fail "dump's text of a probe whose arguments take own keys: $(printf '%s\n' "$out" | grep probe=)"
echo ok
