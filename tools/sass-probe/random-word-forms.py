#!/usr/bin/env python3
"""Table forms for words the decoder read as UNKNOWN (issue 20), from nvdisasm raw-mode bit flips.

Two lists of words. WORDS: ptxas 13 wrote them for random programs (isel-common's random-program-words.tsv): uniform-
register sources of FADD/DFMA/I2F/F2I/F2FP/IMAD.WIDE.U32, the unsigned IMAD.U32.X and IMAD.HI.U32.X, UPRMT's
register form on sm_86/sm_89, USHF.L.W.U32.HI/USHF.R.U32.HI, UIMAD.X and UISETP.EX with an immediate, ULEA with a
negated source, IADD3 with two carry-outs and an immediate, DSETP with |R|.reuse, LEA.HI.SX32 with a carry-out,
sm_90's VIADDMNMX.U32 of three registers. HELD_OUT: ptxas 12.5 and ptxas 13 -O1 wrote them for corpus files
(SassHeldOutTest lists them in isel-common/target/reports/heldout-unknown-SM-*.txt), one word per form: sm_75's
LEA.HI with a uniform source and RZ, ULEA with two immediates, ULDC of c[0x3][UR+imm]; sm_75/sm_80's LOP3.LUT P,
RZ, R, c[][], RZ; sm_75 ... sm_89's USHF.L.U32 by a uniform register with URZ, STS [UR], RZ; sm_90's S2UR
SR_SWINLO, DEPBAR without operands, VIADDMNMX with a uniform source, F2FP...PACK_AB_MERGE_C with R.H1,
STS.U8 [UR+imm]. For each word:

  1. every bit of [104:16] is flipped alone and nvdisasm 12.5 reads the word; a flip that changes one operand's
     register number by 2^k (same mnemonic, same other operands) puts that bit at k of the operand's register field,
     one that changes an immediate by 2^k at k of its field (a flip that makes it negative: the field's sign bit,
     SHEX); the field must be contiguous and start where k = 0; a text with operands of other kinds (addresses,
     constant banks, special registers, R.H1) is read by its tokens instead (derive_tokens: each register and hex
     number, `[UR6+0x14c0]` as UR6 and the offset, SHEX_PLUS; a constant offset whose lowest bit is k = 2 in 4-byte
     units, `>>2`), a token no flip moves stays a literal slot, other text stays in the pieces;
  2. the form: those fields as slots, every other bit of [104:0] and [127:122] fixed as the word has it (the
     control bits [121:105] free), so the form reads only words with the word's modifiers;
  3. nvdisasm reads example words of the form: 16 with every field random, and each field (and each pair of fields)
     at its special values (RZ/URZ, PT/UPT, immediate 0, 1, the sign bit, all ones); a random word printed other
     than the form prints it rejects the form, a special value printed otherwise (an alias, a hidden PT) or refused
     becomes an exclusion.

A word with several reuse flags also gives a word per flag alone (nvdisasm's text of it) and so a form with one
flag: the decoder's evidence of which flag bit is which operand's (sm_86's DSETP reads B's flag at 124, not 123).

Forms identical on several SMs are one rule. The result goes to random-word-forms.tsv (one line per word: the form
and the evidence) and, with --write, to table-rules.json as add-form rules (origin "random-word-forms", replacing
the previous ones), after every other rule; then run tools/sass-probe/table-rules and table-rules --check. A form
whose text class an existing form of its SM writes already (the assembler orders a text's forms by specificity)
is marked decodeOnly, so code generation keeps writing what it wrote.

    tools/sass-probe/random-word-forms.py            derive, verify, print, write the TSV
    tools/sass-probe/random-word-forms.py --write    also replace the rules in table-rules.json
"""
import json, os, random, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from flipfields import BITS, CONTROL, flips, operand, power, split, step  # noqa: E402
from nvtext import fill, ranges, texts  # noqa: E402
from tablefile import save  # noqa: E402

