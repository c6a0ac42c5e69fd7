// The sequential behaviors of the Sm80 instructions, each run alone on
// inputs whose results are easy to state (the kernels are in Inputs/; the
// GPU tests compare the same kernels with the hardware on random inputs).

// Shuffles of X = 100 .. 131: butterfly by 3, down by 5 (lanes past 31 keep
// their value), up by 7 (lanes below 0 keep theirs), broadcast of lane 9.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 -c "import struct; open('%t/X.bin', 'wb').write(struct.pack('<32i', *range(100, 132)))"
// RUN: rake-opt %S/Inputs/sm80-shuffles.mlir --rake-check > /dev/null
// RUN: rake-run --seq %S/Inputs/sm80-shuffles.mlir --input=X=%t/X.bin --print=Y | FileCheck %s --check-prefix=SHFL
// SHFL: {{^}}103 102 101 100 107 106 105 104 111 110 109 108 115 114 113 112 119 118 117 116 123 122 121 120 127 126 125 124 131 130 129 128 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119 120 121 122 123 124 125 126 127 128 129 130 131 127 128 129 130 131 100 101 102 103 104 105 106 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119 120 121 122 123 124 109 109 109 109 109 109 109 109 109 109 109 109 109 109 109 109 109 109 109 109 109 109 109 109 109 109 109 109 109 109 109 109{{$}}

// The warp's vote: X[l] = l for l a multiple of 3 and for lane 31, else 0;
// every lane gets the mask of the nonzero lanes (0 is zero; bit 31 makes it
// negative as i32).
// RUN: python3 -c "import struct; open('%t/Xb.bin', 'wb').write(struct.pack('<32i', *[l if l %% 3 == 0 or l == 31 else 0 for l in range(32)]))"
// RUN: rake-opt %S/Inputs/sm80-ballot.mlir --rake-check > /dev/null
// RUN: rake-run --seq %S/Inputs/sm80-ballot.mlir --input=X=%t/Xb.bin --print=Y | FileCheck %s --check-prefix=BALLOT
// BALLOT: {{^}}-920350136 -920350136 -920350136 -920350136 -920350136 -920350136 -920350136 -920350136 -920350136 -920350136 -920350136 -920350136 -920350136 -920350136 -920350136 -920350136 -920350136 -920350136 -920350136 -920350136 -920350136 -920350136 -920350136 -920350136 -920350136 -920350136 -920350136 -920350136 -920350136 -920350136 -920350136 -920350136{{$}}

// The warp's sum (butterfly) and inclusive scan of X[l] = l + 1: every lane
// 528, lane l (l + 1)(l + 2) / 2.
// RUN: python3 -c "import struct; open('%t/Xs.bin', 'wb').write(struct.pack('<32f', *[float(l + 1) for l in range(32)]))"
// RUN: rake-opt %S/Inputs/sm80-warp-sums.mlir --rake-check > /dev/null
// RUN: rake-run --seq %S/Inputs/sm80-warp-sums.mlir --input=X=%t/Xs.bin --print=Y | FileCheck %s --check-prefix=SUMS
// SUMS: {{^}}528.00 528.00 528.00 528.00 528.00 528.00 528.00 528.00 528.00 528.00 528.00 528.00 528.00 528.00 528.00 528.00 528.00 528.00 528.00 528.00 528.00 528.00 528.00 528.00 528.00 528.00 528.00 528.00 528.00 528.00 528.00 528.00 1.00 3.00 6.00 10.00 15.00 21.00 28.00 36.00 45.00 55.00 66.00 78.00 91.00 105.00 120.00 136.00 153.00 171.00 190.00 210.00 231.00 253.00 276.00 300.00 325.00 351.00 378.00 406.00 435.00 465.00 496.00 528.00{{$}}

