#!/bin/bash
# Device run 75 (one H200): the review mend (v4's epilogues ask the shared aligned_to, now
# __host__ __device__, instead of their own mask test; the tuning switches read through one
# clamping helper). Runs run70.sh's parts 1 and 2 in one call with .devcarry/v4-before.so built
# from 2a6413e (run 74's build); results under $OUT/r70 as there. Prediction: all pass,
# byte-identical checkpoints, epochs within noise of the previous build.
here=$(dirname "$0")
for part in 1 2; do PART=$part bash "$here/run70.sh"; done
