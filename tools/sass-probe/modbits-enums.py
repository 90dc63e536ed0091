#!/usr/bin/env python3
"""Modifier values ptxas's learned words never showed, found by isel-common's SassModifierBitsCensusTest (one bit of a
key's fixed modifier region flipped: nvdisasm names a modifier the decoder does not know), each confirmed in raw mode.

ENUMS: a class's mnemonic groups replaced by wider ones. Every combination of the new groups' values is written into
a plain learned form's word of each key; the class is written to the SM's modifier overlay only if nvdisasm prints
every combination exactly as the composer spells it (else the key is reported and left alone).
Evidence (nvdisasm 12.5, sm_75..sm_90, ptxas 13's `FFMA.SAT R3, R9, R6, 0.5` = 0x000fe400000020063f00000009037423):
FFMA's [77] is .SAT on every key (ptxas writes it for saturating float math), [80] .FTZ and [76] .FMZ (both: INVALID3),
[79:78] the rounding; the learned classes had no .SAT and no .FMZ.

FORMS: forms whose operand decoration the learner never saw. ATOMS.POPC.INC.32's address scale [79:78] (.X4 = 1,
.X8 = 2, .X16 = 3; ptxas 13 writes `ATOMS.POPC.INC.32 RZ, [R2.X4+URZ]` = 0x0041d8000d00403f0000000002ff7f8c for a
shared-memory histogram's atomicAdd(&h[i], 1)) on sm_80/86/89 (sm_75 refuses that word, sm_90 reads the key as
ATOMS.ARRIVE). Each form is checked on 16 random operand words before it is appended.

Run it, then `table-rules` and `table-rules --check`.
"""
import importlib.util, itertools, os, random, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from nvtext import texts, insert, fill  # noqa: E402
from tablefile import load, save, append_forms  # noqa: E402

_spec = importlib.util.spec_from_file_location('field_enums', os.path.join(HERE, 'field-enums.py'))
fe = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fe)

FTZ_FMZ = fe.enum('80:80,76:76', ['', 'FTZ', 'FMZ'])
ENUMS = [('FFMA', [547, 1059, 1571, 2083, 2595, 7203], [FTZ_FMZ, fe.RND, fe.SAT])]
SCALES = ['.X4', '.X8', '.X16']
POPC_SMS = ['sm_80', 'sm_86', 'sm_89']


def example(f):
    """A plain word of form f: registers R2, R4, ..., predicates P0 (PT for the trailing sources)."""
    word = int(f['bits'], 16) | 0x000fe200 << 96 | 7 << 12
    regs = iter(range(2, 40, 2))
    for sl in f['slots']:
        if sl.startswith('='):
            continue
        kind, rng = sl.split(' ')[:2]
        if kind in ('GPR', 'UGPR'):
            word = insert(word, rng, next(regs))
        elif kind == 'PRED':
            word = insert(word, rng, 7 if rng.startswith(('86', '89')) else 0)
    return word


def widen_classes(sm, forms, mods, base_mods):
    changed = set()
    for mnemonic, keys, new in ENUMS:
        for key in keys:
            old = mods.get((mnemonic, key)) or base_mods.get((mnemonic, key))
            if old is None:
                continue
            positions = {p for g in new for p in fe.positions(g['bits'])}
            kept = [g for g in old['groups'] if g['operand'] >= 0 or not set(fe.positions(g['bits'])) & positions]
            groups = new + kept
            mnem = [g for g in groups if g['operand'] < 0]
            combos = list(itertools.product(*[list(g['values'].items()) for g in mnem]))
            plain = [f for f in forms if f['key'] == key and f['mnemonic'].split('.')[0] == mnemonic
                     and not f['pieces'][0].startswith('@') and '.reuse' not in ''.join(f['pieces'])
                     and all(fe.spell(f['mnemonic'], mnem, int(f['bits'], 16), c) is not None for c in combos)]
            if not plain:
                print('%s %s/%d: no plain form' % (sm, mnemonic, key))
                continue
            f = plain[0]
            word = example(f)
            base_text, = texts([word], sm)
            operands = base_text.split(' ', 1)[1]
            words = []
            for c in combos:
                w = word
                for g, (_, v) in zip(mnem, c):
                    w = insert(w, g['bits'], int(v, 16))
                words.append(w)
            bad = [(c, t) for c, t in zip(combos, texts(words, sm))
                   if t != fe.spell(f['mnemonic'], mnem, int(f['bits'], 16), c) + ' ' + operands]
            if bad:
                print('%s %s/%d: %d of %d combinations print otherwise (%s), left alone'
                      % (sm, mnemonic, key, len(bad), len(combos), bad[0][1]))
                continue
            cls = dict(old, groups=groups)
            mods[(mnemonic, key)] = cls
            changed.add((mnemonic, key))
            print('%s %s/%d: %d combinations as nvdisasm prints them' % (sm, mnemonic, key, len(combos)))
    return changed


