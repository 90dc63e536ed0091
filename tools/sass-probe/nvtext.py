"""nvdisasm 12.5's text of raw instruction words, and table fields' bits set and read in a 128-bit word."""
import sys, struct, subprocess, re, os, tempfile
NV=os.environ.get('NVDISASM', os.path.expanduser('~/.cache/cuda-oracle/12.5/usr/bin/nvdisasm'))
ARCH={'sm_75':'SM75','sm_80':'SM80','sm_86':'SM86','sm_89':'SM89','sm_90':'SM90a'}
def ranges(slot):
    """The bit ranges (lo, hi) of table slot `slot` ('GPR 23:16', 'HEX 23:16,80:34 >>2', 'PRED 90'), the value's
    least significant bits first (as BitField.parse reads them)."""
    return bit_ranges(slot.split(' ')[1])


def bit_ranges(bits):
    """The ranges (lo, hi) of a field's bits ('23:16,80:34', '90'), the value's least significant bits first."""
    out = []
    for rng in bits.split(','):
        hl = rng.split(':')
        out.append((int(hl[-1]), int(hl[0])))
    return out


def positions(bits):
    """The field's bit positions, the value's least significant bit first."""
    return [p for lo, hi in bit_ranges(bits) for p in range(lo, hi + 1)]


def insert(word, bits, v):
    """The 128-bit word with the field of bits `bits` set to v: the value's low bits go to the first range, the next
    ones to the second, and so on."""
    for lo, hi in bit_ranges(bits):
        width = hi - lo + 1
        m = ((1 << width) - 1) << lo
        word = word & ~m | (v << lo) & m
        v >>= width
    return word


def extract(word, bits):
    """The value of the field of bits `bits` in word (insert's inverse)."""
    v = 0
    for i, p in enumerate(positions(bits)):
        v |= (word >> p & 1) << i
    return v


def fill(word, slot, v):
    """The 128-bit word with the field of table slot `slot` set to v (insert of the slot's bits)."""
    return insert(word, slot.split(' ')[1], v)


# nvdisasm's raw mode reads at most 4096 instructions of a file (it lists the first 4096 of 8292 and stops)
BATCH = 4096


def texts(words, sm, batch=BATCH):
    """nvdisasm's text per word, None where it refuses the word, in files of at most `batch` words (a smaller batch
    makes each refused word cost less: nvdisasm refuses a whole file for one illegal word, which is dropped and the
    rest read again)."""
    out = []
    for at in range(0, len(words), batch):
        out += file_texts(words[at:at + batch], sm)
    return out


def file_texts(words, sm):
    """texts of the words of one file."""
    out = [None] * len(words)
    todo = list(range(len(words)))
    while todo:
        with tempfile.NamedTemporaryFile(suffix='.bin', delete=False) as f:
            for i in todo:
                f.write(struct.pack('<QQ', words[i] & (2**64 - 1), words[i] >> 64))
        r = subprocess.run([NV, '-b', ARCH[sm], '-hex', f.name], capture_output=True, text=True)
        os.unlink(f.name)
        if r.returncode != 0:
            m = re.search(r'at address 0x([0-9a-fA-F]+)', r.stderr + r.stdout)
            if not m:
                sys.exit('nvdisasm: ' + r.stderr)
            del todo[int(m.group(1), 16) // 16]
            continue
        lines = [m.group(1) for m in re.finditer(r'/\*[0-9a-f]{4}\*/\s*(.*?)\s*;\s*/\*', r.stdout)]
        if len(lines) != len(todo):  # a word printed over several lines or none: each alone
            if len(todo) > 1:
                for i in todo:
                    out[i] = file_texts([words[i]], sm)[0]
            break
        for i, t in zip(todo, lines):
            out[i] = re.sub(r'\s+', ' ', t).strip()
        todo = []
    return out


if __name__=='__main__':
    # stdin: seed sm hex
    rows=[l.split() for l in sys.stdin if l.strip()]
    by={}
    for r in rows: by.setdefault(r[1],[]).append(r)
    for sm,rs in by.items():
        ts=texts([int(r[2],16) for r in rs], sm)
        for r,t in zip(rs,ts): print('\t'.join(r+[str(t)]))