ROOT = os.path.abspath(os.path.join(HERE, '..', '..'))
RULES = os.path.join(HERE, 'table-rules.json')
TSV = os.path.join(HERE, 'random-word-forms.tsv')
FILES = {'base': 'tables/src/main/resources/org/jptxas/tables/sass/volta-base.json',
         'sm_75': 'backend-sm75/src/main/resources/org/jptxas/backend/sm75/sass/sm75.json',
         'sm_80': 'backend-sm80/src/main/resources/org/jptxas/backend/sm80/sass/sm80.json',
         'sm_86': 'backend-sm80/src/main/resources/org/jptxas/backend/sm80/sass/sm86.json',
         'sm_89': 'backend-sm89-90/src/main/resources/org/jptxas/backend/sm89_90/sass/sm89.json',
         'sm_90': 'backend-sm89-90/src/main/resources/org/jptxas/backend/sm89_90/sass/sm90.json'}
ORIGIN = 'random-word-forms'

# The open words of random-program-words-open.txt before these forms: sm, word (hi..lo), nvdisasm 12.5's text
WORDS = """
sm_75	000fe2000800410000000004060b7e21	FADD.RM R11, -R6, UR4
sm_75	000e22000820100000000004000b7d06	I2F.U32 R11, UR4
sm_75	000fc600000e0c070000008012087824	IMAD.U32.X R8, R18, 0x80, ~R7, P0
sm_75	000fcc0008010e040000000704047899	USHF.L.W.U32.HI UR4, UR4, 0x7, UR4
sm_75	000fe20008010e040000000704047899	USHF.L.W.U32.HI UR4, UR4, 0x7, UR4
sm_80	000fe200080000ff00000004ff007c3e	F2FP.PACK_AB R0, RZ, UR4
sm_80	000fe20007a3e1125bdcad2910ff7810	IADD3 RZ, P1, P2, -R16, 0x5bdcad29, R18
sm_80	000fc8000bf043006c8de6202700788c	UISETP.GT.AND.EX UP0, UPT, UR39, 0x6c8de620, UPT, UP0
sm_80	000fe2000f80713f889b435c06057891	ULEA UR5, UP0, -UR6, 0x889b435c, 0xe
sm_80	000fd20008011605000000053f057299	USHF.R.U32.HI UR5, URZ, UR5, UR5
sm_86	140e220003fac2000000001c1e00722a	DSETP.GTU.AND P5, PT, |R30|.reuse, R28.reuse, PT
sm_86	000e22000820f1000000000400217d05	F2I.TRUNC.NTZ R33, UR4
sm_86	000fe200080000008000000400007e21	FADD R0, R0, -UR4
sm_86	000ee2000820180000000005000c7d12	I2F.F64.U32 R12, UR5
sm_86	000fe200000e04ff0000100014147824	IMAD.U32.X R20, R20, 0x1000, RZ, P0
sm_86	001fc600008e04032000000002137824	IMAD.U32.X R19, R2, 0x20000000, R3, P1
sm_86	000fc8000f8000060000002503087c25	IMAD.WIDE.U32 R8, P0, R3, UR37, R6
sm_86	000fc400080e0607750e26ea3f0578a4	UIMAD.X UR5, URZ, 0x750e26ea, UR7, UP0
sm_86	000fca00080000060000000504047296	UPRMT UR4, UR4, UR5, UR6
sm_86	000fe200080000060000000405047296	UPRMT UR4, UR5, UR4, UR6
sm_86	000fe200080000060000000504047296	UPRMT UR4, UR4, UR5, UR6
sm_89	000e8c00080000260000000424267c2b	DFMA R38, R36, UR4, R38
sm_89	040fe200008e04030001000012037824	IMAD.U32.X R3, R18.reuse, 0x10000, R3, P1
sm_89	000fe400078392ff00000019162c7211	LEA.HI.SX32 R44, P1, R22, R25, 0x12
sm_89	000fe200080000060000000405047296	UPRMT UR4, UR5, UR4, UR6
sm_89	000fe200080000070000000605057296	UPRMT UR5, UR5, UR6, UR7
sm_89	000fe400080000050000000604047296	UPRMT UR4, UR4, UR6, UR5
sm_90	000fe200080000ff00000004ff067c3e	F2FP.F16.F32.PACK_AB R6, RZ, UR4
sm_90	000fe200000e040a000000051f067227	IMAD.HI.U32.X R6, R31, R5, R10, P0
sm_90	000fe400008e0419000000101a0f7824	IMAD.U32.X R15, R26, 0x10, R25, P1
sm_90	002fca00008e0c1900000020101e7824	IMAD.U32.X R30, R16, 0x20, ~R25, P1
sm_90	080fe2000f8e000c000000040c107e25	IMAD.WIDE.U32 R16, R12, R12.reuse, UR4
sm_90	000fc800080e0605cb03f0693f0578a4	UIMAD.X UR5, URZ, -0x34fc0f97, UR5, UP0
sm_90	000fc80007800004000000021a077246	VIADDMNMX.U32 R7, R26, R2, R4, !PT
sm_90	000fc800078000190000001916007246	VIADDMNMX.U32 R0, R22, R25, R25, !PT
sm_90	000fce000780001b0000001812127246	VIADDMNMX.U32 R18, R18, R24, R27, !PT
"""