// mma.sync m16n8k16 f16 through cp.async and ldmatrix (.x4, .x2.trans):
// A[i][k] = 16 i + k, B the 16 x 8 identity, so D = A[:, 0:8].
// RUN: python3 -c "import struct; open('%t/A.bin', 'wb').write(struct.pack('<256e', *range(256)))"
// RUN: python3 -c "import struct; open('%t/B.bin', 'wb').write(struct.pack('<128e', *[float(k == j) for k in range(16) for j in range(8)]))"
// RUN: rake-opt %S/Inputs/sm80-mma-f16.mlir --rake-check > /dev/null
// RUN: rake-run --seq %S/Inputs/sm80-mma-f16.mlir --input=A=%t/A.bin --input=B=%t/B.bin --print=D | FileCheck %s --check-prefix=F16
// F16: {{^}}0.00 1.00 2.00 3.00 4.00 5.00 6.00 7.00 16.00 17.00 18.00 19.00 20.00 21.00 22.00 23.00 32.00 33.00 34.00 35.00 36.00 37.00 38.00 39.00 48.00 49.00 50.00 51.00 52.00 53.00 54.00 55.00 64.00 65.00 66.00 67.00 68.00 69.00 70.00 71.00 80.00 81.00 82.00 83.00 84.00 85.00 86.00 87.00 96.00 97.00 98.00 99.00 100.00 101.00 102.00 103.00 112.00 113.00 114.00 115.00 116.00 117.00 118.00 119.00 128.00 129.00 130.00 131.00 132.00 133.00 134.00 135.00 144.00 145.00 146.00 147.00 148.00 149.00 150.00 151.00 160.00 161.00 162.00 163.00 164.00 165.00 166.00 167.00 176.00 177.00 178.00 179.00 180.00 181.00 182.00 183.00 192.00 193.00 194.00 195.00 196.00 197.00 198.00 199.00 208.00 209.00 210.00 211.00 212.00 213.00 214.00 215.00 224.00 225.00 226.00 227.00 228.00 229.00 230.00 231.00 240.00 241.00 242.00 243.00 244.00 245.00 246.00 247.00{{$}}

// mma.sync m16n8k8 tf32 with fragments read by the PTX layouts:
// A[i][k] = 8 i + k, B the identity, C = 1000, so D = A + 1000.
// RUN: python3 -c "import struct; open('%t/A32.bin', 'wb').write(struct.pack('<128f', *range(128)))"
// RUN: python3 -c "import struct; open('%t/B32.bin', 'wb').write(struct.pack('<64f', *[float(k == j) for k in range(8) for j in range(8)]))"
// RUN: python3 -c "import struct; open('%t/C32.bin', 'wb').write(struct.pack('<128f', *[1000.0] * 128))"
// RUN: rake-opt %S/Inputs/sm80-mma-tf32.mlir --rake-check > /dev/null
// RUN: rake-run --seq %S/Inputs/sm80-mma-tf32.mlir --input=A=%t/A32.bin --input=B=%t/B32.bin --input=C=%t/C32.bin --print=D | FileCheck %s --check-prefix=TF32
// TF32: {{^}}1000.00 1001.00 1002.00 1003.00 1004.00 1005.00 1006.00 1007.00 1008.00 1009.00 1010.00 1011.00 1012.00 1013.00 1014.00 1015.00 1016.00 1017.00 1018.00 1019.00 1020.00 1021.00 1022.00 1023.00 1024.00 1025.00 1026.00 1027.00 1028.00 1029.00 1030.00 1031.00 1032.00 1033.00 1034.00 1035.00 1036.00 1037.00 1038.00 1039.00 1040.00 1041.00 1042.00 1043.00 1044.00 1045.00 1046.00 1047.00 1048.00 1049.00 1050.00 1051.00 1052.00 1053.00 1054.00 1055.00 1056.00 1057.00 1058.00 1059.00 1060.00 1061.00 1062.00 1063.00 1064.00 1065.00 1066.00 1067.00 1068.00 1069.00 1070.00 1071.00 1072.00 1073.00 1074.00 1075.00 1076.00 1077.00 1078.00 1079.00 1080.00 1081.00 1082.00 1083.00 1084.00 1085.00 1086.00 1087.00 1088.00 1089.00 1090.00 1091.00 1092.00 1093.00 1094.00 1095.00 1096.00 1097.00 1098.00 1099.00 1100.00 1101.00 1102.00 1103.00 1104.00 1105.00 1106.00 1107.00 1108.00 1109.00 1110.00 1111.00 1112.00 1113.00 1114.00 1115.00 1116.00 1117.00 1118.00 1119.00 1120.00 1121.00 1122.00 1123.00 1124.00 1125.00 1126.00 1127.00{{$}}

