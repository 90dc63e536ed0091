#!/usr/bin/env python3
"""Writes backend-sm100's sm100.json, the Blackwell (sm_100 ... sm_121) encoding forms, in the 'volta-128-ur8' format:
one self-contained table (the Volta base is not read for it).

Blackwell keeps the Volta-128 word. Its uniform-register fields are 8 bits wide (URZ = 255) where sm_75 ... sm_90's
are 6 (URZ = 63); the table is the Volta base plus sm_90's forms with those fields widened, the forms of the older
family tables (sm_89, sm_86, sm_80, sm_75) that no sm_90 form can read a word of (the constant-bank ALU forms, which
ptxas 13 writes for sm_100 and not for sm_90), and the Blackwell forms below, read from ptxas 13.0 sm_100 output and
the records of ../shared/oracle-data/sass-records (cuobjdump 12.8+ text). A 6-bit field widens only where no form of
its key fixes either of the two bits above it to one (LDGSTS keeps its descriptor pair in [69:64] with its L2 hint in
[72:70]; BRA.DIV's ~ is bit 30). Forms that name a uniform register by a literal (=URZ, =UR4) are left out: the
general form of the instruction reads those words. Run from anywhere; --check prints what would change."""
import collections, json, os, re, sys
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
BASE = 'tables/src/main/resources/org/jptxas/tables/sass/volta-base.json'
SM90 = 'backend-sm89-90/src/main/resources/org/jptxas/backend/sm89_90/sass/sm90.json'
OLDER = ['backend-sm89-90/src/main/resources/org/jptxas/backend/sm89_90/sass/sm89.json',
         'backend-sm80/src/main/resources/org/jptxas/backend/sm80/sass/sm86.json',
         'backend-sm80/src/main/resources/org/jptxas/backend/sm80/sass/sm80.json',
         'backend-sm75/src/main/resources/org/jptxas/backend/sm75/sass/sm75.json']
OUT = 'backend-sm100/src/main/resources/org/jptxas/backend/sm100/sass/sm100.json'
MODIFIERS = ('backend-sm89-90/src/main/resources/org/jptxas/backend/sm89_90/sass/modifiers-sm90.json',
             'backend-sm100/src/main/resources/org/jptxas/backend/sm100/sass/modifiers-sm100.json')
# instructions whose older-table forms print otherwise than Blackwell's disassembler (memory order: sm_75's .SYS
# where Blackwell prints .STRONG.GPU, [RZ.64+UR] for [UR]; sm_89's QMMA .ROW/.COL; sm_75's BRA.DIV offset)
OLDER_PRINT_DIFFERENTLY = {'LDG', 'STG', 'LD', 'ST', 'ATOM', 'ATOMG', 'RED', 'REDG', 'QMMA', 'BRA'}
CONTROL = ((1 << 122) - 1) ^ ((1 << 105) - 1)          # [121:105]: stall, yield, scoreboards, wait mask
UR_LITERAL = re.compile(r'=[~!-]?UR(Z|\d+)')


def load(rel):
    return json.load(open(os.path.join(ROOT, rel)))['forms']


def uniform_low(slot):
    """The low bit of a 6-bit uniform field, or None."""
    p = slot.split()
    if p[0] != 'UGPR' or ',' in p[1]:
        return None
    hi, lo = map(int, p[1].split(':'))
    return lo if hi - lo + 1 == 6 else None


def vetoes(forms):
    """(key, bit) pairs some form fixes to one: a uniform field just below such a bit does not widen."""
    out = set()
    for f in forms:
        ones = int(f['mask'], 16) & int(f['bits'], 16)
        for s in f['slots']:
            lo = uniform_low(s)
            if lo is not None:
                for b in (lo + 6, lo + 7):
                    if ones >> b & 1:
                        out.add((f['key'], b))
        # a literal ~URZ / -UR4 sits in a field the form does not name: veto any ones above the usual positions
        if any(UR_LITERAL.match(s) for s in f['slots']):
            for lo in (16, 24, 32, 40, 64):
                for b in (lo + 6, lo + 7):
                    if ones >> b & 1:
                        out.add((f['key'], b))
    return out


