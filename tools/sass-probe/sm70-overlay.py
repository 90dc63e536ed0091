#!/usr/bin/env python3
"""Volta's (sm_70, sm_72) SASS overlay and modifier table for backend-sm50, from sm_75's.

Volta and Turing share the 128-bit word and its control bits. Every instruction ptxas 12.5 writes for sm_70 on the
corpus (31,200 words of the 102 files whose .target allows sm_70 and that it accepts, checked 2026-12) decodes with sm_75's tables to the text
nvdisasm 12.5 -b SM70 prints, except 5 words of two forms ptxas 13 never wrote for sm_75. So the overlay is sm_75's,
plus those forms (EXTRA below, each with its ptxas 12.5 sm_70 word). Each extra form is checked here before writing:
nvdisasm -b SM70 must print the evidence word as given, and 16 random fillings of the form's operand fields as the
form's pieces spell them. The modifier enums are sm_75's, not re-confirmed on sm_70.

    tools/sass-probe/sm70-overlay.py           # check the extra forms and write both tables
    tools/sass-probe/sm70-overlay.py --check   # exit 1 if the committed tables differ from what would be written

Not done: the tables are not re-derived from sm_70 words by `probe derive` (the probe's SM list is sm_75 ... sm_90,
compiled by ptxas 13, which refuses sm_70); a form Turing has and Volta lacks (uniform datapath) stays in the
table, where code generation never selects it (the target has no UNIFORM_DATAPATH feature).
"""
import json, os, random, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import nvtext, tablefile

ROOT = os.path.normpath(os.path.join(HERE, '..', '..'))
SM75 = os.path.join(ROOT, 'backend-sm75/src/main/resources/org/jptxas/backend/sm75/sass')
SM70 = os.path.join(ROOT, 'backend-sm50/src/main/resources/org/jptxas/backend/sm50/sass')
nvtext.ARCH['sm_70'] = 'SM70'

# (form, ptxas 12.5 sm_70 word, nvdisasm 12.5's text of it)
EXTRA = [
    ({"mnemonic": "S2R", "key": 2329, "pieces": ["S2R ", ", SR_LMEMHIOFF"], "mask": "fc0001ffffffffffffffffffff00ffff",
      "bits": "00000000000037000000000000007919", "slots": ["GPR 23:16"], "exclude": []},
     0x00321e00000037000000000000007919, "S2R R0, SR_LMEMHIOFF"),
    # sm_75 has this layout only with the literal c[0x0][0x174]; the bank and offset fields are those of the
    # un-inverted c[] form of the same key (bit 63 is the inversion)
    ({"mnemonic": "IADD3.X", "key": 2576, "pieces": ["IADD3.X ", ", ", ", ~c[", "][", "], ", ", ", ", !", ""],
      "mask": "fc0001fffc7fff00f80000ff0000ffff", "bits": "00000000007fe4008000000000007a10",
      "slots": ["GPR 23:16", "GPR 31:24", "HEX 58:54", "SHEX 53:40 >>2", "GPR 71:64", "PRED 89:87", "=PT"],
      "exclude": []},
     0x000fd000007fe4ff8000590000057a10, "IADD3.X R5, R0, ~c[0x0][0x164], RZ, P0, !PT"),
]


def spell(slot, v):
    kind, bits = slot.split(' ')[0], slot.split(' ')[1]
    if slot.startswith('='):
        return slot[1:]
    if kind == 'GPR':
        return 'RZ' if v == 255 else 'R%d' % v
    if kind == 'PRED':
        return 'PT' if v == 7 else 'P%d' % v
    shift = int(slot.split('>>')[1]) if '>>' in slot else 0
    width = len(nvtext.positions(bits))
    if kind == 'SHEX' and v >> (width - 1):
        return '-0x%x' % (((1 << width) - v) << shift)
    return '0x%x' % (v << shift)


def check(form, word, text):
    base = int(form['bits'], 16)
    words, want = [word], [text]
    rnd = random.Random(70)
    for _ in range(16):
        w, parts = base, []
        for slot in form['slots']:
            if slot.startswith('='):
                parts.append(slot[1:])
                continue
            width = len(nvtext.positions(slot.split(' ')[1]))
            v = rnd.randrange(1 << width)
            if slot.startswith('GPR') and v == 255:
                v = 254
            w = nvtext.fill(w, slot, v)
            parts.append(spell(slot, v))
        control = ((1 << 23) - 1) << 105  # the evidence word's control bits: nvdisasm refuses some zero ones
        w = w & ~control | word & control
        pieces = form['pieces']
        words.append(w)
        want.append(''.join(p + (parts[i] if i < len(parts) else '') for i, p in enumerate(pieces)))
    got = nvtext.texts(words, 'sm_70')
    bad = [(hex(w), g, t) for w, g, t in zip(words, got, want) if g != t]
    for b in bad:
        print('  nvdisasm -b SM70 %s: %r, expected %r' % b)
    return not bad


def tables():
    sass = tablefile.load(os.path.join(SM75, 'sm75.json'))
    sass['scope'] = 'sm_70'
    sass['derivedWith'] = ('tools/sass-probe/sm70-overlay.py: sm_75\'s table (SassProbe derive: ptxas 13.0 output, '
                           'nvdisasm 12.5 text) plus the forms ptxas 12.5 writes for sm_70 that sm_75\'s lacks, '
                           'checked with nvdisasm 12.5 -b SM70')
    sass['forms'] = sass['forms'] + [f for f, _, _ in EXTRA]
    mods = tablefile.load(os.path.join(SM75, 'modifiers-sm75.json'))
    mods['scope'] = 'sm_70'
    mods['derivedWith'] = ('tools/sass-probe/sm70-overlay.py: sm_75\'s enums (SassProbe modifiers), '
                           'not re-confirmed on sm_70')
    return {'sm70.json': sass, 'modifiers-sm70.json': mods}


def main():
    out = tables()
    if '--check' in sys.argv:
        stale = [n for n, t in out.items() if tablefile.load(os.path.join(SM70, n)) != t]
        print('stale: ' + ', '.join(stale) if stale else 'sm_70 tables up to date')
        sys.exit(1 if stale else 0)
    ok = all(check(f, w, t) for f, w, t in EXTRA)
    if not ok:
        sys.exit('an extra form does not read back as nvdisasm prints it; nothing written')
    os.makedirs(SM70, exist_ok=True)
    for n, t in out.items():
        tablefile.save(os.path.join(SM70, n), t)
    print('wrote %s (%d forms, %d extra)' % (', '.join(out), len(out['sm70.json']['forms']), len(EXTRA)))


if __name__ == '__main__':
    main()
