#!/usr/bin/env python3
"""Which forms' constant-bank offsets nvdisasm reads in 4-byte units (raw-mode bit flips).

For every table form whose offset slot is HEX/SHEX 53:38 (bytes) or SHEX 53:40 >>2 (words), an example word (registers
R2, R4, ..., bank 0x3, offset 0x40) is read by nvdisasm 12.5 as is, with bit 38 or 39 flipped, and with bit 53 or 52
set. A form whose text does not change with [39:38], and prints -0x7fc0 / 0x4040 for the high bits, reads SHEX 53:40
>>2; one whose text changes (LDC/ULDC: byte offsets) keeps its byte field. Prints one line per form and SM.
"""
import json, os, re, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nvtext import texts

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
BASE = os.path.join(ROOT, 'tables/src/main/resources/org/jptxas/tables/sass/volta-base.json')
SMS = {'sm_75': 'backend-sm75/src/main/resources/org/jptxas/backend/sm75/sass/sm75.json',
       'sm_80': 'backend-sm80/src/main/resources/org/jptxas/backend/sm80/sass/sm80.json',
       'sm_86': 'backend-sm80/src/main/resources/org/jptxas/backend/sm80/sass/sm86.json',
       'sm_89': 'backend-sm89-90/src/main/resources/org/jptxas/backend/sm89_90/sass/sm89.json',
       'sm_90': 'backend-sm89-90/src/main/resources/org/jptxas/backend/sm89_90/sass/sm90.json'}
OFFSETS = {'HEX 53:38': 0x40, 'SHEX 53:38': 0x40, 'SHEX 53:40 >>2': 0x10}  # both print c[0x3][0x40]
CTRL = 0x000fe2 << 104


def example(form):
    w, reg = int(form['bits'], 16), 2
    for s in form['slots']:
        if s in OFFSETS:
            w |= OFFSETS[s] << int(s.split(' ')[1].split(':')[1])
            continue
        if s.startswith('=') or ',' in s:
            continue
        kind, (hi, lo) = s.split(' ')[0], map(int, s.split(' ')[1].split(':'))
        if kind in ('GPR', 'UGPR'):
            w |= reg << lo
            reg += 2
        elif kind in ('PRED', 'UPRED'):
            w |= 1 << lo
        elif (kind, hi, lo) == ('HEX', 58, 54):
            w |= 3 << 54
    return w | CTRL


def main():
    for sm, path in SMS.items():
        forms = [(os.path.basename(p), f) for p in (BASE, os.path.join(ROOT, path))
                 for f in json.load(open(p))['forms'] if any(s in OFFSETS for s in f['slots'])]
        words = []
        for _, f in forms:
            w = example(f)
            words += [w, w ^ 1 << 38, w ^ 1 << 39, w | 1 << 53, w | 1 << 52]
        t = texts(words, sm)
        for k, (name, f) in enumerate(forms):
            base, b38, b39, b53, b52 = t[5 * k:5 * k + 5]
            offs = [re.findall(r'c\[0x[0-9a-f]+\]\[(-?0x[0-9a-f]+)\]', x or '') for x in (base, b53, b52)]
            words_unit = b38 == base and b39 == base and offs == [['0x40'], ['-0x7fc0'], ['0x4040']]
            slot = next(s for s in f['slots'] if s in OFFSETS)
            verdict = 'SHEX 53:40 >>2' if words_unit else 'bytes' if b38 != base else 'unclear'
            print('%s\t%s\t%s\t%s\t%s\t%s' % (sm, name, f['mnemonic'], slot, verdict, base))


if __name__ == '__main__':
    main()
