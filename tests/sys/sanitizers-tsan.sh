#!/bin/sh
# sanitizers-tsan.sh - the TSan part of sanitizers.sh (workers, sampler and
# UI sharing statistics): the unit tests and the runner/sim/dashboard system
# tests with build-tsan/diskscope; any ThreadSanitizer report fails.
DS_SAN=tsan exec sh "$(dirname "$0")/sanitizers.sh"
