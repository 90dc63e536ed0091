#!/usr/bin/env python3
"""LDC.U8 Rd, c[bank][Ra] (ld.const.b8 through a register with no offset) for sm_86/sm_89/sm_90: the learned
LDC.U8 c[bank][Ra+off] form with the offset [53:38] fixed at zero, as the plain LDC's register form is; checked
against nvdisasm 12.5 on random operand values. --write appends it to the three tables."""
import json, os, random, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from nvtext import texts
from tablefile import append_forms
ROOT = os.path.join(HERE, '..', '..')
TABLES = {'sm_86': 'backend-sm80/src/main/resources/org/jptxas/backend/sm80/sass/sm86.json',
          'sm_89': 'backend-sm89-90/src/main/resources/org/jptxas/backend/sm89_90/sass/sm89.json',
          'sm_90': 'backend-sm89-90/src/main/resources/org/jptxas/backend/sm89_90/sass/sm90.json'}
random.seed(5)
for sm, rel in TABLES.items():
    path = os.path.join(ROOT, rel)
    forms = json.load(open(path))['forms']
    src = [f for f in forms if f['mnemonic'] == 'LDC.U8' and f['slots'][-1] == 'SHEX_PLUS 53:38'][0]
    g = dict(src, pieces=['LDC.U8 ', ', c[', '][', ']'], slots=src['slots'][:3],
             mask='%032x' % (int(src['mask'], 16) | ((1 << 16) - 1) << 38))
    if any(f['pieces'] == g['pieces'] and f['slots'] == g['slots'] for f in forms):
        print(sm, 'has it'); continue
    words, exp = [], []
    for _ in range(4):
        d, bank, a = random.choice([2, 4, 9]), random.choice([0, 2, 3]), random.choice([6, 12, 20])
        words.append(int(g['bits'], 16) | 0x000fe200 << 96 | d << 16 | bank << 54 | a << 24)
        exp.append('LDC.U8 R%d, c[0x%x][R%d]' % (d, bank, a))
    got = texts(words, sm)
    bad = [(e, x) for e, x in zip(exp, got) if e != x]
    print(sm, 'misprinted', bad)
    if not bad and '--write' in sys.argv:
        append_forms(path, [g])
