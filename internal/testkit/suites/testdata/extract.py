# Extracts the deflate and gzip test vectors of Go's compress/flate and
# compress/gzip tests and of zlib's test/infcover.c into files.
import re, sys, os, base64
goroot, infcover, out = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(out + '/deflate', exist_ok=True); os.makedirs(out + '/gzip', exist_ok=True)
src = open(goroot + '/src/compress/flate/flate_test.go').read()
body = src[src.index('func TestStreams'):src.index('func TestTruncatedStreams')]
cases = re.findall(r'\{\s*"([^"]*)",\s*((?:"[0-9a-f]*"\s*\+?\s*)+),\s*"([^"]*)",\s*\}', body)
manifest = []
for i, (desc, stream, want) in enumerate(cases):
    hexs = ''.join(re.findall(r'"([0-9a-f]*)"', stream))
    name = 'go-streams-%02d.deflate' % i
    open(out + '/deflate/' + name, 'wb').write(bytes.fromhex(hexs))
    manifest.append((name, desc, want))
print(len(cases), 'go streams', file=sys.stderr)
src = open(goroot + '/src/compress/gzip/gunzip_test.go').read()
body = src[src.index('var gunzipTests'):src.index('func TestDecompressor')]
tests = re.findall(r'"([^"]*)",\s*"([^"]*)",\s*((?:"(?:[^"\\]|\\.)*"\s*\+?\s*)+),\s*\[\]byte\{([^}]*)\},\s*([^,\n]*),\s*\}', body)
consts = {'gzipID1': 0x1f, 'gzipID2': 0x8b}
for i, (name, desc, raw, data, err) in enumerate(tests):
    data = re.sub(r'//[^\n]*', '', data)
    b = bytes(int(x, 16) if x.startswith('0x') else ord(x[1]) if x.startswith("'") else consts[x]
              for x in re.findall(r"0x[0-9a-fA-F]+|'.'|gzipID[12]", data))
    fn = 'go-gunzip-%02d.gz' % i
    open(out + '/gzip/' + fn, 'wb').write(b)
    manifest.append((fn, desc, 'fail' if err.strip() != 'nil' else 'ok'))
print(len(tests), 'go gunzip', file=sys.stderr)
b = base64.b64decode(open(goroot + '/src/compress/gzip/testdata/issue6550.gz.base64').read())
open(out + '/gzip/go-issue6550.gz', 'wb').write(b)
manifest.append(('go-issue6550.gz', 'issue 6550: must fail, not hang', 'fail'))
c = open(infcover).read()
calls = re.findall(r'\b(inf|try)\(((?:"[^"]*"\s*)+),\s*"([^"]*)",\s*([^;]*)\);', c)
n = 0
for kind, hexs, what, rest in calls:
    h = ''.join(re.findall(r'"([^"]*)"', hexs)).split()
    if not h: continue
    b = bytes(int(x, 16) for x in h)
    args = [a.strip() for a in rest.split(',')]
    if kind == 'inf':
        win = int(args[1]); expect = args[3]
    else:
        win = -15 if args[0] != '-1' else 47; expect = {'0': 'ok', '1': 'fail', '-1': 'fail'}[args[0]]
    if win < 0:
        fn = 'zlib-infcover-%02d.deflate' % n; open(out + '/deflate/' + fn, 'wb').write(b)
    elif b[:2] == b'\x1f\x8b':
        fn = 'zlib-infcover-%02d.gz' % n; open(out + '/gzip/' + fn, 'wb').write(b)
    else:
        continue  # a zlib (RFC 1950) stream: not a format foreach reads
    n += 1
    manifest.append((fn, what + ' (window bits %d)' % win, expect))
print(n, 'infcover', file=sys.stderr)
with open(out + '/vectors.tsv', 'w') as f:
    for m in manifest: f.write('\t'.join(m) + '\n')