def widen(f, veto):
    if any(UR_LITERAL.match(s) for s in f['slots']):
        return None
    mask, bits = int(f['mask'], 16), int(f['bits'], 16)

    def widens(s):
        lo = uniform_low(s)
        return lo is not None and all(mask >> b & 1 and not bits >> b & 1 and (f['key'], b) not in veto
                                      for b in (lo + 6, lo + 7))
    if not any(widens(s) for s in f['slots']):
        return f
    m, v, slots = mask, bits, []
    for s in f['slots']:
        if not widens(s):
            slots.append(s)
            continue
        p = s.split()
        lo = uniform_low(s)
        m &= ~(3 << (lo + 6))
        v &= ~(3 << (lo + 6))
        slots.append(' '.join([p[0], '%d:%d' % (lo + 7, lo)] + p[2:]))
    exclude = []
    for e in f['exclude']:
        terms = []
        for t in e.split('&'):
            k, val = t.split('=')
            if widens(f['slots'][int(k)]) and int(val, 16) == 63:
                val = '0xff'
            terms.append(k + '=' + val)
        exclude.append('&'.join(terms))
    return dict(f, mask='%032x' % m, bits='%032x' % v, slots=slots, exclude=exclude)


def field_mask(slot):
    p = slot.split()
    m = 0
    if p[0].startswith('='):
        return 0
    for part in [p[1]] + [q[3:] for q in p[2:] if q.startswith('sx=')]:
        for r in part.split(','):
            hi, lo = map(int, r.split(':'))
            m |= ((1 << (hi - lo + 1)) - 1) << lo
    return m


def form(mn, key, pieces, word, slots, exclude=()):
    mask = ((1 << 128) - 1) & ~CONTROL
    for s in slots:
        mask &= ~field_mask(s)
    return {'mnemonic': mn, 'key': key, 'pieces': pieces, 'mask': '%032x' % mask, 'bits': '%032x' % (word & mask),
            'slots': slots, 'exclude': list(exclude)}


def guarded(mn, key, pieces, word, slots):
    """The unguarded form and its @P / @!P twins (guard [14:12], negation bit 15), as the learned tables hold them."""
    word &= ~0xf000
    return [form(mn, key, pieces, word | 0x7000, slots),
            form(mn, key, ['@', ' ' + pieces[0]] + pieces[1:], word, ['PRED 14:12'] + slots, ['0=0x7']),
            form(mn, key, ['@!', ' ' + pieces[0]] + pieces[1:], word | 0x8000, ['PRED 14:12'] + slots)]


def variant(f, old, new, setbits, slots=None):
    """f with setbits fixed to one (and nothing else changed), its mnemonic renamed."""
    return dict(f, mask='%032x' % (int(f['mask'], 16) | setbits), bits='%032x' % (int(f['bits'], 16) | setbits),
                pieces=[p.replace(old, new, 1) for p in f['pieces']], mnemonic=f['mnemonic'].replace(old, new, 1),
                slots=slots or f['slots'])


