#!/usr/bin/env bash
# Regenerates the zstd fixtures with the reference tool (zstd 1.5.x): frames of made-up contents at
# several levels and options, and the manifests the tests compare the decoder with. The contents
# are made from a fixed seed (not committed); each expected size and MD5 is `zstd -dc`'s output's.
#   Tests/SwiftCovCoreTests/Fixtures/zstd/make-frames.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here"
command -v zstd >/dev/null || { echo "make-frames: zstd is not installed" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rm -rf frames
mkdir frames

# Contents: words (Huffman-coded literals), random bytes (raw literals and blocks), repeated lines
# (long matches, repeated offsets), zeros (RLE blocks), 200 KB of words (several blocks), and
# short words and random bytes.
python3 - "$work" <<'PY'
import random, sys
out = sys.argv[1]
rng = random.Random(8878)
vocabulary = [''.join(rng.choice('abcdefghijklmnopqrstuvwxyz') for _ in range(rng.randint(2, 9))) for _ in range(300)]
def words(count):
    lines, line = [], []
    for _ in range(count):
        line.append(vocabulary[min(int(rng.paretovariate(1.2)) - 1, len(vocabulary) - 1)])
        if len(line) > rng.randint(6, 14):
            lines.append(' '.join(line))
            line = []
    return ('\n'.join(lines) + '\n').encode()
open(f'{out}/empty', 'wb').close()
open(f'{out}/one-byte', 'wb').write(b'x')
open(f'{out}/text', 'wb').write(words(4000))
open(f'{out}/random', 'wb').write(bytes(rng.getrandbits(8) for _ in range(6000)))
repeated = b''.join(b'line %d: %s\n' % (i % 97, b'=' * (i % 13)) for i in range(12000))
open(f'{out}/repeated', 'wb').write(repeated)
open(f'{out}/zeros', 'wb').write(b'\0' * 300000 + b'end' + b'\xff' * 70000)
open(f'{out}/large', 'wb').write(words(36000))
# Small ones for the tests that break a frame at every byte (a debug build decodes slowly).
open(f'{out}/short', 'wb').write(words(300))
open(f'{out}/short-random', 'wb').write(bytes(rng.getrandbits(8) for _ in range(300)))
PY

frame() { # NAME CONTENT ZSTD_OPTIONS…
    local name=$1 content=$2
    shift 2
    zstd -q -c "$@" "$work/$content" >"frames/$name.zst"
}
piped() { # NAME CONTENT ZSTD_OPTIONS…: from standard input, so without a content size
    local name=$1 content=$2
    shift 2
    zstd -q -c "$@" <"$work/$content" >"frames/$name.zst"
}

for level in 1 3 9 19; do
    for content in empty one-byte text random repeated zeros; do frame "$content-$level" "$content" "-$level"; done
done
for content in text repeated zeros one-byte; do frame "$content-ultra22" "$content" --ultra -22; done
frame large-1 large -1
frame large-19 large -19
frame large-long27 large -3 --long=27
piped large-piped-3 large -3
piped text-piped-no-check text -9 --no-check
piped repeated-piped-1 repeated -1
frame text-no-content-size text -3 --no-content-size
frame random-no-check random -3 --no-check
frame text-content-size-no-check text -19 --content-size --no-check
frame short-19 short -19
frame short-random-3 short-random -3
piped short-piped-no-check short -9 --no-check
# Two frames and a skippable one (magic 0x184D2A53, 5 bytes) between them.
{ cat frames/text-3.zst; printf '\x53\x2a\x4d\x18\x05\x00\x00\x00skip!'; cat frames/repeated-9.zst; } >frames/concatenated.zst
{ cat frames/short-19.zst; printf '\x5f\x2a\x4d\x18\x03\x00\x00\x00abc'; cat frames/short-random-3.zst frames/one-byte-1.zst; } \
    >frames/short-concatenated.zst

# The expected output of every frame: NAME SIZE MD5, from zstd itself.
for file in frames/*.zst; do
    zstd -dc "$file" >"$work/out"
    echo "$(basename "$file") $(wc -c <"$work/out") $(md5sum <"$work/out" | cut -d' ' -f1)"
done >frames.manifest

# The objects of the real Xcode result bundles, as `zstd -dc` decodes them: PATH SIZE MD5.
(
    cd ../xcode
    for file in *.xcresult/Data/data.*; do
        zstd -dc "$file" >"$work/out"
        echo "$file $(wc -c <"$work/out") $(md5sum <"$work/out" | cut -d' ' -f1)"
    done
) >xcode.manifest
du -sh frames
