#!/usr/bin/env bash
# Copies the benchmark's real matrices (every graph in ../shared/data over 100k nonzeros that is an
# .mtx or an edge list) into .data/ (git-ignored; carried to the GPU machine). CSV files lose their
# header line and TSV files keep their first two columns, so the edge-list loader reads them.
# Also the closure graphs into .closure/ (below).
set -euo pipefail
src=${1:-../shared/data}
cd "$(dirname "$0")/.."
mkdir -p .data
copy() { [ -e ".data/$2" ] || cp "$src/$1" ".data/$2"; }
two_columns() {  # file name: first two columns of each data line, gzipped
  [ -e ".data/$2" ] || zcat -f "$src/$1" | awk -F'[,\t ]+' 'NR > 1 || $1 ~ /^[0-9]+$/ { if ($1 ~ /^[0-9]+$/) print $1, $2 }' | gzip -9 > ".data/$2"
}
copy law-webgraph/cnr-2000.mtx.gz cnr-2000.mtx.gz
copy snap/soc-Slashdot0902.txt.gz soc-Slashdot0902.txt.gz
copy snap/email-Enron.txt.gz email-Enron.txt.gz
copy networkit/MIT8.edgelist.gz MIT8.txt.gz
copy networkit/wiki-Vote.txt wiki-Vote.txt
for f in fe_ocean.data_409593.txt.gz loc-Brightkite.data_214078.txt.gz SF.cedge.data_223001.txt.gz \
         delaunay_n16.data_196575.txt.gz usroads.data_165435.txt.gz usroads-48.data_161950.txt.gz; do
  copy "gpujoin-tc/$f" "$f"
done
for f in fe_body.data_163734.txt p2p-Gnutella31.data_147892.txt wing.data_121544.txt luxembourg_osm.data_119666.txt; do
  [ -e ".data/$f.gz" ] || gzip -9c "$src/gpujoin-tc/$f" > ".data/$f.gz"
done
for f in facebook_large_facebook_edges git_web_ml_git_edges deezer_HU_HU_edges deezer_europe_deezer_europe_edges \
         twitch_DE_DE_edges wikipedia_squirrel_squirrel_edges facebook_page_page_government_government_edges \
         facebook_page_page_sport_sport_edges; do
  g=$(ls "$src/benedekrozemberczki/$f".csv* | head -1)
  two_columns "benedekrozemberczki/$(basename "$g")" "$f.txt.gz"
done
two_columns debian-deps/bookworm_amd64_dep_edges.tsv.gz debian-deps.txt.gz
two_columns debian-wordnet30/all_pointers.tsv.gz wordnet-pointers.txt.gz
du -sh .data
# Transitive closure (bench closure, issue 5): the 20 GPUJoin graphs as given (gzipped) and the
# published sizes, in .closure/ (git-ignored; carried), apart from .data so bench spmv skips them.
mkdir -p .closure
cp "$src/expected/transitive_closure_sizes.tsv" .closure/
for g in "$src"/gpujoin-tc/*.data_*; do
  b=$(basename "$g")
  case $b in *weighted*) continue ;; *.gz) [ -e ".closure/$b" ] || cp "$g" .closure/ ;; *) [ -e ".closure/$b.gz" ] || gzip -9c "$g" > ".closure/$b.gz" ;; esac
done
du -sh .closure
# The POCR graphs of issue 26's CFL table and their grammars, gzipped, into .data/pocr (carried).
mkdir -p .data/pocr
for f in aa.cfg vf.cfg art.peg bzip2.peg gzip.peg crafty.peg astar.peg namd.peg art.vfg bzip2.vfg gzip.vfg astar.vfg; do
  case $f in *.cfg) cp "$src/pocr-alias/$f" .data/pocr/ ;; *) [ -e ".data/pocr/$f.gz" ] || gzip -9c "$src/pocr-alias/$f" > ".data/pocr/$f.gz" ;; esac
done
du -sh .data