// TF32 ignores the low 13 bits of each input: 1 + 2^-12 (A) times 1 (B) is 1.
// RUN: python3 -c "import struct; open('%t/A1.bin', 'wb').write(struct.pack('<128f', *[1.0 + 2.0**-12] * 128))"
// RUN: python3 -c "import struct; open('%t/Z.bin', 'wb').write(struct.pack('<128f', *[0.0] * 128))"
// RUN: rake-run --seq %S/Inputs/sm80-mma-tf32.mlir --input=A=%t/A1.bin --input=B=%t/B32.bin --input=C=%t/Z.bin --output-dir=%t/o > /dev/null
// RUN: python3 -c "import struct; d = struct.unpack('<128f', open('%t/o/D.bin', 'rb').read()); print(sorted(set(d)))" | FileCheck %s --check-prefix=TRUNC
// TRUNC: {{^}}[1.0]{{$}}

// mma.sync m16n8k32 on 8-bit integers, fragments read by the PTX layouts:
// random s8 inputs (rake-run's integers in [-8, 8]) and C = 2^31 - 1, so
// that most sums wrap modulo 2^32; checked against a product written here.
// RUN: python3 -c "import struct; open('%t/Cmax.bin', 'wb').write(struct.pack('<128i', *[2**31 - 1] * 128))"
// RUN: rake-opt %S/Inputs/sm80-mma-int8.mlir --rake-check > /dev/null
// RUN: rake-run --seq %S/Inputs/sm80-mma-int8.mlir --input=C=%t/Cmax.bin --output-dir=%t/s8 | FileCheck %s --check-prefix=INT8
// INT8: @mma_int8 ran (sequential meaning, seed 1)
// RUN: python3 -c "import struct; r = lambda n, f, c: struct.unpack('<%%d%%s' %% (c, f), open('%t/s8/' + n + '.bin', 'rb').read()); A, B, C, D = r('A', 'b', 512), r('B', 'b', 256), r('C', 'i', 128), r('D', 'i', 128); E = [(C[8 * i + j] + sum(A[32 * i + k] * B[8 * k + j] for k in range(32)) + 2**31) %% 2**32 - 2**31 for i in range(16) for j in range(8)]; print('s8', list(D) == E, sum(d < 0 for d in D))" | FileCheck %s --check-prefix=S8
// S8: s8 True {{[1-9][0-9]*}}
// The same bytes read as u8 (a_unsigned, b_unsigned): the generated -8..-1
// are 248..255.
// RUN: sed 's/gpuir.sm80.mma_sync %%d, %%a, %%b :/gpuir.sm80.mma_sync %%d, %%a, %%b {a_unsigned, b_unsigned} :/' %S/Inputs/sm80-mma-int8.mlir > %t/u8.mlir
// RUN: rake-run --seq %t/u8.mlir --input=C=%t/Cmax.bin --output-dir=%t/u8 > /dev/null
// RUN: python3 -c "import struct; r = lambda n, f, c: struct.unpack('<%%d%%s' %% (c, f), open('%t/u8/' + n + '.bin', 'rb').read()); A, B, C, D = r('A', 'B', 512), r('B', 'B', 256), r('C', 'i', 128), r('D', 'i', 128); E = [(C[8 * i + j] + sum(A[32 * i + k] * B[8 * k + j] for k in range(32)) + 2**31) %% 2**32 - 2**31 for i in range(16) for j in range(8)]; print('u8', list(D) == E)" | FileCheck %s --check-prefix=U8
// U8: u8 True
// And mixed: A s8, B u8.
// RUN: sed 's/gpuir.sm80.mma_sync %%d, %%a, %%b :/gpuir.sm80.mma_sync %%d, %%a, %%b {b_unsigned} :/' %S/Inputs/sm80-mma-int8.mlir > %t/s8u8.mlir
// RUN: rake-run --seq %t/s8u8.mlir --input=C=%t/Cmax.bin --output-dir=%t/s8u8 > /dev/null
// RUN: python3 -c "import struct; r = lambda n, f, c: struct.unpack('<%%d%%s' %% (c, f), open('%t/s8u8/' + n + '.bin', 'rb').read()); A, B, C, D = r('A', 'b', 512), r('B', 'B', 256), r('C', 'i', 128), r('D', 'i', 128); E = [(C[8 * i + j] + sum(A[32 * i + k] * B[8 * k + j] for k in range(32)) + 2**31) %% 2**32 - 2**31 for i in range(16) for j in range(8)]; print('s8u8', list(D) == E)" | FileCheck %s --check-prefix=S8U8
// S8U8: s8u8 True
