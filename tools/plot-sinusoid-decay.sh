#!/usr/bin/env bash
# Draws docs/img/sinusoid-decay.png: how the dot product of two sinusoidal encodings decays with
# their distance (docs/laws.md section 6), from tools/sinusoid_decay.cpp's MPFR values.
# Usage: bash tools/plot-sinusoid-decay.sh      (installs gnuplot-nox if missing; ~1 min)
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/bootstrap-deps.sh --demo gnuplot-nox
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
g++ -std=c++20 -O2 tools/sinusoid_decay.cpp -o "$tmp/sinusoid_decay" -lmpfr -lgmp
"$tmp/sinusoid_decay" 512 4096 > "$tmp/decay.dat"
mkdir -p docs/img
gnuplot <<GP
set terminal pngcairo size 900,500 font ",11" noenhanced
set output "docs/img/sinusoid-decay.png"
set title "Dot product of two sinusoidal encodings, d = 512, base 10000: P(p).P(p+k) / (d/2)"
set xlabel "distance k"
set ylabel "P(p).P(p+k) / (d/2)"
set logscale x 2
set xrange [1:4096]
set grid
set key top right
plot "$tmp/decay.dat" using 1:2 with lines lw 2 title "paper exponent 2i/d", \
     "$tmp/decay.dat" using 1:3 with lines lw 2 title "fairseq exponent i/(d/2 - 1)"
GP
echo "wrote docs/img/sinusoid-decay.png"
