#!/usr/bin/env python3
"""sm_90 128-bit exchange and compare-and-swap forms (atom .exch.b128/.cas.b128: ATOMG/ATOM .E.EXCH.128 and
.E.CAS.128, ATOMS.EXCH.128 and ATOMS.CAS.128) from the learned .64 forms: the size [75:73] set to 4 (and the
scope [80:77] to SM 5, GPU 7, SYS 0xa for the global and generic ones) in raw mode, each spelled as nvdisasm 12.5
prints the word and checked on three random operand variants. --write appends the new forms to the sm_90 table."""
import json, os, sys, random
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from nvtext import texts, fill
from tablefile import append_forms
T = os.path.join(HERE, '..', '..', 'backend-sm89-90/src/main/resources/org/jptxas/backend/sm89_90/sass/sm90.json')
B = os.path.join(HERE, '..', '..', 'tables/src/main/resources/org/jptxas/tables/sass/volta-base.json')
forms = json.load(open(T))['forms']
every = forms + json.load(open(B))['forms']
have = {(f['key'], ''.join(f['pieces']), tuple(f['slots'])) for f in every}
def op_of(f):
    parts = f['mnemonic'].split('.')
    return parts[2] if parts[1] == 'E' else parts[1]
bases = [f for f in every if f['mnemonic'].split('.')[0] in ('ATOM', 'ATOMG', 'ATOMS') and op_of(f) in ('EXCH', 'CAS')
         and '.64' in f['mnemonic'] and 'SPIN' not in f['mnemonic'] and not f['pieces'][0].startswith('@')]
def render(pieces, slots, vals):
    out = pieces[0]
    for p, s, v in zip(pieces[1:], slots, vals):
        k = s.split(' ')[0]
        t = {'GPR': 'RZ' if v == 255 else 'R%d' % v, 'UGPR': 'URZ' if v == 63 else 'UR%d' % v,
             'PRED': 'PT' if v == 7 else 'P%d' % v, 'SHEX_PLUS': '+0x%x' % v}[k]
        out += t + p
    return out
cands = []
for f in bases:
    w = int(f['bits'], 16) & ~(7 << 73) | 4 << 73
    scopes = (None,) if f['mnemonic'].startswith('ATOMS') else (5, 7, 0xa)
    for sc in scopes:
        nw = w if sc is None else w & ~(0xf << 77) | sc << 77
        cands.append((f, nw | 0x000fe800 << 96))
new = []
for (f, nw), x in zip(cands, texts([c[1] for c in cands], 'sm_90')):
    if x is None or '.128' not in x.split(' ')[0] or 'INVALID' in x:
        continue
    mn = x.split(' ')[0]
    g = dict(f, mnemonic=mn, pieces=[f['pieces'][0].replace(f['mnemonic'], mn, 1)] + f['pieces'][1:],
             bits='%032x' % (nw & int(f['mask'], 16)))
    k = (g['key'], ''.join(g['pieces']), tuple(g['slots']))
    if k not in have:
        have.add(k)
        new.append(g)
# generic ATOM.E.EXCH.128 (no learned .64 generic exchange): the global forms at ATOM's opcode 0x98a; ATOMS without
# an offset: the offset forms with the offset slot dropped (ptxas writes ATOMS.CAS.128 R28, [R33], R8, R12)
variant = dict
more = []
for g in new:
    if g['mnemonic'].startswith('ATOMG.E.EXCH.128'):
        mn = g['mnemonic'].replace('ATOMG', 'ATOM', 1)
        more.append(variant(g, mnemonic=mn, key=6538, pieces=[g['pieces'][0].replace('ATOMG', 'ATOM', 1)] + g['pieces'][1:],
                            bits='%032x' % (int(g['bits'], 16) & ~0xfff | 0x98a)))
    if g['mnemonic'].startswith('ATOMS') and 'SHEX_PLUS 63:40' in g['slots']:
        at = g['slots'].index('SHEX_PLUS 63:40')
        merged = g['pieces'][:at] + [g['pieces'][at] + g['pieces'][at + 1]] + g['pieces'][at + 2:]
        # the dropped offset is fixed at zero (nvdisasm omits +0x0), so the offset form takes every other offset
        more.append(variant(g, pieces=merged, slots=g['slots'][:at] + g['slots'][at + 1:],
                            mask='%032x' % (int(g['mask'], 16) | 0xffffff << 40)))
for g in more:
    k = (g['key'], ''.join(g['pieces']), tuple(g['slots']))
    if k not in have:
        have.add(k)
        new.append(g)
random.seed(7)
words, exp = [], []
for g in new:
    for _ in range(3):
        vals, w = [], int(g['bits'], 16) | 0x000fe200 << 96
        for s in g['slots']:
            k = s.split(' ')[0]
            v = 7 if s.startswith('PRED 83') else {'GPR': random.choice([4, 8, 12, 16, 20]), 'UGPR': random.choice([4, 6, 8]),
                                                   'SHEX_PLUS': random.choice([0x10, 0x20, 0x400])}[k]
            vals.append(v)
            w = fill(w, s, v)
        words.append(w)
        exp.append(render(g['pieces'], g['slots'], vals))
bad = [(e, x) for e, x in zip(exp, texts(words, 'sm_90')) if e != x]
print(len(new), 'forms', len(words), 'checks', len(bad), 'misprinted', bad[:5])
for g in new:
    print(' ', g['mnemonic'], g['pieces'], g['slots'])
if not bad and new and '--write' in sys.argv:
    append_forms(T, new)
