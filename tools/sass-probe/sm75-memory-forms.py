#!/usr/bin/env python3
"""sm_75 memory forms the instruction-form suite's code needs and the learned table lacks: RED.E.{AND,OR,XOR,MIN,MAX}
.64.STRONG.GPU (the 32-bit forms with the size [75:73] = 2, as RED.E.ADD.64 holds it), and the offset-less layouts
of RED.E.ADD.F16x2.RN.STRONG.GPU and STG.E.STRONG.SYS (the offset forms with [63:40] fixed at zero). Each is spelled
as nvdisasm 12.5 prints the word and checked on random operand values; --write appends them to the sm_75 table."""
import json, os, random, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from nvtext import texts
from tablefile import append_forms
T = os.path.join(HERE, '..', '..', 'backend-sm75/src/main/resources/org/jptxas/backend/sm75/sass/sm75.json')
B = os.path.join(HERE, '..', '..', 'tables/src/main/resources/org/jptxas/tables/sass/volta-base.json')
every = json.load(open(T))['forms'] + json.load(open(B))['forms']
have = {(f['key'], ''.join(f['pieces']), tuple(f['slots'])) for f in every}
new = []
def drop_offset(f):
    at = f['slots'].index('SHEX_PLUS 63:40')
    return dict(f, pieces=f['pieces'][:at] + [f['pieces'][at] + f['pieces'][at + 1]] + f['pieces'][at + 2:],
                slots=f['slots'][:at] + f['slots'][at + 1:], mask='%032x' % (int(f['mask'], 16) | ((1 << 24) - 1) << 40))
for f in every:
    if f['key'] != 2446 and f['key'] != 902 or f['pieces'][0].startswith('@'):
        continue
    m = f['mnemonic']
    if m in ('RED.E.AND.STRONG.GPU', 'RED.E.OR.STRONG.GPU', 'RED.E.XOR.STRONG.GPU', 'RED.E.MIN.STRONG.GPU',
             'RED.E.MAX.STRONG.GPU'):
        mn = m.replace('.STRONG', '.64.STRONG')
        g = dict(f, mnemonic=mn, pieces=[f['pieces'][0].replace(m, mn, 1)] + f['pieces'][1:],
                 bits='%032x' % (int(f['bits'], 16) & ~(7 << 73) | 2 << 73))
        new.append(g)
    if m in ('RED.E.ADD.F16x2.RN.STRONG.GPU', 'STG.E.STRONG.SYS') and 'SHEX_PLUS 63:40' in f['slots']:
        new.append(drop_offset(f))
unique = []
for g in new:
    k = (g['key'], ''.join(g['pieces']), tuple(g['slots']))
    if k not in have:
        have.add(k)
        unique.append(g)
new = unique
random.seed(3)
words, exp = [], []
for g in new:
    for _ in range(3):
        w, vals = int(g['bits'], 16) | 0x000fe200 << 96, []
        for s in g['slots']:
            hi, lo = map(int, s.split(' ')[1].split(':'))
            v = random.choice([4, 8, 12]) if s.startswith('GPR') else random.choice([0x10, 0x40])
            w = w & ~(((1 << (hi - lo + 1)) - 1) << lo) | v << lo
            vals.append(('R%d' % v) if s.startswith('GPR') else '+0x%x' % v)
        words.append(w)
        exp.append(g['pieces'][0] + ''.join(v + p for v, p in zip(vals, g['pieces'][1:])))
bad = [(e, x) for e, x in zip(exp, texts(words, 'sm_75')) if e != x]
print(len(new), 'forms', len(words), 'checks', len(bad), 'misprinted', bad[:4])
for g in new:
    print(' ', g['mnemonic'], g['pieces'], g['slots'])
if new and not bad and '--write' in sys.argv:
    append_forms(T, new)
