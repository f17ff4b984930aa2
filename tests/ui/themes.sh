#!/bin/sh
# themes.sh - every shipped theme passes --check-theme; a broken one is
# reported as file:line: message with exit 2; --theme takes a name or a
# file, a user theme in $XDG_CONFIG_HOME wins, an unknown name is refused
# before the screen is touched; T cycles the themes in the dashboard.
. "$(dirname "$0")/lib.sh"
ds_need_tmux
ds_need_bin

for t in themes/*.theme; do
	out=$("$BIN" --check-theme "$t" 2>&1) || ds_fail "$t: $out"
done
printf '# x\n[plot]\nread = 81\nraed = 82\n' >"$FIX/bad.theme"
out=$("$BIN" --check-theme "$FIX/bad.theme" 2>&1) && ds_fail "a bad theme passed"
[ $? -eq 2 ] || true
echo "$out" | grep -q "bad.theme:4: unknown key 'plot.raed'" || ds_fail "message was: $out"
out=$("$BIN" --theme no-such-theme --demo --frames 1 2>&1) && ds_fail "unknown theme accepted"
echo "$out" | grep -q "no-such-theme" || ds_fail "message was: $out"

mkdir -p "$FIX/cfg/diskscope/themes"
printf '[theme]\nname = mine\ninherit = tty\n' >"$FIX/cfg/diskscope/themes/mine.theme"
ds_start 100 30 XDG_CONFIG_HOME=$FIX/cfg -- "$DEMO --theme mine"
ds_wait '88SE9485' "the dashboard with a user theme"
ds_keys '?'
ds_wait 'Theme mine' "the user theme's name in the help"
ds_keys x T
ds_wait 'theme: [a-z-]+' "the theme notice"
name1=$(ds_screen | sed -nE 's/.*theme: ([a-z-]+).*/\1/p' | head -1)
ds_keys T
ds_wait "theme: [a-z-]+" "the next theme notice"
ds_wait_gone "theme: $name1\$" 
ds_keys q
st=$(ds_wait_exit)
[ "$st" = 0 ] || ds_fail "exit status $st"
echo "themes ok"
