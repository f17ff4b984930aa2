#!/bin/sh
# picker-identity.sh - one plan whatever starts the run: the same triage of
# the same eight demo drives (sim12..sim19: same sizes, different models),
# started once from the dashboard's picker (drives chosen one by one, the
# seed typed in the test options) and once headless (`run triage sim12 ...
# --seed 7 --json`), gives the same result field by field: each drive's
# identity (model, serial, controller, port: from the inventory, never "-"),
# its verdict (level, text, every evidence line, the peers it was compared
# with) and its row of the triage table.  Waits on the result view (it
# stays) and on the exported file, never on a passing screen.
. "$(dirname "$0")/lib.sh"
ds_need_tmux
ds_need_bin
command -v python3 >/dev/null 2>&1 || ds_skip "no python3"

drives="sim12 sim13 sim14 sim15 sim16 sim17 sim18 sim19"
# shellcheck disable=SC2086
ds_run $DEMO --no-history run triage $drives --seed 7 --json head.json >/dev/null 2>"$FIX/head.err"
st=$?
[ -s "$FIX/head.json" ] || ds_fail "headless run wrote no JSON (exit $st): $(cat "$FIX/head.err")"

ds_start 200 60 -- "$DEMO --no-history --sim-speed 0"
ds_wait '88SE9215' "the demo rig"
ds_keys / sim12 Enter
ds_wait 'Inventory \[/sim12\]' "the filter"
ds_keys t
ds_wait 'Test picker'
ds_pick_walk triage
ds_keys Tab j j j j j j Enter
ds_wait 'test options: type e.g.' "the test options field"
ds_keys "seed=7" Enter
ds_wait 'test options +\[seed=7\]' "the typed seed"
# the targets: the filter left sim12's controller under the cursor, so
# the picker preselected all of it (a ctrl: target); Space on it clears it,
# then each drive is chosen one by one, as a user picks drives (the row
# after sim15 is ctrl3's, skipped)
ds_keys Tab
ds_wait '\[x\] sim15 ' "sim12's controller preselected"
ds_keys Space
ds_wait '\[ \] sim15 ' "the controller cleared"
for k in 12 13 14 15 x 16 17 18 19; do
	ds_keys j
	[ "$k" = x ] || ds_keys Space
done
for d in $drives; do
	ds_wait "\\[x\\] $d " "$d selected"
done
ds_keys Enter
ds_wait 'Result: triage' "the result view"
ds_keys Tab e	# from the board (it takes the focus) to the result: export
i=0
while [ -z "$(ls "$FIX"/diskscope-triage-*.json 2>/dev/null)" ]; do
	ds_alive
	[ $i -ge $((WAIT * 10)) ] && ds_fail "no exported JSON after ${WAIT}s"
	sleep 0.1
	i=$((i + 1))
done
json=$(ls "$FIX"/diskscope-triage-*.json | head -1)
ds_keys q
ds_wait_exit >/dev/null

python3 - "$FIX/head.json" "$json" <<'PY' || ds_fail "the picker's triage differs from the headless one"
import json, sys
head, pick = (json.load(open(f))["run"] for f in sys.argv[1:3])
bad = []
def same(what, a, b):
    if a != b:
        bad.append("%s: headless %r, picker %r" % (what, a, b))
idh = {t["target"]: t for t in head["identity"]["targets"]}
idp = {t["target"]: t for t in pick["identity"]["targets"]}
same("targets", sorted(idh), sorted(idp))
for name, t in idh.items():
    for k in ("model", "serial", "controller", "port", "capacity_bytes", "drive_id"):
        if t[k] is None:
            bad.append("%s %s: unknown headless" % (name, k))
        same("%s %s" % (name, k), t[k], idp.get(name, {}).get(k))
vh = {v["text"].split(":")[0] + ":" + v["text"].split(":")[1]: v for v in head["verdicts"] if v["kind"] == "triage"}
vp = {v["text"].split(":")[0] + ":" + v["text"].split(":")[1]: v for v in pick["verdicts"] if v["kind"] == "triage"}
same("drives judged", sorted(vh), sorted(vp))
for name, v in vh.items():
    w = vp.get(name, {})
    same("%s level" % name, v["level"], w.get("level"))
    same("%s verdict" % name, v["text"], w.get("text"))
    # the peers each was compared with and every other reason
    same("%s evidence" % name, v["evidence"], w.get("evidence"))
summ = lambda r: [v["text"] for v in r["verdicts"] if v["kind"] == "summary"]
same("summary", summ(head), summ(pick))
th = {t["name"]: t for t in head["tables"]}
tp = {t["name"]: t for t in pick["tables"]}
cols = [c["name"] for c in th["triage"]["columns"]]
same("triage columns", cols, [c["name"] for c in tp["triage"]["columns"]])
rh = {r[0]: r for r in th["triage"]["rows"]}
rp = {r[0]: r for r in tp["triage"]["rows"]}
for name, r in rh.items():
    for c, a, b in zip(cols, r, rp.get(name, [None] * len(r))):
        same("%s table %s" % (name, c), a, b)
if bad:
    print("\n".join(bad[:80]))
    sys.exit(1)
print("picker and headless agree on %d drives: %s" % (len(vh), summ(head)[0]))
PY
echo "picker identity ok"