def blackwell_forms(learned):
    out = []
    # LDCU (0x7ac + bit 91): a constant into a uniform register (ptxas 13 writes no ULDC for sm_100), size at
    # [74:73] as LDC's, byte offset in [52:37] (one bit lower than ULDC's); only bank 0 has been seen: a literal
    for size, hi in (('', 0x08000800), ('.64', 0x08000a00), ('.128', 0x08000c00)):
        out += guarded('LDCU' + size, 0x17ac, ['LDCU' + size + ' ', ', c[0x0][', ']'], hi << 64 | 0xff0077ac,
                       ['UGPR 23:16', 'SHEX 52:37'])
    # HFMA2 0x431, ptxas 13's immediate move HFMA2 R, -RZ, RZ, h1, h0 (sm_75 ... sm_90: HFMA2.MMA on 0x435)
    out += guarded('HFMA2', 0x431, ['HFMA2 ', ', -RZ, RZ, ', ', ', ''], 0x1ff << 64 | 0xff007431,
                   ['GPR 23:16', 'F16 63:48', 'F16 47:32'])
    # IADD / IADD.64 on base 0x35 (sm_75 ... sm_90: HFMA2.MMA): .64 at bit 73, -a at bit 72, -b at bit 63
    fixed = 0x078e0000 << 64
    for size, b73 in (('', 0), ('.64', 1 << 73)):
        for nega in (0, 1):
            na = '-' if nega else ''
            for negb in (0, 1):
                nb = '-' if negb else ''
                w = fixed | b73 | nega << 72 | negb << 63
                out += guarded('IADD' + size, 0x235, ['IADD' + size + ' ', ', ' + na, ', ' + nb, ''], w | 0x7235,
                               ['GPR 23:16', 'GPR 31:24', 'GPR 39:32'])
                out += guarded('IADD' + size, 0x1c35, ['IADD' + size + ' ', ', ' + na, ', ' + nb, ''],
                               w | 1 << 91 | 0x7c35, ['GPR 23:16', 'GPR 31:24', 'UGPR 39:32'])
            out += guarded('IADD' + size, 0x835, ['IADD' + size + ' ', ', ' + na, ', ', ''],
                           fixed | b73 | nega << 72 | 0x7835, ['GPR 23:16', 'GPR 31:24', 'SHEX 63:32'])
    for f in learned:
        m = f['mnemonic'].split('.')[0]
        if m == 'BSSY' and f['key'] == 0x945:
            # .RECONVERGENT at bit 73, which sm_90's BSSY filled with its offset's sign
            slots = [s.replace('sx=86:64', 'sx=72:64,86:74') for s in f['slots']]
            out.append(variant(f, 'BSSY', 'BSSY.RECONVERGENT', 1 << 73, slots))
        elif m == 'BSYNC' and f['key'] == 0x941:
            out.append(variant(f, 'BSYNC', 'BSYNC.RECONVERGENT', 1 << 73))
        elif m == 'BREAK' and f['key'] == 0x942 and 'RELIABLE' not in f['mnemonic']:
            out.append(variant(f, 'BREAK', 'BREAK.RELIABLE', 1 << 72))
    return out


def main():
    base, sm90 = load(BASE), load(SM90)
    older = [f for rel in OLDER for f in load(rel)]
    veto = vetoes(base + sm90 + older)
    learned = [w for w in (widen(f, veto) for f in base + sm90) if w is not None]
    # bit 101 is set on every LDGSTS ptxas 13 writes for Blackwell; the text names nothing for it
    learned = [variant(f, 'LDGSTS', 'LDGSTS', 1 << 101) if f['mnemonic'].startswith('LDGSTS') else f
               for f in learned]
    forms = learned + blackwell_forms(learned)
    # the older tables' forms that no form above reads a word of
    bykey = collections.defaultdict(list)
    for f in forms:
        bykey[f['key']].append((int(f['mask'], 16), int(f['bits'], 16)))
    for f in older:
        g = widen(f, veto)
        if g is None or f['mnemonic'].split('.')[0] in OLDER_PRINT_DIFFERENTLY:
            continue
        m, b = int(g['mask'], 16), int(g['bits'], 16)
        if any((b ^ b2) & m & m2 == 0 for m2, b2 in bykey[g['key']]):
            continue
        bykey[g['key']].append((m, b))
        forms.append(g)
    head = {'format': 'volta-128-ur8', 'scope': 'sm_100',
            'derivedWith': 'tools/sass-probe/blackwell-forms.py: the Volta base and sm_90 forms (isel-common SassProbe '
                           'derive: ptxas 13.0 output, nvdisasm 12.5 text) with 8-bit uniform fields, forms of the '
                           'sm_89/86/80/75 tables, and Blackwell forms from ptxas 13.0 sm_100 output and cuobjdump '
                           '12.8+ text (oracle sass-records)',
            'descriptorFields': {}}
    text = '{' + ', '.join('"%s": %s' % (k, json.dumps(v)) for k, v in head.items()) + ',\n"forms": [\n' \
        + ',\n'.join(json.dumps(f, separators=(',', ':')) for f in forms) + '\n]}\n'
    path = os.path.join(ROOT, OUT)
    if '--check' in sys.argv:
        print('unchanged' if os.path.exists(path) and open(path).read() == text else 'would change', len(forms))
        return
    open(path, 'w').write(text)
    mods = open(os.path.join(ROOT, MODIFIERS[0])).read().replace('"scope": "sm_90"', '"scope": "sm_100"', 1)
    open(os.path.join(ROOT, MODIFIERS[1]), 'w').write(mods)
    print(len(forms), 'forms')


if __name__ == '__main__':
    main()