def popc_forms(sm, forms):
    out = []
    have = {''.join(f['pieces']) for f in forms if f['key'] == 8076}
    learned = [f for f in forms if f['key'] == 8076 and f['pieces'] == ['ATOMS.POPC.INC.32 ', ', [', '+', ']']]
    if not learned:
        return out
    f0 = learned[0]
    for v, scale in enumerate(SCALES, 1):
        pieces = ['ATOMS.POPC.INC.32 ', ', [', scale + '+', ']']
        if ''.join(pieces) in have:
            continue
        bits = int(f0['bits'], 16) & ~(3 << 78) | v << 78
        f = fe.form(f0['mnemonic'], 8076, pieces, bits, f0['slots'])
        rnd = random.Random(8076 + v)
        words = []
        for _ in range(16):
            w = example(f)
            for sl in f['slots']:
                kind, rng = sl.split(' ')[:2]
                hi, lo = map(int, rng.split(':'))
                w = insert(w, rng, rnd.randrange(1 << (hi - lo + 1)))
            words.append(w)
        for w, t in zip(words, texts(words, sm)):
            r = lambda k, rng: ('URZ' if k == 'UGPR' else 'RZ') if fe.extract(w, rng) == (63 if k == 'UGPR' else 255) \
                else ('UR' if k == 'UGPR' else 'R') + str(fe.extract(w, rng))
            d, a, u = [r(*sl.split(' ')[:2]) for sl in f['slots']]
            want = 'ATOMS.POPC.INC.32 %s, [%s%s+%s]' % (d, a, scale, u)
            if t != want:
                sys.exit('%s: %s reads %s, not %s' % (sm, hex(w), t, want))
        out.append(f)
        print('%s ATOMS.POPC.INC.32 [R%s+UR]: 16 random words as nvdisasm prints them' % (sm, scale))
    return out


def main():
    base = load(fe.BASE)['forms']
    base_mods = {(c['mnemonic'], c['key']): c for c in load(fe.BASE_MODS)['classes']}
    for sm, (module, pkg) in fe.SMS.items():
        if len(sys.argv) > 1 and sm not in sys.argv[1:]:
            continue
        n = sm[3:]
        sass = os.path.join(fe.ROOT, module, 'src/main/resources/org/jptxas/backend', pkg, 'sass')
        forms_path, mods_path = os.path.join(sass, 'sm%s.json' % n), os.path.join(sass, 'modifiers-sm%s.json' % n)
        overlay, mods_file = load(forms_path), load(mods_path)
        forms = base + overlay['forms']
        mods = {(c['mnemonic'], c['key']): c for c in mods_file['classes'] if 'groups' in c}
        changed = widen_classes(sm, forms, mods, base_mods)
        if changed:
            out, seen = [], set()
            for c in mods_file['classes']:
                k = (c['mnemonic'], c['key'])
                if 'groups' in c and k in changed and k not in seen:
                    out.append(mods[k])
                    seen.add(k)
                else:
                    out.append(c)
            out += [mods[k] for k in sorted(changed - seen)]
            mods_file['classes'] = out
            save(mods_path, mods_file)
        if sm in POPC_SMS:
            new = popc_forms(sm, forms)
            if new:
                append_forms(forms_path, new)


if __name__ == '__main__':
    main()
