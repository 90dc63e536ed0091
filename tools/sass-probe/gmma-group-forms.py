#!/usr/bin/env python3
"""sm_90 warpgroup multiplies (HGMMA/IGMMA/QGMMA/BGMMA) in all four group/accumulate variants: for every learned
form, the twins with and without the group marker and with a true or false scale-d. nvdisasm 12.5 raw-mode flips on
ptxas 13's HGMMA.64x128x16.F32 R24, gdesc[UR4], R24, gsb0 (000fe2000800081801e00000041879f0, SM90): [86:84] = 0
prints `, gsb0`, 7 prints nothing (1, 2, 4 print INVALID1/2/4); bit 90 prints the scale-d predicate negated (`!UPT`,
the field [89:87] holding UPT, 7 - n for UPn). ptxas writes a multiply that closes its group with gsb0 and the others
without, and !UPT for a constant false scale-d; a kernel with one multiply per group only shows gsb0, so the learned
forms of most shapes lack the other variants that chained multiplies (Triton's k-loops) need.
Each twin is spelled as nvdisasm prints its word and checked on three random operand variants; run with --write to
append the new forms to the sm_90 table (then tools/sass-probe/table-rules --check)."""
import json, os, sys, random
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nvtext import texts, fill
from tablefile import append_forms
T = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..',
                 'backend-sm89-90/src/main/resources/org/jptxas/backend/sm89_90/sass/sm90.json')
doc = json.load(open(T))
forms = doc['forms']
have = {(f['key'], ''.join(f['pieces']), tuple(f['slots'])) for f in forms}
GROUP = 0x7 << 84
NOT_SCALE = 1 << 90
SCALE = 0x7 << 87


def variants(f):
    """The form's four (group marker, scale-d) twins as (bits, pieces, slots); none for a scale-d register form."""
    w = int(f['bits'], 16)
    mask = int(f['mask'], 16)
    pieces, slots = list(f['pieces']), list(f['slots'])
    if (mask & GROUP) != GROUP or (mask & NOT_SCALE) == 0 or (mask & SCALE) != SCALE or w & SCALE:
        return []  # [89:87] holds UPT (0) in a constant-scale form; anything else names UPn
    if pieces[-1].endswith(', gsb0'):
        pieces[-1] = pieces[-1][:-len(', gsb0')]
    if slots and slots[-1] == '=UPT' and pieces[-2].endswith(', !'):
        pieces = pieces[:-2] + [pieces[-2][:-len(', !')] + pieces[-1]]
        slots = slots[:-1]
    out = []
    for group in (True, False):
        for false_scale in (False, True):
            p, s = list(pieces), list(slots)
            if false_scale:
                p = p[:-1] + [p[-1] + ', !', '']
                s = s + ['=UPT']
            if group:
                p[-1] = p[-1] + ', gsb0'
            bits = w & ~GROUP & ~NOT_SCALE | (0 if group else GROUP) | (NOT_SCALE if false_scale else 0)
            out.append((bits, p, s))
    return out


def render(pieces, slots, vals):
    out = pieces[0]
    for p, s, v in zip(pieces[1:], slots, vals):
        if s.startswith('='):
            t = s[1:]
        else:
            k = s.split(' ')[0]
            t = ('RZ' if v == 255 else 'R%d' % v) if k == 'GPR' else ('URZ' if v == 63 else 'UR%d' % v)
        out += t + p
    return out


bases = [f for f in forms if f['mnemonic'].split('.')[0] in ('HGMMA', 'IGMMA', 'QGMMA', 'BGMMA')]
new = []
for f in bases:
    for bits, p, s in variants(f):
        k = (f['key'], ''.join(p), tuple(s))
        if k in have or any((g['key'], ''.join(g['pieces']), tuple(g['slots'])) == k for g in new):
            continue
        g = dict(f)
        g['pieces'], g['slots'], g['bits'] = p, s, '%032x' % (bits & int(f['mask'], 16))
        new.append(g)
random.seed(11)
words, expected = [], []
for g in new:
    for rep in range(3):
        vals, w = [], int(g['bits'], 16) | 0x000fe200 << 96
        for s in g['slots']:
            if s.startswith('='):
                vals.append(None)
                continue
            k = s.split(' ')[0]
            v = random.choice([8, 24, 56, 120]) if k == 'GPR' else random.choice([4, 8, 12])
            vals.append(v)
            w = fill(w, s, v)
        # the accumulator is one register block: C = D
        gpr = [i for i, s in enumerate(g['slots']) if s.startswith('GPR 71:64')]
        d = [i for i, s in enumerate(g['slots']) if s.startswith('GPR 23:16')]
        if gpr and d:
            vals[gpr[0]] = vals[d[0]]
            w = fill(w, g['slots'][gpr[0]], vals[d[0]])
        words.append(w)
        expected.append(render(g['pieces'], g['slots'], vals))
got = texts(words, 'sm_90')
bad = [(e, x) for e, x in zip(expected, got) if e != x]
print(len(new), 'forms', len(words), 'checks', len(bad), 'bad', bad[:5], file=sys.stderr)
if not bad and '--write' in sys.argv and new:
    append_forms(T, new)
    print('added', len(new), file=sys.stderr)
