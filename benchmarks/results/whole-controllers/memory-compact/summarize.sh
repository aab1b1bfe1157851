#!/usr/bin/env bash
# per-object live bytes from the class histogram totals: (full - base) / count
cd "$(dirname "$0")"
total() { awk '/^Total/{print $3}' "histo-$1.txt"; }
used() { grep " $1: " memory.txt | awk '{print $NF}'; }
n=${COUNT:-10000}
for r in 1 2; do
  for p in ours ours-no-compact client-java; do
    b=$(total base-$p-$r); f=$(total full-$p-$r)
    [ -n "$b" ] && [ -n "$f" ] && awk -v p=$p -v r=$r -v b=$b -v f=$f -v n=$n -v ub="$(used base-$p-$r)" -v uf="$(used full-$p-$r)" 'BEGIN{printf "round %s %-16s live: base %d full %d -> %7.1f B/object | used: base %d full %d -> %7.1f B/object\n", r, p, b, f, (f-b)/n, ub, uf, (uf-ub)/n}'
  done
  for p in ours ours-no-compact; do
    b=$(total mf-base-$p-$r); f=$(total mf-full-$p-$r)
    [ -n "$b" ] && [ -n "$f" ] && awk -v p="$p+includeManagedFields" -v r=$r -v b=$b -v f=$f -v n=$n -v ub="$(used mf-base-$p-$r)" -v uf="$(used mf-full-$p-$r)" 'BEGIN{printf "round %s %-16s live: base %d full %d -> %7.1f B/object | used: base %d full %d -> %7.1f B/object\n", r, p, b, f, (f-b)/n, ub, uf, (uf-ub)/n}'
  done
done