# Words of corpus files ptxas 12.5 and ptxas 13 -O1 wrote that the decoder read as UNKNOWN (SassHeldOutTest's
# target/reports/heldout-unknown-SM-*.txt): sm, word (hi..lo), nvdisasm 12.5's text, the compiler; one per form
HELD_OUT = """
sm_75	000fc6000f8fc8ff0000000400037c11	LEA.HI R3, R0, UR4, RZ, 0x19	ptxas 13 -O1
sm_75	000fcc000800063f0000000406067299	USHF.L.U32 UR6, UR6, UR4, URZ	ptxas 13 -O1
sm_75	000fd8000782c0ff00005c0000ff7a12	LOP3.LUT P1, RZ, R0, c[0x0][0x170], RZ, 0xc0, !PT	ptxas 13 -O1
sm_75	000fe20008000805000000ffff007988	STS [UR5], RZ	ptxas 13 -O1
sm_75	000fe20008000a0000c0020008067abb	ULDC.64 UR6, c[0x3][UR8+0x8]	ptxas 13 -O1
sm_75	000fe4000800080000c00a0008097abb	ULDC UR9, c[0x3][UR8+0x28]	ptxas 13 -O1
sm_75	000fe2000f8e403f000001000a047891	ULEA UR4, UR10, 0x100, 0x8	ptxas 13 -O1
sm_80	000fda000782c0ff00005c0002ff7a12	LOP3.LUT P1, RZ, R2, c[0x0][0x170], RZ, 0xc0, !PT	ptxas 13 -O1
sm_80	000fe20008000805000000ffff007988	STS [UR5], RZ	ptxas 13 -O1
sm_80	000fe4000800063f0000000406067299	USHF.L.U32 UR6, UR6, UR4, URZ	ptxas 13 -O1
sm_86	000fe20008000805000000ffff007988	STS [UR5], RZ	ptxas 13 -O1
sm_86	000fe4000800063f0000000406067299	USHF.L.U32 UR6, UR6, UR4, URZ	ptxas 13 -O1
sm_89	000fe20008000805000000ffff007988	STS [UR5], RZ	ptxas 13 -O1
sm_89	000fe4000800063f0000000406067299	USHF.L.U32 UR6, UR6, UR4, URZ	ptxas 13 -O1
sm_90	0001e200080000060014c007ff007988	STS.U8 [UR6+0x14c0], R7	ptxas 13 -O1
sm_90	000e62000000300000000000000779c3	S2UR UR7, SR_SWINLO	ptxas 12.5
sm_90	000fd80000000000000000000000791a	DEPBAR	ptxas 12.5
sm_90	001fca000f8001110000000410117c46	VIADDMNMX R17, R16, UR4, R17, !PT	ptxas 12.5
sm_90	004fca0004807100000000070000723e	F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C R0, R0, R7, R0.H1	ptxas 12.5
"""

# Held-out forms the decoder reads and code generation never writes (the ISel walk seeds every form that writes):
# (sm, text) -> why
DECODE_ONLY = {('sm_90', 'DEPBAR'): 'jptxas waits on scoreboards with DEPBAR.LE SBn, k; the bare DEPBAR (no scoreboard '
                                    'named) only decodes'}

KINDS = {'R': ('GPR', 8, 255, 'RZ'), 'UR': ('UGPR', 6, 63, 'URZ'), 'P': ('PRED', 3, 7, 'PT'),
         'UP': ('UPRED', 3, 7, 'UPT')}
SLOT_KINDS = {v[0]: (k, v[2], v[3]) for k, v in KINDS.items()}


