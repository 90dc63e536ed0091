"""Operand fields of one instruction word, found by single-bit flips in nvdisasm's raw mode.

Every bit of [104:16] (not the opcode [11:0], the guard [15:12] or the control bits) is flipped alone and nvdisasm
12.5 reads the word. A flip that leaves the guard, the mnemonic and every operand but one as they were, and changes
that operand's register number, immediate, constant bank or constant offset by 2^k (same kind, same decorations),
puts the bit at k of that field; a flip that turns an immediate or a constant offset negative is the field's sign
bit. An operand nvdisasm prints otherwise (a float, an address) has no bit values: a flip that changes only its
text is counted as its (k None). Used by derive-form.py and random-word-forms.py.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nvtext import texts  # noqa: E402

CONTROL = set(range(105, 122))
BITS = list(range(16, 105))
REG = re.compile(r'^(?P<pre>[-~!]?\|?)(?P<kind>UR|UP|R|P)(?P<num>\d+|Z|T)'
                 r'(?P<post>\|?(?:\.reuse)?(?:\.[A-Z0-9_]+)*)$')
CBANK = re.compile(r'^(?P<pre>[-|]*)c\[(?P<bank>0x[0-9a-f]+)\]\[(?P<off>-?0x[0-9a-f]+)\](?P<post>\|?)$')
HEX = re.compile(r'^(?P<pre>\|?)(?P<num>-?0x[0-9a-f]+)(?P<post>\|?)$')
# kind: slot kind, field width, the number nvdisasm prints as Z/T (RZ, URZ, PT, UPT)
KINDS = {'R': ('GPR', 8, 255), 'UR': ('UGPR', 6, 63), 'P': ('PRED', 3, 7), 'UP': ('UPRED', 3, 7)}


def split(text):
    """(guard, mnemonic, operands) of an instruction's text."""
    guard = ''
    m = re.match(r'^(@!?U?P[T0-9]+) (.*)$', text)
    if m:
        guard, text = m.group(1), m.group(2)
    mnemonic, _, rest = text.partition(' ')
    return guard, mnemonic, [o.strip() for o in rest.split(',')] if rest else []


def operand(op):
    """One operand's text as a tuple:
    ('reg', kind, number, prefix, suffix)         R2, -|R4|.reuse, !P0, URZ (number 255/63/7 for Z and T);
    ('cb', bank, offset, prefix, suffix)          c[0x3][0x10], -|c[0x0][-0x8]| (bank and offset as numbers);
    ('imm', value, prefix, suffix)                0x10, -0x8, |0x4| (value a number);
    ('text', text, prefix, suffix)                anything else: floats, addresses (the text within the bars)."""
    m = REG.match(op)
    if m:
        kind, num = m.group('kind'), m.group('num')
        return ('reg', kind, KINDS[kind][2] if num in ('Z', 'T') else int(num), m.group('pre'), m.group('post'))
    m = CBANK.match(op)
    if m:
        return ('cb', int(m.group('bank'), 16), int(m.group('off'), 16), m.group('pre'), m.group('post'))
    m = HEX.match(op)
    if m:
        return ('imm', int(m.group('num'), 16), m.group('pre'), m.group('post'))
    s = op.strip('|')
    return ('text', s, op[:len(op) - len(op.lstrip('|'))], op[len(op.rstrip('|')):])


def power(x):
    """k if x == 2**k, else None."""
    return x.bit_length() - 1 if x > 0 and x & (x - 1) == 0 else None


def step(a, b):
    """(k, sign): k if b differs from a by 2^k with the same sign (as 64-bit words), sign if the sign differs."""
    if (a < 0) != (b < 0):
        return None, True
    return power((a ^ b) & (2 ** 64 - 1)), False


def flips(sm, word, text):
    """(found, signs, flipped): found maps (operand index, part) to {bit: k}, part 'reg', 'imm', 'text', 'bank' or
    'off' (k None for 'text'); signs maps (operand index, part) to the bit whose flip turns it negative; flipped is
    nvdisasm's text of each flip of BITS (None where it refuses the word)."""
    guard, mnemonic, ops = split(text)
    parsed = [operand(o) for o in ops]
    flipped = texts([word ^ (1 << b) for b in BITS], sm)
    found, signs = {}, {}
    for b, t in zip(BITS, flipped):
        if t is None:
            continue
        guard2, mnemonic2, ops2 = split(t)
        if guard2 != guard or mnemonic2 != mnemonic or len(ops2) != len(ops):
            continue
        diff = [i for i in range(len(ops)) if ops[i] != ops2[i]]
        if len(diff) != 1:
            continue
        i = diff[0]
        p1, p2 = parsed[i], operand(ops2[i])
        if p1[0] != p2[0] or p1[-2:] != p2[-2:]:
            continue  # another kind of operand, or other decorations
        if p1[0] == 'reg':
            if p1[1] == p2[1] and power(p1[2] ^ p2[2]) is not None:
                found.setdefault((i, 'reg'), {})[b] = power(p1[2] ^ p2[2])
        elif p1[0] == 'text':
            found.setdefault((i, 'text'), {})[b] = None
        elif p1[0] == 'imm':
            k, sign = step(p1[1], p2[1])
            if sign:
                signs[(i, 'imm')] = b
            elif k is not None:
                found.setdefault((i, 'imm'), {})[b] = k
        elif p1[1] != p2[1] and p1[2] == p2[2]:
            if power(p1[1] ^ p2[1]) is not None:
                found.setdefault((i, 'bank'), {})[b] = power(p1[1] ^ p2[1])
        elif p1[1] == p2[1]:
            k, sign = step(p1[2], p2[2])
            if sign:
                signs[(i, 'off')] = b
            elif k is not None:
                found.setdefault((i, 'off'), {})[b] = k
    return found, signs, flipped
