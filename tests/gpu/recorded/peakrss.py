#!/usr/bin/env python3
# peakrss.py CMD...: runs CMD, then prints its wall time and peak resident memory (children).
import resource, subprocess, sys, time
t = time.time()
rc = subprocess.call(sys.argv[1:])
peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(f"peakrss: wall {time.time() - t:.2f} s, peak RSS {peak_kib / 1048576:.2f} GiB, rc {rc}")
sys.exit(rc)