def derive(sm, word, text):
    """The form (mnemonic, key, pieces, slots, mask, bits) nvdisasm's flips (flipfields.flips) show, or (None, why)."""
    guard, mnemonic, ops = split(text)
    parsed = [operand(o) for o in ops]
    if guard:
        return None, 'guarded text: %s' % text
    # the forms' slots here are registers (decorated by -~!|, .reuse) and hex immediates
    if any(p[0] not in ('reg', 'imm') or p[0] == 'reg' and p[4].lstrip('|') not in ('', '.reuse') for p in parsed):
        return None, 'operand not understood: %s' % text
    found, signs, _ = flips(sm, word, text)
    pieces, slots, cur = [], [], mnemonic + (' ' if ops else '')
    field_bits = set()
    for i, (op, p) in enumerate(zip(ops, parsed)):
        if i:
            cur += ', '
        got = found.get((i, p[0]), {})
        sign = signs.get((i, p[0]))
        los = {b - k for b, k in got.items()}
        if len(los) != 1:
            return None, 'operand %d (%s): no single field (%s)' % (i, op, sorted(got.items()))
        lo = los.pop()
        if p[0] == 'reg':
            kind, width = KINDS[p[1]][:2]
            if sorted(got) != list(range(lo, lo + width)):
                return None, 'operand %d (%s): bits %s' % (i, op, sorted(got))
            slot = '%s %d:%d' % (kind, lo + width - 1, lo)
            pre, post = p[3], p[4]
        else:
            hi = max(got)
            if sorted(got) != list(range(lo, hi + 1)):
                return None, 'operand %d (%s): bits %s' % (i, op, sorted(got))
            if sign == hi + 1 or p[1] < 0:
                hi = sign if sign is not None else hi
                if p[1] < 0 and hi == max(got):
                    return None, 'operand %d (%s): negative but no sign bit' % (i, op)
                slot = 'SHEX %d:%d' % (hi, lo)
            else:
                slot = 'HEX %d:%d' % (hi, lo)
            pre, post = p[2], p[3]
        field_bits |= set(range(lo, int(slot.split(' ')[1].split(':')[0]) + 1))
        pieces.append(cur + pre)
        slots.append(slot)
        cur = post
    pieces.append(cur)
    mask = (2 ** 128 - 1) & ~sum(1 << b for b in CONTROL | field_bits)
    form = {'mnemonic': mnemonic, 'key': (word & 0xfff) | (word >> 91 & 1) << 12, 'pieces': pieces,
            'mask': '%032x' % mask, 'bits': '%032x' % (word & mask), 'slots': slots, 'exclude': []}
    return form, None


TOKEN = re.compile(r'(?<![\w.])(?P<reg>UR|UP|R|P)(?P<num>\d+|Z|T)(?!\w)|(?P<sign>\+-|\+|-)?0x(?P<hex>[0-9a-f]+)')


def tokens(text):
    """The registers and hex numbers of an instruction's operand text (after the mnemonic) as (start, end, kind,
    value, plus) and the skeleton: the text with each one replaced by its class (R, UR, P, UP, N, +N), so `[UR6+0x10]`
    and `c[0x3][UR8+0x8]` (an address, a constant bank indexed by a register) split into their parts."""
    out, skeleton, at = [], '', 0
    for m in TOKEN.finditer(text):
        if m.group('reg'):
            kind = m.group('reg')
            value = KINDS[kind][2] if m.group('num') in ('Z', 'T') else int(m.group('num'))
            cls = kind
        else:
            value = int(m.group('hex'), 16) * (-1 if (m.group('sign') or '').endswith('-') else 1)
            kind, cls = 'N', '+N' if (m.group('sign') or '').startswith('+') else 'N'
        out.append((m.start(), m.end(), kind, value, cls == '+N'))
        skeleton += text[at:m.start()] + '{' + cls + '}'
        at = m.end()
    return out, skeleton + text[at:]


