#!/bin/sh
# target-names.sh - `run` accepts a drive by any name `list` shows: the sim
# drive's name, its serial, sim:NAME, a kernel name, a /dev/disk-style link;
# an unknown name gets one line naming it and exit 2.
. "$(dirname "$0")/../lib/loop.sh"
DS=${DISKSCOPE:-build/diskscope}
fail=0
bad() { echo "FAIL: $*"; fail=1; }
T=$(mktemp -d) || exit 1
dev=""
trap '[ -n "$dev" ] && loop_detach "$dev"; rm -rf "$T"' EXIT INT TERM

target_of() {  # args...: the run's resolved target, from its JSON
  "$DS" "$@" --time 1 --json "$T/r.json" >/dev/null 2>"$T/err" || { bad "$*: exit $?: $(cat "$T/err")"; return; }
  python3 -c 'import json,sys; print(" ".join(r["target"] for r in json.load(open(sys.argv[1]))["run"]["steps"][0]["results"]))' "$T/r.json"
}
serial=$("$DS" --demo --no-ata list --json | python3 -c 'import json,sys; print([d["serial"] for d in json.load(sys.stdin)["inventory"]["drives"] if d["name"] == "sim3"][0])')
for name in sim3 sim:sim3 "$serial"; do
  got=$(target_of --demo --no-ata run seqread "$name")
  [ "$got" = "sim:sim3" ] || bad "run seqread $name ran on '$got', want sim:sim3"
done

"$DS" --demo --no-ata run seqread nosuch-drive --time 1 >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] || bad "unknown target: exit $rc, want 2"
[ "$(wc -l <"$T/err")" -eq 1 ] || bad "unknown target: want one line, got: $(cat "$T/err")"
grep -q "unknown target 'nosuch-drive'" "$T/err" || bad "unknown target not named: $(cat "$T/err")"

if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null 2>&1; then
  truncate -s 16M "$T/img"
  if loop_new dev "$T/img" 2>/dev/null; then
    ln -s "$dev" "$T/by-id-link"
    for name in "${dev#/dev/}" "$dev" "$T/by-id-link"; do
      got=$(target_of --no-ata run seqread "$name")
      [ "$got" = "${dev#/dev/}" ] || bad "run seqread $name ran on '$got', want ${dev#/dev/}"
    done
    # TRIM: one answer in the table and the JSON
    txt=$("$DS" --no-ata list 2>/dev/null | awk -v n="${dev#/dev/}" '$1 == n {print $7}')
    js=$("$DS" --no-ata list --json 2>/dev/null | python3 -c 'import json,sys
n=sys.argv[1]; t=[d["trim"]["supported"] for d in json.load(sys.stdin)["inventory"]["drives"] if d["name"]==n][0]
print({True:"yes",False:"no",None:"?"}[t])' "${dev#/dev/}")
    [ -n "$txt" ] && [ "$txt" = "$js" ] || bad "TRIM of $dev: list says '$txt', list --json '$js'"
  else
    echo "note: no loop device; kernel names and links not checked"
  fi
fi
[ $fail = 0 ] && echo "target names ok"
exit $fail
