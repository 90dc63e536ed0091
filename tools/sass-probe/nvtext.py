import sys, struct, subprocess, re, os, tempfile
NV=os.path.expanduser('~/.cache/cuda-oracle/12.5/usr/bin/nvdisasm')
ARCH={'sm_75':'SM75','sm_80':'SM80','sm_86':'SM86','sm_89':'SM89','sm_90':'SM90a'}
def ranges(slot):
    """The bit ranges (lo, hi) of table slot `slot` ('GPR 23:16', 'HEX 23:16,80:34 >>2', 'PRED 90'), the value's
    least significant bits first (as BitField.parse reads them)."""
    out = []
    for rng in slot.split(' ')[1].split(','):
        hl = rng.split(':')
        out.append((int(hl[-1]), int(hl[0])))
    return out


def fill(word, slot, v):
    """The 128-bit word with the field of table slot `slot` set to v: the value's low bits go to the first range,
    the next ones to the second, and so on."""
    for lo, hi in ranges(slot):
        width = hi - lo + 1
        m = ((1 << width) - 1) << lo
        word = word & ~m | (v << lo) & m
        v >>= width
    return word


def texts(words, sm):
    out=[None]*len(words); todo=list(range(len(words)))
    while todo:
        with tempfile.NamedTemporaryFile(suffix='.bin', delete=False) as f:
            for i in todo:
                w=words[i]; f.write(struct.pack('<QQ', w & (2**64-1), w>>64))
        r=subprocess.run([NV,'-b',ARCH[sm],'-hex',f.name],capture_output=True,text=True); os.unlink(f.name)
        if r.returncode!=0:
            m=re.search(r'at address 0x([0-9a-fA-F]+)', r.stderr+r.stdout)
            if not m: sys.exit(r.stderr)
            del todo[int(m.group(1),16)//16]; continue
        lines=[m.group(1) for m in re.finditer(r'/\*[0-9a-f]{4}\*/\s*(.*?)\s*;\s*/\*', r.stdout)]
        for i,t in zip(todo,lines): out[i]=re.sub(r'\s+',' ',t).strip()
        todo=[]
    return out
if __name__=='__main__':
    # stdin: seed sm hex
    rows=[l.split() for l in sys.stdin if l.strip()]
    by={}
    for r in rows: by.setdefault(r[1],[]).append(r)
    for sm,rs in by.items():
        ts=texts([int(r[2],16) for r in rs], sm)
        for r,t in zip(rs,ts): print('\t'.join(r+[str(t)]))
