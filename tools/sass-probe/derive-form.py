"""Derive a SASS table form from one ptxas word and nvdisasm's text by single-bit flips (raw mode)."""
import os, re, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from flipfields import BITS, KINDS, flips, operand, split


def derive(sm, word, text, dbl):
    """(mnemonic, pieces, slots, guard) of the form nvdisasm's flips (flipfields.flips) show, or (None, why)."""
    guard, mn, ops = split(text)
    found, signs, flipped = flips(sm, word, text)
    # a field's bits: those changing its value by 2^k, and the one making it negative
    fields = {}
    for k, got in found.items():
        fields[(k[0], 'imm') if k[1] == 'text' else k] = list(got)
    for k, b in signs.items():
        fields.setdefault(k, []).append(b)
    slots, pieces = [], []
    cur = ''
    if guard:
        pieces.append('@!' if guard.startswith('@!') else '@')
        slots.append('PRED 14:12')
        cur = ' '
    cur += mn + (' ' if ops else '')
    for i, op in enumerate(ops):
        if i:
            cur += ', '
        v = operand(op)
        if v[0] == 'reg':
            bs = fields.get((i, 'reg'))
            if v[2] == KINDS[v[1]][2] and not bs:  # RZ, URZ, PT, UPT
                return None, 'literal %s' % op
            if not bs:
                return None, 'no field for %s' % op
            kind, width, _ = KINDS[v[1]]
            lo = min(bs)
            hi = lo + width - 1  # the field's whole width, also where flips reached only its low bits
            pre, post = v[3], v[4]
            pieces.append(cur + pre)
            slots.append('%s %d:%d' % (kind, hi, lo))
            cur = post
        elif v[0] == 'cb':
            bb, ob = fields.get((i, 'bank')), fields.get((i, 'off'))
            if not bb or not ob:
                return None, 'cbank fields %s' % op
            pre = op[:op.index('c[')]
            post = op[op.rindex(']') + 1:]
            pieces.append(cur + pre + 'c[')
            slots.append('HEX %d:%d' % (max(bb), min(bb)))
            pieces.append('][')
            shift = ' >>2' if min(ob) == 40 else ''
            slots.append('SHEX %d:%d%s' % (max(ob), min(ob), shift))
            cur = ']' + post
        else:
            bs = fields.get((i, 'imm'))
            if not bs:
                return None, 'no imm field %s' % op
            lo, hi = min(bs), max(bs)
            pre = op[:len(op) - len(op.lstrip('|'))]
            post = op[len(op.rstrip('|')):]
            s = op.strip('|')
            if dbl:
                kind = 'F64HI'; lo, hi = 32, 63
            elif re.match(r'^-?(\d+\.\d*|\d+e|INF|QNAN|\d+$)', s) and not s.startswith('0x') and not s.startswith('-0x') and mn.startswith(('F', 'FSETP', 'FMNMX')):
                kind = 'F32'; lo, hi = 32, 63
            else:
                # signed if flipping the top bit printed a negative value
                tb = flipped[BITS.index(hi)] if hi in BITS else None
                kind = 'SHEX' if s.startswith('-') or (tb is not None and '-0x' in tb) else 'HEX'
            pieces.append(cur + pre)
            slots.append('%s %d:%d' % (kind, hi, lo))
            cur = post
    pieces.append(cur)
    return (mn, pieces, slots, guard), None

if __name__ == '__main__':
    print(derive(sys.argv[1], int(sys.argv[2], 16), sys.argv[3], sys.argv[4] == '1'))
