# Writes xz-filters/: an 8 KiB input dense in the instructions each BCJ filter
# converts (made here, seeded), compressed by xz with every filter of the format,
# with and without a start offset, and in chains. XZ names an xz of 5.6 or later
# (for --riscv); it was xz 5.8.1.
import os, random, subprocess, sys
XZ = os.environ.get('XZ', 'xz')
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = random.Random(43)
def r(n): return bytes(rng.randrange(256) for _ in range(n))
b = bytearray()
while len(b) < 8 << 10:
    k = rng.randrange(10)
    if k == 0: b += r(16)
    elif k == 1: b += bytes([0xe8]) + r(3) + bytes([rng.choice([0, 0xff])]) + bytes([0xe9]) + r(3) + bytes([rng.choice([0, 0xff])]) + r(6)
    elif k == 2: b += b''.join(r(3) + b'\xeb' for _ in range(4))
    elif k == 3: b += b''.join(bytes([r(1)[0], 0xf0 | rng.randrange(8), r(1)[0], 0xf8 | rng.randrange(8)]) for _ in range(4))
    elif k == 4: b += b''.join(r(3) + bytes([rng.choice([0x94, 0x97, 0x90, 0xb0, 0xd0, 0xf0])]) for _ in range(4))
    elif k == 5: b += b''.join(bytes([0x48 | rng.randrange(4)]) + r(2) + bytes([r(1)[0] & 0xfc | 1]) for _ in range(4))
    elif k == 6: b += b''.join(rng.choice([bytes([0x40, rng.randrange(64)]), bytes([0x7f, 0xc0 | rng.randrange(64)])]) + r(2) for _ in range(4))
    elif k == 7: b += bytes([16 + rng.randrange(14)]) + r(15)
    elif k == 8: b += b''.join(bytes([0xef, rng.choice([0x00, 0x02, 0x10, 0xf2, 0x80])]) + r(2) for _ in range(4))
    else:
        w = rng.choice([0x17 | (1 << 7), 0x17 | (2 << 7), 0x17, 0x17 | (5 << 7), 0x3117]) | rng.randrange(1 << 20) << 12
        b += (w & 0xffffffff).to_bytes(4, 'little') + r(4) + bytes([0x17, 0x01]) + r(6)
# (the input itself is not kept: EXPECTED.tsv has its SHA-256)
runs = {
    'x86': ['--x86'], 'x86-start': ['--x86=start=1234567'], 'powerpc': ['--powerpc'],
    'powerpc-start': ['--powerpc=start=4100'], 'ia64': ['--ia64'], 'ia64-start': ['--ia64=start=65536'],
    'arm': ['--arm'], 'arm-start': ['--arm=start=4100'], 'armthumb': ['--armthumb'],
    'armthumb-start': ['--armthumb=start=4098'], 'arm64': ['--arm64'], 'arm64-start': ['--arm64=start=4294963200'],
    'sparc': ['--sparc'], 'sparc-start': ['--sparc=start=4100'], 'riscv': ['--riscv'],
    'riscv-start': ['--riscv=start=4294963202'], 'delta-1': ['--delta=dist=1'], 'delta-7': ['--delta=dist=7'],
    'delta-256': ['--delta=dist=256'], 'chain-delta-x86': ['--delta=dist=2', '--x86'],
    'chain-arm-thumb-riscv': ['--arm', '--armthumb', '--riscv'],
}
for name, opts in runs.items():
    c = subprocess.run([XZ, '-c', '-T1'] + opts + ['--lzma2=preset=1'], input=bytes(b), capture_output=True, check=True).stdout
    open(os.path.join(out, name + '.xz'), 'wb').write(c)
