"""Derive a SASS table form from one ptxas word and nvdisasm's text by single-bit flips (raw mode)."""
import os, re, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nvtext import texts

CTRL = set(range(105, 122))
REG = re.compile(r'^(-|~|!)?(\|)?(U?R|U?P)(\d+|Z|T)(\|)?((?:\.reuse)?)((?:\.[A-Z0-9_]+)*)$')

def split_ops(t):
    guard = ''
    m = re.match(r'^(@!?U?P[T0-9]+) (.*)$', t)
    if m:
        guard, t = m.group(1), m.group(2)
    mn, _, rest = t.partition(' ')
    ops = [o.strip() for o in rest.split(',')] if rest else []
    # rejoin c[..][..] split on commas (none expected) 
    return guard, mn, ops

def value_of(op):
    """(kind-ish, value parts) of an operand with decorations stripped."""
    m = REG.match(op)
    if m:
        return ('reg', m.group(3), m.group(4))
    m = re.match(r'^(-|\|)*c\[(0x[0-9a-f]+)\]\[(-?0x[0-9a-f]+)\]\|?$', op)
    if m:
        return ('cb', m.group(2), m.group(3))
    s = op.strip('|')
    return ('imm', s)

def derive(sm, word, text, dbl):
    guard, mn, ops = split_ops(text)
    bits = [b for b in range(12, 122) if b not in CTRL and not (12 <= b <= 15)]
    flipped = texts([word ^ (1 << b) for b in bits], sm)
    owner = {}  # bit -> (operand index, part)
    for b, t in zip(bits, flipped):
        if t is None:
            continue
        g2, mn2, ops2 = split_ops(t)
        if mn2 != mn or g2 != guard or len(ops2) != len(ops):
            continue
        diff = [i for i in range(len(ops)) if ops[i] != ops2[i]]
        if len(diff) != 1:
            continue
        i = diff[0]
        v1, v2 = value_of(ops[i]), value_of(ops2[i])
        if v1[0] != v2[0]:
            continue
        if v1[0] == 'reg':
            if v1[1] == v2[1] and v1[2] != v2[2]:
                owner[b] = (i, 'reg')
        elif v1[0] == 'cb':
            if v1[1] != v2[1] and v1[2] == v2[2]:
                owner[b] = (i, 'bank')
            elif v1[1] == v2[1] and v1[2] != v2[2]:
                owner[b] = (i, 'off')
        else:
            if v1[1] != v2[1]:
                owner[b] = (i, 'imm')
    fields = {}
    for b, k in owner.items():
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
        v = value_of(op)
        if v[0] == 'reg':
            bs = fields.get((i, 'reg'))
            m = REG.match(op)
            if v[2] in ('Z', 'T') and not bs:
                return None, 'literal %s' % op
            if not bs:
                return None, 'no field for %s' % op
            lo, hi = min(bs), max(bs)
            if v[1] == 'R':
                lo, hi = lo, lo + 7
            elif v[1] == 'UR':
                lo, hi = lo, lo + 5
            else:
                lo, hi = lo, lo + 2
            kind = {'R': 'GPR', 'UR': 'UGPR', 'P': 'PRED', 'UP': 'UPRED'}[v[1]]
            pre = (m.group(1) or '') + (m.group(2) or '')
            post = (m.group(5) or '') + m.group(6) + m.group(7)
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
            s = v[1]
            if dbl:
                kind = 'F64HI'; lo, hi = 32, 63
            elif re.match(r'^-?(\d+\.\d*|\d+e|INF|QNAN|\d+$)', s) and not s.startswith('0x') and not s.startswith('-0x') and mn.startswith(('F', 'FSETP', 'FMNMX')):
                kind = 'F32'; lo, hi = 32, 63
            else:
                # signed if flipping the top bit printed a negative value
                tb = flipped[bits.index(hi)] if hi in bits else None
                kind = 'SHEX' if s.startswith('-') or (tb is not None and '-0x' in tb) else 'HEX'
            pieces.append(cur + pre)
            slots.append('%s %d:%d' % (kind, hi, lo))
            cur = post
    pieces.append(cur)
    return (mn, pieces, slots, guard), None

if __name__ == '__main__':
    print(derive(sys.argv[1], int(sys.argv[2], 16), sys.argv[3], sys.argv[4] == '1'))
