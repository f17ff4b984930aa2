#!/bin/sh
# The libFuzzer harnesses, briefly: build them (clang, ASan+UBSan, into
# build-fuzz), replay every input in tests/fuzz/regress (crashes once found,
# now fixed), then fuzz each for FUZZ_SECS (default 3) seconds.  The long
# run is `make fuzz` (60 s each; README "Reliability").
cd "$(dirname "$0")/../.." || exit 1
CC_FUZZ=${FUZZ_CC:-clang-14}
command -v "$CC_FUZZ" >/dev/null 2>&1 || sh tools/deps.sh fuzz >/dev/null 2>&1
if ! command -v "$CC_FUZZ" >/dev/null 2>&1; then
	echo "SKIP: $CC_FUZZ not installed (apt-get install clang-14 libclang-rt-14-dev): no fuzzing"
	exit 77
fi
LIBFUZZER=$("$CC_FUZZ" -print-file-name=libclang_rt.fuzzer-x86_64.a 2>/dev/null)
if [ ! -f "$LIBFUZZER" ] && ! ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a >/dev/null 2>&1; then
	echo "SKIP: the libFuzzer runtime is not installed (libclang-rt-14-dev): no fuzzing"
	exit 77
fi
if ! make -s fuzz-build FUZZ_CC="$CC_FUZZ" >/tmp/ds-fuzz-build.$$ 2>&1; then
	cat /tmp/ds-fuzz-build.$$; rm -f /tmp/ds-fuzz-build.$$
	echo "FAIL: the fuzz harnesses do not build"
	exit 1
fi
rm -f /tmp/ds-fuzz-build.$$
FUZZ_SECS=${FUZZ_SECS:-3} sh tests/fuzz/run.sh
