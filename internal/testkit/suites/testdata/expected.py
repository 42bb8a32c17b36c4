# Writes EXPECTED.tsv: every case of the suites, the outcome its suite states, and
# what the format's reference decoder yields from it (status, bytes).
import hashlib, os, subprocess, sys, zlib
root = sys.argv[1]
XZ = os.environ.get('XZ', 'xz')        # xz 5.8.1 made EXPECTED.tsv
ZSTD = os.environ.get('ZSTD', 'zstd')  # zstd 1.5.7
vectors = {}
for line in open(sys.argv[2]):
    name, desc, want = line.rstrip('\n').split('\t')
    vectors[name] = (desc, want)
# Where foreach's outcome is not the one the suite states, and why: the one place.
OVERRIDES = {
    # A complete stream followed by bytes that start no stream of the format: foreach
    # reads what follows a stream as gzip does, for every format (trailing data: every
    # byte of the stream, then a warning and exit status 3), where xz fails.
    'xz/bad-0cat-alone.xz': ('trailing', 'an empty stream, then an empty .lzma file: trailing data to foreach (a warning, status 3), an error to xz'),
    'xz/bad-0cat-header_magic.xz': ('trailing', 'a second stream with a damaged magic number: trailing data to foreach (a warning, status 3), an error to xz'),
    'xz/bad-0catpad-empty.xz': ('trailing', 'five bytes of padding between streams: trailing data to foreach (a warning, status 3), an error to xz'),
    'xz/bad-0-header_magic.xz': ('plain', 'a wrong magic number: not xz to foreach, which detects formats by content: passed on as it is (xz says "file format not recognized")'),
    'xz/bad-0pad-empty.xz': ('good', 'five zero bytes after the stream: foreach ignores zero padding to the end of the input in every format, as gzip does (internal/decompress.Reader); xz refuses padding that is not a multiple of four'),
    'gzip/zlib-infcover-04.gz': ('plain', 'bad gzip method: 1f 8b 00 is not gzip to foreach, whose detection needs method 8 (deflate): passed on as it is'),
    'gzip/go-gunzip-06.gz': ('trailing', "hello.txt + garbage: Go's reader fails (ErrHeader); gzip -dc and foreach warn of trailing data"),
    'gzip/go-gunzip-07.gz': ('cut', "hello.txt + 1f: Go's reader says io.ErrUnexpectedEOF, as foreach does (a magic number cut short)"),
}
zstd_errors = {'off0.bin.zst', 'truncated_huff_state.zst', 'zeroSeq_extraneous.zst'}

def tool(cmd, data):
    p = subprocess.run(cmd, input=data, capture_output=True)
    return p.stdout, p.returncode

def zlib_raw(data):
    d = zlib.decompressobj(-15); out = b''
    for i in range(len(data)):
        try:
            out += d.decompress(data[i:i+1])
        except zlib.error as e:
            return out, 'error', i + 1
        if d.eof: return out, 'end', i + 1
    return out, 'cut', len(data)

rows = []
for suite in sorted(os.listdir(root)):
    if not os.path.isdir(os.path.join(root, suite)): continue
    for name in sorted(os.listdir(os.path.join(root, suite))):
        if name.endswith('.py') or name == 'README': continue
        data = open(os.path.join(root, suite, name), 'rb').read()
        note = ''; used = len(data)
        if suite == 'xz':
            outcome = name.split('-')[0]
            if name.endswith('.lz'): outcome = 'plain'; note = 'lzip (' + name.split('-')[0] + ' in the suite): not a format foreach reads'
            out, st = tool([XZ, '-dc'], data); ref = 'xz 5.8.1 -dc'
        elif suite == 'xz-filters':
            outcome = 'good'; note = 'made by make-filters.py with xz 5.8.1 ' + name[:-3]
            out, st = tool([XZ, '-dc'], data); ref = 'xz 5.8.1 -dc'
        elif suite == 'zstd':
            outcome = 'bad' if name in zstd_errors else 'good'
            out, st = tool([ZSTD, '-dc', '-q'], data); ref = 'zstd 1.5.7 -dc'
        elif suite == 'bzip2':
            outcome = 'good'; out, st = tool(['bzip2', '-dc'], data); ref = 'bzip2 -dc'
        elif suite == 'gzip':
            desc, want = vectors[name]; note = desc
            outcome = 'bad' if want in ('fail', 'Z_DATA_ERROR') else 'good'
            out, st = tool(['gzip', '-dc'], data); ref = 'gzip -dc'
        elif suite == 'deflate':
            out, how, used = zlib_raw(data); ref = 'zlib'
            st = {'end': 0, 'cut': 2, 'error': 1}[how]
            if name in vectors:
                desc, want = vectors[name]; note = desc
                if name.startswith('go-streams'):
                    outcome = 'bad' if want == 'fail' else 'good'
                else:
                    # infcover states zlib's return codes under its window sizes and
                    # input steps; the verdict on the stream is zlib's with a 32 KiB window.
                    outcome = {'end': 'good', 'cut': 'cut', 'error': 'bad'}[how]
            else:
                outcome = 'cut'; note = "Go's compress/flate/testdata: blocks without the final one"
        if suite + '/' + name in OVERRIDES: outcome, note = OVERRIDES[suite + '/' + name]
        rows.append((suite + '/' + name, outcome, str(used), ref, str(st), str(len(out)), hashlib.sha256(out).hexdigest(), '%08x' % zlib.crc32(out), out.hex() if len(out) <= 512 else '-', note))
with open(os.path.join(root, 'EXPECTED.tsv'), 'w') as f:
    f.write('# case\toutcome\tbytes used (deflate: of the stream)\treference\tstatus\tbytes\tsha256\tcrc32\thex (up to 512 bytes)\tnote\n')
    for r in rows: f.write('\t'.join(r) + '\n')
