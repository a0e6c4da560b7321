#!/usr/bin/env bash
# Source it: puts a folder holding libnccl.so.2 on LD_LIBRARY_PATH when the
# dynamic loader does not already find one (carried builds leave NCCL out; a
# GPU machine may have it only inside PyTorch's nvidia-nccl wheel).
if ! ldconfig -p 2>/dev/null | grep -q 'libnccl\.so\.2'; then
  for dir in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib \
    "$(python3 -c 'import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], "lib"))' 2>/dev/null)"; do
    if [ -n "$dir" ] && [ -e "$dir/libnccl.so.2" ]; then
      export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
      break
    fi
  done
fi
