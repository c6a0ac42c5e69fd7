# Puts the two consumer warp groups of a ping-pong GEMM (consumer0, consumer1)
# back into one (consumer = 8 warps, each warpgroup's parts under a
# warpgroup loop of its index): the form bench/gemm/pingpong.py first wrote.
{ if (w) { sub(/%wm = 0 to 1/, "%wm = 1 to 2"); w = 0 }
  if ($0 ~ /gpuir.warps "consumer1"/) w = 1
  gsub(/consumer0 = 4 inc\(232\), consumer1 = 4 inc\(232\)/, "consumer = 8 inc(232)")
  gsub(/"consumer[01]"/, "\"consumer\"")
  print }