def derive_tokens(sm, word, text):
    """As derive, for operands derive does not take apart (addresses, constant banks, special registers, .H1): every
    register and hex number of the text is a token; a single-bit flip that leaves the mnemonic and the skeleton as
    they were and changes one token by 2^k (a number: or makes it negative) puts the bit at k of that token's field.
    A token no flip moves is a literal slot (=RZ); other text (SR_SWINLO, .H1) stays in the pieces, its bits fixed."""
    guard, mnemonic, ops = split(text)
    if guard:
        return None, 'guarded text: %s' % text
    rest = text[len(mnemonic):]
    toks, skeleton = tokens(rest)
    found, signs = {}, {}
    for b, t in zip(BITS, texts([word ^ (1 << b) for b in BITS], sm)):
        if t is None or split(t)[0] or split(t)[1] != mnemonic:
            continue
        toks2, skeleton2 = tokens(t[len(mnemonic):])
        if skeleton2 != skeleton:
            continue
        diff = [i for i in range(len(toks)) if toks[i][3] != toks2[i][3]]
        if len(diff) != 1:
            continue
        i = diff[0]
        a, c = toks[i][3], toks2[i][3]
        if toks[i][2] != 'N':
            if power(a ^ c) is not None:
                found.setdefault(i, {})[b] = power(a ^ c)
            continue
        k, sign = step(a, c)
        if sign:
            signs[i] = b
        elif k is not None:
            found.setdefault(i, {})[b] = k
    pieces, slots, field_bits, cur, at = [], [], set(), mnemonic, 0
    for i, (start, end, kind, value, plus) in enumerate(toks):
        cur += rest[at:start]
        at = end
        got = found.get(i, {})
        if not got:
            if i in signs:
                return None, 'token %d (%s): only a sign bit' % (i, rest[start:end])
            pieces.append(cur)
            slots.append('=' + rest[start:end])
            cur = ''
            continue
        lo = min(got)
        shift = got[lo]
        if any(k != b - lo + shift for b, k in got.items()):
            return None, 'token %d (%s): bits %s' % (i, rest[start:end], sorted(got.items()))
        hi = max(got)
        if kind != 'N':
            if shift or hi - lo + 1 != KINDS[kind][1]:
                return None, 'token %d (%s): bits %s' % (i, rest[start:end], sorted(got.items()))
            slot = '%s %d:%d' % (KINDS[kind][0], hi, lo)
        else:
            sign = signs.get(i)
            if sign is not None and sign != hi + 1:
                return None, 'token %d (%s): sign bit %d' % (i, rest[start:end], sign)
            if plus and sign is None:
                return None, 'token %d (%s): an address offset without a sign bit' % (i, rest[start:end])
            if value < 0 and sign is None:
                return None, 'token %d (%s): negative but no sign bit' % (i, rest[start:end])
            hi = sign if sign is not None else hi
            slot = '%s %d:%d%s' % ('SHEX_PLUS' if plus else 'SHEX' if sign is not None else 'HEX', hi, lo,
                                   ' >>%d' % shift if shift else '')
        field_bits |= set(range(lo, hi + 1))
        pieces.append(cur)
        slots.append(slot)
        cur = ''
    pieces.append(cur + rest[at:])
    mask = (2 ** 128 - 1) & ~sum(1 << b for b in CONTROL | field_bits)
    form = {'mnemonic': mnemonic, 'key': (word & 0xfff) | (word >> 91 & 1) << 12, 'pieces': pieces,
            'mask': '%032x' % mask, 'bits': '%032x' % (word & mask), 'slots': slots, 'exclude': []}
    return form, None


def shift_of(slot):
    """The scale of a number slot ('SHEX 53:40 >>2': the field holds the value in 4-byte units)."""
    parts = slot.split(' ')
    return int(parts[2][2:]) if len(parts) > 2 else 0


def show(slot, v):
    """The operand text jptxas prints for field value v."""
    if slot.startswith('='):
        return slot[1:]
    kind = slot.split(' ')[0]
    (lo, hi), = ranges(slot)
    if kind in SLOT_KINDS:
        prefix, zero, name = SLOT_KINDS[kind]
        return name if v == zero else '%s%d' % (prefix, v)
    plus = '+' if kind == 'SHEX_PLUS' else ''
    if kind in ('SHEX', 'SHEX_PLUS') and v >> (hi - lo) & 1:
        return plus + '-0x%x' % (((1 << (hi - lo + 1)) - v) << shift_of(slot))
    return plus + '0x%x' % (v << shift_of(slot))


def printed(form, values):
    out = form['pieces'][0]
    for slot, piece, v in zip(form['slots'], form['pieces'][1:], values):
        out += show(slot, v) + piece
    return out


