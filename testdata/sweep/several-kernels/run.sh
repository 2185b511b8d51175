# The runtime runs the three kernels as overlapping tasks: a kernel's lines
# interleave with the others', as simpler's simulation prints them.
on() { grep -q "^#if 1  // TIMING_PROBE: $2\$" "$1"; }
echo "a2a3sim: 3 tasks"
on kernel_load.cpp T_BASE && echo "[T_BASE] 1000"
on kernel_add.cpp T_BASE && echo "[T_BASE] 5000"
on kernel_load.cpp LOAD && echo "[LOAD] start=1100 end=1400 dur=300"
on kernel_store.cpp T_BASE && echo "[T_BASE] 9000"
on kernel_add.cpp ADD && echo "[ADD] start=5050 end=5650 dur=600"
on kernel_store.cpp STORE && echo "[STORE] start=9020 end=9120 dur=100"
echo "result: PASS"
