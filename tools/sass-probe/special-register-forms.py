#!/usr/bin/env python3
"""Forms of the special-register reads S2R, S2UR, CS2R.32 and CS2R for every special register PTX can name.

The learner keeps one form per special register ptxas happened to read in the corpus (the register's number in
[79:72] is fixed text: `S2R R5, SR_TID.X`), so `%lanemask_eq`, `%warpid`, `%smid`, `%clock`, `%pm0`, ... had no form
and ordinary kernels reading them failed to encode. For each SM and each template form (a learned unguarded read of
one register: its mask and destination slot), this script sets [79:72] to every value 0..255, reads nvdisasm 12.5's
name of each, and writes an add-form rule per wanted register into table-rules.json: in the base when nvdisasm names
the value alike on sm_75 ... sm_90 and the base has the template, else in each SM that names it so. Each form is
confirmed on 8 random destination registers (nvdisasm must print the form's text with that register). Rules this
script wrote before (their `why` starts with its name) are replaced; run `table-rules` afterwards.

    tools/sass-probe/special-register-forms.py
"""
import json, os, random, re, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import nvtext, tablefile

ROOT = os.path.dirname(os.path.dirname(HERE))
SMS = ['sm_75', 'sm_80', 'sm_86', 'sm_89', 'sm_90']
RULES = os.path.join(HERE, 'table-rules.json')
ME = 'special-register-forms.py'
# what the front end reads: %tid/%ctaid, %laneid, %warpid (VIRTID), %nwarpid (VIRTCFG), %smid, %lanemask_*,
# %clock/%clock_hi/%clock64, %globaltimer*, %pm0..7 (and _64), %total_smem_size (SMEMSZ), shared windows,
# %cluster_ctarank (sm_90's CgaCtaId)
WANT32 = (['SR_LANEID', 'SR_VIRTCFG', 'SR_VIRTID', 'SR_TID.X', 'SR_TID.Y', 'SR_TID.Z', 'SR_CTAID.X', 'SR_CTAID.Y',
           'SR_CTAID.Z', 'SR_SMEMSZ', 'SR_EQMASK', 'SR_LTMASK', 'SR_LEMASK', 'SR_GTMASK', 'SR_GEMASK',
           'SR_VIRTUALSMID', 'SR_CLOCKLO', 'SR_CLOCKHI', 'SR_GLOBALTIMERLO', 'SR_GLOBALTIMERHI', 'SR_SWINLO',
           'SR_SWINHI', 'SR_CgaCtaId'] + ['SR_PM%d' % i for i in range(8)] + ['SR_PM_HI%d' % i for i in range(8)])
WANT64 = ['SR_CLOCKLO', 'SR_GLOBALTIMERLO'] + ['SR_PM%d' % i for i in range(8)]
SR_BITS = '79:72'


def files():
    with open(os.path.join(HERE, 'table-rules')) as f:
        text = f.read()
    return dict(re.findall(r"'(base|sm_\d+)': '([^']+\.json)'", text.split('MODIFIER_FILES')[0]))


def templates(forms, mnemonic):
    """The distinct (mask, slots) shapes of the unguarded single-register reads `mnemonic Rd, SR_...`."""
    out = {}
    for f in forms:
        p = f['pieces']
        if f['mnemonic'] == mnemonic and len(p) == 2 and p[0] == mnemonic + ' ' and p[1].startswith(', SR') \
                and len(f['slots']) == 1 and f['slots'][0].split(' ')[0] in ('GPR', 'UGPR'):
            out.setdefault((f['mask'], f['slots'][0]), f)
    return list(out.values())


def names(sm, word):
    """nvdisasm's text per value 0..255 of [79:72] in `word`."""
    return nvtext.texts([nvtext.insert(word, SR_BITS, v) for v in range(256)], sm)


def main():
    paths = files()
    tables = {scope: tablefile.load(os.path.join(ROOT, rel))['forms'] for scope, rel in paths.items()}
    rng = random.Random(72)
    rules = []
    for mnemonic, want, from_mnemonic, size in (('S2R', WANT32, 'S2R', None), ('S2UR', WANT32, 'S2UR', None),
                                                 ('CS2R.32', WANT32, 'CS2R', 0), ('CS2R', WANT64, 'CS2R', 1)):
        for scope in ['base'] + SMS:
            for t in templates(tables[scope], from_mnemonic):
                bits = int(t['bits'], 16)
                if size is not None:  # bit 80: the 64-bit read; clear it is .32
                    bits = bits & ~(1 << 80) | size << 80
                slot = t['slots'][0]
                sms = SMS if scope == 'base' else [scope]
                texts = {sm: names(sm, nvtext.fill(bits, slot, 5)) for sm in sms}
                reg = ('UR' if slot.startswith('UGPR') else 'R') + '5'
                for v in range(256):
                    seen = {sm: texts[sm][v] for sm in sms}
                    first = seen[sms[0]]
                    m = re.fullmatch(re.escape(mnemonic) + ' ' + reg + r', (SR\S+)', first or '')
                    if not m or m.group(1) not in want or any(seen[sm] != first for sm in sms):
                        continue
                    sr = m.group(1)
                    form_bits = nvtext.insert(bits, SR_BITS, v)
                    # confirmed on random destinations
                    width = len(nvtext.positions(slot.split(' ')[1]))
                    values = [rng.randrange((1 << width) - 1) for _ in range(8)]
                    for sm in sms:
                        got = nvtext.texts([nvtext.fill(form_bits, slot, x) for x in values], sm)
                        pre = 'UR' if slot.startswith('UGPR') else 'R'
                        if got != ['%s %s%d, %s' % (mnemonic, pre, x, sr) for x in values]:
                            sys.exit('%s %s %s: nvdisasm reads %s' % (sm, mnemonic, sr, got))
                    form = {'mnemonic': mnemonic, 'key': t['key'], 'pieces': [mnemonic + ' ', ', ' + sr],
                            'mask': t['mask'], 'bits': '%032x' % form_bits, 'slots': [slot], 'exclude': []}
                    word = nvtext.fill(form_bits, slot, 5)
                    rules.append({'kind': 'add-form', 'sms': [scope], 'form': form,
                                  'why': '%s: nvdisasm 12.5 reads %032x as %s R5-style on %s (value %d of [79:72]; '
                                         '8 random destinations read back)' % (ME, word, first, ', '.join(sms), v)})
    data = tablefile.load(RULES)
    kept = [r for r in data['rules'] if not r.get('why', '').startswith(ME)]
    data['rules'] = kept + rules
    with open(RULES, 'w') as f:
        f.write('{"rules": [\n' + ',\n'.join(json.dumps(r) for r in data['rules']) + '\n]}\n')
    print('%d add-form rules written' % len(rules))


if __name__ == '__main__':
    main()