def specials(slot):
    if slot.startswith('='):
        return []
    kind = slot.split(' ')[0]
    (lo, hi), = ranges(slot)
    if kind in SLOT_KINDS:
        return [SLOT_KINDS[kind][1]]
    width = hi - lo + 1
    return [0, 1, 1 << (width - 1), (1 << width) - 1]


def random_value(rng, slot):
    if slot.startswith('='):
        return None
    kind = slot.split(' ')[0]
    (lo, hi), = ranges(slot)
    if kind in SLOT_KINDS:
        return rng.randrange(SLOT_KINDS[kind][1])  # never the zero register / PT: those are the specials
    return rng.randrange(2, 1 << (hi - lo + 1))


def values_of(form, word):
    out = []
    for slot in form['slots']:
        if slot.startswith('='):
            out.append(None)
            continue
        (lo, hi), = ranges(slot)
        out.append(word >> lo & ((1 << (hi - lo + 1)) - 1))
    return out


def verify(sm, form, word, seed):
    """(number of random words read as printed, exclusions, failures)."""
    rng = random.Random(seed)
    control = word & sum(1 << b for b in CONTROL)
    base = int(form['bits'], 16) | control
    own = values_of(form, word)
    cases = []  # (values, special field indexes)
    for _ in range(16):
        cases.append(([random_value(rng, s) for s in form['slots']], ()))
    n = len(form['slots'])
    for i in range(n):
        for v in specials(form['slots'][i]):
            vals = list(own)
            vals[i] = v
            cases.append((vals, ((i, v),)))
    for i in range(n):
        for j in range(i + 1, n):
            for v in specials(form['slots'][i]):
                for u in specials(form['slots'][j]):
                    vals = list(own)
                    vals[i], vals[j] = v, u
                    cases.append((vals, ((i, v), (j, u))))
    words = []
    for vals, _ in cases:
        w = base
        for s, v in zip(form['slots'], vals):
            if v is not None:
                w = fill(w, s, v)
        words.append(w)
    got = texts(words, sm)
    bad_single, bad_pairs, failures, ok = set(), [], [], 0
    for (vals, special), t in zip(cases, got):
        want = printed(form, vals)
        if t == want:
            ok += not special
            continue
        if not special:
            failures.append('%032x: nvdisasm %r, form %r' % (words[cases.index((vals, special))], t, want))
        elif len(special) == 1:
            bad_single.add(special[0])
        else:
            bad_pairs.append(special)
    exclude = ['%d=0x%x' % s for s in sorted(bad_single)]
    for pair in bad_pairs:
        if not any(s in bad_single for s in pair):
            exclude.append('&'.join('%d=0x%x' % s for s in pair))
    return ok, exclude, failures


def identity(f):
    return (f['mnemonic'], f['key'], f['mask'], f['bits'], tuple(f['slots']), tuple(f['pieces']))


def text_of(f):
    """As table-rules' text_of: the form's text with each operand as its class."""
    def op(slot):
        if slot.startswith('='):
            return slot[1:]
        kind = slot.split(' ')[0]
        return '{N}' if kind in ('HEX', 'SHEX', 'SHEX_PLUS') else '{' + kind + '}'
    out = f['pieces'][0]
    for slot, piece in zip(f['slots'], f['pieces'][1:]):
        out += op(slot) + piece
    return out


def table(sm):
    """The SM's forms (base and overlay) without those the rules of this script added (a second run decides as the
    first)."""
    with open(RULES) as fh:
        ours = {identity(r['form']) for r in json.load(fh)['rules'] if r.get('origin') == ORIGIN}
    out = []
    for scope in ('base', sm):
        with open(os.path.join(ROOT, FILES[scope])) as fh:
            out += [f for f in json.load(fh)['forms'] if identity(f) not in ours]
    return out


def main(argv):
    words = [l.split('\t') + ['ptxas'] for l in WORDS.strip().split('\n')]
    # a word with several reuse flags: also each flag alone, as nvdisasm reads it. A form with exactly one flag is
    # the decoder's evidence of which bit is which operand's flag (ReuseCombinations); without it the decoder takes
    # the flag other keys of the operand layout show (sm_86's DSETP: B's flag is 124, FSETP's 123), so the
    # assembler's listing path wrote [125:122] = 3 for `|R|.reuse, R.reuse`, a word nvdisasm refuses
    for sm, hexword, text, _ in list(words):
        word = int(hexword, 16)
        flags = [b for b in range(122, 126) if word >> b & 1]
        if len(flags) > 1:
            alone = [word & ~(0xf << 122) | 1 << b for b in flags]
            for w, t in zip(alone, texts(alone, sm)):
                if t is not None:
                    words.append([sm, '%032x' % w, t, 'reuse flag alone of ' + hexword])
    words += [l.split('\t') for l in HELD_OUT.strip().split('\n')]
    rows, rules = [], {}
    for n, (sm, hexword, text, source) in enumerate(words):
        word = int(hexword, 16)
        form, why = derive(sm, word, text)
        if form is None:
            form, why = derive_tokens(sm, word, text)
        if form is None:
            rows.append([sm, hexword, text, 'NOT DERIVED', why, source])
            print(sm, text, 'not derived:', why)
            continue
        if printed(form, values_of(form, word)) != text:
            rows.append([sm, hexword, text, 'NOT DERIVED', 'prints %r' % printed(form, values_of(form, word)), source])
            continue
        ok, exclude, failures = verify(sm, form, word, n)
        form['exclude'] = exclude
        if failures:
            rows.append([sm, hexword, text, 'REJECTED', '; '.join(failures[:3]), source])
            print(sm, text, 'rejected:', failures[:3])
            continue
        existing = table(sm)
        known = any(identity(f) == identity(form) for f in existing)
        writes = {text_of(f) for f in existing if not f.get('decodeOnly')}
        if text_of(form) in writes or (sm, text) in DECODE_ONLY:
            form['decodeOnly'] = True
        key = json.dumps(form, sort_keys=True)
        entry = rules.setdefault(key, {'form': form, 'sms': [], 'words': [],
                                       'decodeOnly': DECODE_ONLY.get((sm, text), 'a form of the SM writes its text already')})
        if sm not in entry['sms'] and not known:
            entry['sms'].append(sm)
        entry['words'].append((sm, hexword, text, source))
        rows.append([sm, hexword, text, 'present' if known else ('decode-only' if form.get('decodeOnly') else 'form'),
                     form['mnemonic'], str(form['key']), '|'.join(form['pieces']), ' ; '.join(form['slots']),
                     form['mask'], form['bits'], ' '.join(exclude) or '-', '%d random words exact' % ok, source])
        print(sm, text, '->', rows[-1][3], form['slots'], exclude, ok)
    save(TSV, ['# tools/sass-probe/random-word-forms.py: sm, word (hi..lo), nvdisasm 12.5 text, result, mnemonic, key, '
               'pieces (|-separated), slots, mask, bits, exclusions, evidence, source'] + rows)
    if '--write' in argv:
        with open(RULES) as fh:
            data = json.load(fh)
        kept = [r for r in data['rules'] if r.get('origin') != ORIGIN]
        for entry in rules.values():
            if not entry['sms']:
                continue
            f = entry['form']
            ws = ', '.join('%s %s %s' % w[:3] for w in entry['words'][:3])
            source = entry['words'][0][3]
            wrote = ('ptxas 13 wrote %s for random programs' % ws if source == 'ptxas' else
                     'nvdisasm 12.5 reads %s, the %s with one reuse flag (evidence of which flag is which operand\'s)'
                     % (ws, source.replace('reuse flag alone of ', 'ptxas word ')) if source.startswith('reuse')
                     else '%s wrote %s for corpus files (SassHeldOutTest)' % (source, ws))
            kept.append({'kind': 'add-form', 'origin': ORIGIN, 'sms': sorted(entry['sms']), 'form': f,
                         'why': 'random-word-forms.py: %s; %s, nvdisasm 12.5 reads 16 random words of the form '
                                'exactly%s%s'
                                % (wrote, 'single-bit flips put the fields at ' + ', '.join(f['slots'])
                                   if f['slots'] else 'no operand fields',
                                   (' and prints the exclusions %s otherwise' % ' '.join(f['exclude']))
                                   if f['exclude'] else '',
                                   '; decode-only: ' + entry['decodeOnly'] if f.get('decodeOnly') else '')})
        data['rules'] = kept
        save(RULES, data, separators=(', ', ': '))


if __name__ == '__main__':
    main(sys.argv[1:])
