#!/usr/bin/env python3
"""Modifier enums (and missing base forms) for compare/convert opcodes, from nvdisasm raw-mode bit flips.

For each SM: adds the base forms listed in FORMS (if the tables lack them), sets the modifier classes of CLASSES
in the SM's modifier overlay, and lists as refused every mnemonic combination nvdisasm rejects (or prints other
than the composer spells it) on the class's plain register form.
"""
import itertools, json, os, re, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nvtext import extract, insert, positions, texts  # noqa: E402
from tablefile import load, save  # noqa: E402  (hidden-policy uses them as field-enums' too)

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
SMS = {'sm_75': ('backend-sm75', 'sm75'), 'sm_80': ('backend-sm80', 'sm80'), 'sm_86': ('backend-sm80', 'sm80'),
       'sm_89': ('backend-sm89-90', 'sm89_90'), 'sm_90': ('backend-sm89-90', 'sm89_90')}
BASE = os.path.join(ROOT, 'tables/src/main/resources/org/jptxas/tables/sass/volta-base.json')
BASE_MODS = os.path.join(ROOT, 'tables/src/main/resources/org/jptxas/tables/sass/modifiers-base.json')

CMP_F = ['F', 'LT', 'EQ', 'LE', 'GT', 'NE', 'GE', 'NUM', 'NAN', 'LTU', 'EQU', 'LEU', 'GTU', 'NEU', 'GEU', 'T']
CMP_D = ['MIN'] + CMP_F[1:15] + ['MAX']
def enum(bits, names, operand=-1, side='mnemonic'):
    return {'bits': bits, 'values': {n: hex(v) for v, n in enumerate(names) if n is not None}, 'operand': operand,
            'side': side}
INT_TYPES = ['U8', 'S8', 'U16', 'S16', 'U32', '', 'U64', 'S64']  # value = signed | size << 1
NOT_PRED4 = enum('90:90', ['', '!'], 4, 'prefix')
DSETP = [enum('79:76', CMP_D), enum('75:74', ['AND', 'OR', 'XOR']), NOT_PRED4]
HSETP2 = [enum('79:76', CMP_F), enum('71:71', ['', 'H_AND']), enum('80:80', ['', 'FTZ']),
          enum('70:69', ['AND', 'OR', 'XOR']), NOT_PRED4]
HSET2 = [enum('71:71', ['', 'BF']), enum('79:76', CMP_F), enum('80:80', ['', 'FTZ']),
         enum('70:69', ['AND', 'OR', 'XOR']), enum('90:90', ['', '!'], 3, 'prefix')]
F2I = [enum('80:80', ['', 'FTZ']), enum('72:72,76:75', INT_TYPES), enum('85:84', [None, 'F16', '', 'F64']),
       enum('79:78', ['', 'FLOOR', 'CEIL', 'TRUNC']), enum('77:77', ['', 'NTZ'])]
I2F = [enum('76:75', [None, 'F16', '', 'F64']), enum('74:74,85:84', INT_TYPES), enum('79:78', ['', 'RM', 'RP', 'RZ'])]
I2IP = [enum('77:76', ['U8', 'S8', 'U16', 'S16'])]
# sm_90 compares bf16 pairs natively: [65:64] = 2 prints .BF16_V2 first (sm_75..sm_89 print no token there)
BF16_V2 = enum('65:64', ['', None, 'BF16_V2'])
SM_EXTRA = {'sm_90': {'HSETP2': [BF16_V2], 'HSET2': [BF16_V2]}}
# sm_90's float type fields are a bit wider: I2F's result [77:75] and F2I's source [86:84] take BF16 = 4
SM_REPLACE = {'sm_90': {'76:75': enum('77:75', [None, 'F16', '', 'F64', 'BF16']),
                        '85:84': enum('86:84', [None, 'F16', '', 'F64', 'BF16'])}}
CLASSES = [('DSETP', 554, DSETP), ('DSETP', 1066, DSETP), ('HSETP2', 564, HSETP2), ('HSET2', 563, HSET2),
           ('F2I', 773, F2I), ('F2I', 785, F2I), ('I2F', 774, I2F), ('I2F', 786, I2F), ('I2F', 2834, I2F), ('I2IP', 569, I2IP),
           ('I2IP', 2105, I2IP)]

# Arithmetic classes whose mnemonic enums ptxas's forms never showed all of: the enums (in nvdisasm's print order)
# replace the class's mnemonic groups with the same bits; its operand groups stay. Extra operand groups are added.
FTZ, SAT = enum('80:80', ['', 'FTZ']), enum('77:77', ['', 'SAT'])
# Bits an SM's nvdisasm ignores (the text stays the same whatever they hold): no enum there. sm_75 has no FMNMX .NAN
# ([81] prints nothing; the NaN-propagating min/max comes with sm_80)
SM_IGNORED = {'sm_75': {'FMNMX': ('81:81',)}}
RND = enum('79:78', ['', 'RM', 'RP', 'RZ'])
F32 = enum('78:78', ['', 'F32'])  # HADD2/HMUL2: an f32 result
NEG_A = enum('73:72', ['', '-'], 1, 'prefix')
NEG_B = enum('63:62', ['', None, '-'], 2, 'prefix')
EXTEND = [('FADD', 545, [FTZ, RND, SAT], []), ('FMUL', 544, [FTZ, RND, SAT], [NEG_A]),
          ('FFMA', 547, [FTZ, RND, SAT], []), ('FMNMX', 521, [FTZ, enum('81:81', ['', 'NAN'])], []),
          ('FSETP', 523, [enum('79:76', CMP_F), FTZ, enum('75:74', ['AND', 'OR', 'XOR'])], []),
          ('HADD2', 560, [F32, FTZ, SAT], [NEG_B]), ('HMUL2', 562, [F32, FTZ, SAT], [NEG_B]),
          ('DADD', 553, [RND], []), ('DMUL', 552, [RND], []),
          # FRND's source/result type ([76:75] and [85:84] together: f32 2/2, f16 1/1) prints between .FTZ and the
          # rounding (FRND.FTZ.F16.CEIL)
          ('FRND', 775, [FTZ, enum('76:75,85:84', [None] * 5 + ['F16'] + [None] * 4 + ['']),
                         enum('79:78', ['', 'FLOOR', 'CEIL', 'TRUNC'])], []),
          ('FLO', 768, [enum('73:73', ['U32', '']), enum('74:74', ['', 'SH'])], []),
          ('PRMT', 534, [enum('74:72', ['', 'F4E', 'B4E', 'RC8', 'ECL', 'ECR', 'RC16'])], [])]

CTRL_MASK_HI = ((1 << 17) - 1) << (105 - 64)
def form(mnemonic, key, pieces, bits, slots):
    mask = (1 << 128) - 1
    for s in slots:
        if s.startswith('='):
            continue  # a literal operand: its bits stay fixed
        for rng in s.split(' ')[1].split(','):
            hi, lo = map(int, rng.split(':'))
            mask &= ~(((1 << (hi - lo + 1)) - 1) << lo)
    mask &= ~(CTRL_MASK_HI << 64)
    return {'mnemonic': mnemonic, 'key': key, 'pieces': pieces, 'mask': '%032x' % mask,
            'bits': '%032x' % (bits & mask), 'slots': slots, 'exclude': []}
# HSETP2 Pp, Pq, Ra, Rb, Pc (no form was ever learned: ptxas's samples swizzle the halves); DSETP with a plain
# double immediate (only |Ra| was learned).
FORMS = [form('HSETP2.GE.AND', 564, ['HSETP2.GE.AND ', ', ', ', ', ', ', ', ', ''], int('0000000000006000' '0000000000007234', 16),
              ['PRED 83:81', 'PRED 86:84', 'GPR 31:24', 'GPR 39:32', 'PRED 89:87']),
         form('DSETP.GE.AND', 1066, ['DSETP.GE.AND ', ', ', ', ', ', ', ', ', ''], int('0000000000006000' '000000000000742a', 16),
              ['PRED 83:81', 'PRED 86:84', 'GPR 31:24', 'F64HI 63:32', 'PRED 89:87'])]

# IDP (b a register, a constant or a uniform register): the mode ([77:76]: 4A, 2A.LO, 2A.HI) and the two sources'
# signs ([73] a, [74] b) print as one run of tokens whose names depend on the mode (S8/U8 or S16/U16 for a), which
# independent enums cannot spell: every combination is a form.
for mode, m, a in [(0, '4A', '8'), (1, '2A.LO', '16'), (3, '2A.HI', '16')]:
    for sign in range(4):
        name = 'IDP.%s.%s%s.%s8' % (m, 'US'[sign & 1], a, 'US'[sign >> 1])
        FORMS.append(form(name, 550, [name + ' ', ', ', ', ', ', ', ''], 0x7226 | (mode << 76 | sign << 73),
                          ['GPR 23:16', 'GPR 31:24', 'GPR 39:32', 'GPR 71:64']))
        # b from a constant bank (ptxas's 0x01010101 for a SIMD video .add) or a uniform register, each also with c's
        # reuse flag [124] as ptxas writes it (a key with a .reuse form decodes other flags for execution)
        for reuse in ('', '.reuse'):
            r = (1 << 124) if reuse else 0
            FORMS.append(form(name, 2598, [name + ' ', ', ', ', c[', '][', '], ', reuse],
                              0x7a26 | (mode << 76 | sign << 73) | r,
                              ['GPR 23:16', 'GPR 31:24', 'HEX 58:54', 'SHEX 53:40 >>2', 'GPR 71:64']))
            FORMS.append(form(name, 7206, [name + ' ', ', ', ', ', ', ', reuse],
                              0x7c26 | 1 << 91 | (mode << 76 | sign << 73) | r,
                              ['GPR 23:16', 'GPR 31:24', 'UGPR 37:32', 'GPR 71:64']))

I2I = [enum('77:76', ['U8', 'S8', 'U16', 'S16'])]
CLASSES += [('I2I', 568, I2I)]

def ptxas_form(mnemonic, pieces, word, slots, exclude=(), sms=None):
    """A form of an instruction word ptxas 13 wrote (the instruction-form suite's cubins, words the decoder did not
    know): its fixed bits are the word's, its fields the slots, each found by flipping the word's bits one at a time
    in raw mode (nvdisasm prints the operand changed by that bit). sms: the SMs it is added to (None: all)."""
    w = int(word, 16)
    f = form(mnemonic, (w & 0xfff) | (w >> 91 & 1) << 12, pieces, w, slots)
    f['exclude'] = list(exclude)
    f['sms'] = sms
    return f

R, P = 'GPR 23:16', 'PRED 83:81'
PTXAS_FORMS = [
    # I2I: the destination type [77:76] is the class's enum; .S32 and .SAT are the only source type and saturation
    # nvdisasm prints (no other bit changes the text)
    ptxas_form('I2I.S8.S32.SAT', ['I2I.S8.S32.SAT ', ', ', ''], '000fe400000010000000000600067238',
               [R, 'GPR 39:32']),
    # LEA with an immediate b [63:32] (key 0x811): .HI [80], .X [74], .SX32 [73]; c [71:64]; carry-out [83:81]
    # (PT hidden), carry-in [89:87]
    ptxas_form('LEA.HI.X.SX32', ['LEA.HI.X.SX32 ', ', ', ', ', ', ', ', ', ''], '000fe400000f0effffffffff04047811',
               [R, 'GPR 31:24', 'HEX 63:32', 'HEX 79:75', 'PRED 89:87']),
    ptxas_form('LEA.HI.X', ['LEA.HI.X ', ', ', ', ', ', ', ', ', ', ', ''], '000fc600000fc4ff00007fff07077811',
               [R, 'GPR 31:24', 'HEX 63:32', 'GPR 71:64', 'HEX 79:75', 'PRED 89:87']),
    ptxas_form('LEA.HI.SX32', ['LEA.HI.SX32 ', ', ', ', ', ', ', ''], '000fca00078f82ff0000001000077811',
               [R, 'GPR 31:24', 'HEX 63:32', 'HEX 79:75']),
    ptxas_form('LEA', ['LEA ', ', ', ', ', ', ', ', ', ''], '000fe2000780c0ff000000ff00ff7811',
               [R, P, 'GPR 31:24', 'HEX 63:32', 'HEX 79:75'], ['1=0x7']),
    ptxas_form('LEA.HI', ['LEA.HI ', ', ', ', ', ', ', ', ', ', ', ''], '000fe200078118ff12345678ff057811',
               [R, P, 'GPR 31:24', 'HEX 63:32', 'GPR 71:64', 'HEX 79:75'], ['1=0x7']),
    # LEA with a register b (key 0x211): b negated [63] prints '~' with .X and '-' without; a negated [72]. (sm_89's
    # and sm_90's LEA class composes LEA.HI with -b, c = RZ, which is what ptxas writes.)
    ptxas_form('LEA.HI.X.SX32', ['LEA.HI.X.SX32 ', ', ', ', ~', ', ', ', ', ''], '000fe400000f0eff8000000704077211',
               [R, 'GPR 31:24', 'GPR 39:32', 'HEX 79:75', 'PRED 89:87']),
    ptxas_form('LEA.HI', ['LEA.HI ', ', ', ', -', ', ', ', ', ''], '000fe400078f80ff8000000504047211',
               [R, 'GPR 31:24', 'GPR 39:32', 'GPR 71:64', 'HEX 79:75'], sms=['sm_75', 'sm_80', 'sm_86']),
    ptxas_form('LEA', ['LEA ', ', -', ', ', ', ', ''], '002fd200078e79ff000000ff05097211',
               [R, 'GPR 31:24', 'GPR 39:32', 'HEX 79:75']),
    ptxas_form('LEA.X', ['LEA.X ', ', ', ', ', ', ', ', ', ''], '008fc600000e44ff0000000700077211',
               [R, 'GPR 31:24', 'GPR 39:32', 'HEX 79:75', 'PRED 89:87']),
    # ... and a uniform b [37:32] (key 0x1c11)
    ptxas_form('LEA.HI.X.SX32', ['LEA.HI.X.SX32 ', ', ', ', ~', ', ', ', ', ''], '000fc800080f0eff8000000500007c11',
               [R, 'GPR 31:24', 'UGPR 37:32', 'HEX 79:75', 'PRED 89:87']),
    # ISETP .EX with an immediate b (only literal immediates were learned); the ISETP class composes the rest
    ptxas_form('ISETP.EQ.AND.EX', ['ISETP.EQ.AND.EX ', ', ', ', ', ', ', ', ', ', ', ''],
               '000fc80003f02300555555550300780c', [P, 'PRED 86:84', 'GPR 31:24', 'SHEX 63:32', 'PRED 89:87',
                                                    'PRED 70:68'], ['5=0x7'], ['sm_75']),
    ptxas_form('ISETP.EQ.AND.EX', ['ISETP.EQ.AND.EX ', ', ', ', ', ', ', ', ', ', ', ''],
               '000fc80003f02300555555550300780c', [P, 'PRED 86:84', 'GPR 31:24', 'SHEX 63:32', 'PRED 89:87',
                                                    'PRED 70:68'], sms=['sm_80', 'sm_86', 'sm_89']),
    # sm_75's nvdisasm hides a PT .EX predicate [70:68]
    ptxas_form('ISETP.EQ.AND.EX', ['ISETP.EQ.AND.EX ', ', ', ', ', ', ', ', ', ''],
               '000fc80003f02370555555550300780c', [P, 'PRED 86:84', 'GPR 31:24', 'SHEX 63:32', 'PRED 89:87'],
               sms=['sm_75']),
    # R2UR with its predicate (true when the register is the same in every active thread; PT hidden)
    ptxas_form('R2UR', ['R2UR ', ', ', ', ', ''], '000e22000002000000000000063f73c2',
               [P, 'UGPR 21:16', 'GPR 31:24'], ['0=0x7'], ['sm_80', 'sm_86', 'sm_89']),
    # DADD with any other constant bank (the learned form has bank 0); nvdisasm reads the offset signed, in words
    ptxas_form('DADD', ['DADD ', ', ', ', c[', '][', ']'], '000e2200000000000080000004047629',
               [R, 'GPR 31:24', 'HEX 58:54', 'SHEX 53:40 >>2'], ['2=0x0']),
    ptxas_form('DADD', ['DADD ', ', -', ', c[', '][', ']'], '004e0e00000001000080000002067629',
               [R, 'GPR 31:24', 'HEX 58:54', 'SHEX 53:40 >>2'], ['2=0x0']),
    # DADD: b [71:64] negated [75]; a negated [72]; a double immediate (high word [63:32])
    ptxas_form('DADD', ['DADD ', ', ', ', -', ''], '00405200000008060000000004067229', [R, 'GPR 31:24', 'GPR 71:64']),
    ptxas_form('DADD', ['DADD ', ', -', ', -', ''], '004e0e000000090200000000ff067229', [R, 'GPR 31:24', 'GPR 71:64']),
    ptxas_form('DADD', ['DADD ', ', ', ', ', ''], '004e0e0000000000bfe0000002067429', [R, 'GPR 31:24', 'F64HI 63:32']),
    # HSETP2 with both sources' halves selected .H0_H0 (a [75:74], b [61:60]); the HSETP2 class composes the rest
    ptxas_form('HSETP2.GE.AND', ['HSETP2.GE.AND ', ', ', ', ', '.H0_H0, ', '.H0_H0, ', ''],
               '004fd20003f068002000000500007234', [P, 'PRED 86:84', 'GPR 31:24', 'GPR 39:32', 'PRED 89:87']),
]

# sm_90's generic ST.E and ATOM.E without a memory descriptor (ptxas 13 writes them for st/atom on a generic address):
# ST.E's offset is [63:32], its value [71:64]; ATOM's offset [63:40], its b [39:32] (both signed, +-0x4 below zero)
PTXAS_FORMS.append(ptxas_form('ST.E', ['ST.E [', '', '], ', ''], '001fe80000100904000000040a007385',
                              ['GPR 31:24', 'SHEX_PLUS 63:32', 'GPR 71:64'], sms=['sm_90']))
PTXAS_FORMS.append(ptxas_form('ATOM.E.ADD.STRONG.GPU', ['ATOM.E.ADD.STRONG.GPU ', ', ', ', [', '', '], ', ''],
                              '000ee200001ee100000008040a0d738a',
                              ['PRED 83:81', 'GPR 23:16', 'GPR 31:24', 'SHEX_PLUS 63:40', 'GPR 39:32'], sms=['sm_90']))
# FSET with a register b (key 0x20a): sm_75..sm_90 print .BF on every word (the only FSET, 1.0 for true); a form
# without and one with .FTZ [80], the class replacing the comparison and boolean operation in place
for ftz, hi in [('', '03804000'), ('.FTZ', '03814000')]:
    mn = 'FSET.BF.GT%s.AND' % ftz
    PTXAS_FORMS.append(ptxas_form(mn, [mn + ' ', ', ', ', ', ', ', ''], '000fe200%s000000060402720a' % hi,
                                  [R, 'GPR 31:24', 'GPR 39:32', 'PRED 89:87']))
CLASSES.append(('FSET', 522, [enum('79:76', CMP_F), enum('75:74', ['AND', 'OR', 'XOR']),
                              enum('90:90', ['', '!'], 3, 'prefix')]))
# Words ptxas 13 writes in the random differential programs (cli RandomProgramDifferentialTest) that the decoder did
# not know, each mapped by raw-mode bit flips on sm_75..sm_90:
# PRMT with an immediate c (key 0x416): a [31:24], b [71:64], c [63:32] (nvdisasm prints it unsigned)
PTXAS_FORMS += [ptxas_form('PRMT', ['PRMT ', ', ', reuse + ', ', ', ', ''],
                           '%032x' % (0x000fc800000000120000000e03037416 | bool(reuse) << 122),
                           [R, 'GPR 31:24', 'GPR 71:64', 'HEX 63:32']) for reuse in ('', '.reuse')]
# IMAD.HI.U32 with an immediate (key 0x827) or uniform (key 0xc27) b and a carry-out [83:81] (PT hidden: the learned
# form without it prints that word); the immediate is signed
PTXAS_FORMS += [
    ptxas_form('IMAD.HI.U32', ['IMAD.HI.U32 ', ', ', ', ', ', ', ', ', ''], '000fca000780000a0000002d05057827',
               [R, P, 'GPR 31:24', 'SHEX 63:32', 'GPR 71:64'], ['1=0x7']),
    ptxas_form('IMAD.HI.U32', ['IMAD.HI.U32 ', ', ', ', ', ', ', ', ', ''], '000fc8000f800006000000050b067c27',
               [R, P, 'GPR 31:24', 'UGPR 37:32', 'GPR 71:64'], ['1=0x7'])]
# FCHK with a float immediate b (key 0x902, [63:32]) and a's -/| | ([72]/[73]); with a register b (key 0x302) a's
# -/| | and |b| ([62])
PTXAS_FORMS += [ptxas_form('FCHK', ['FCHK ', ', ' + pre, post + ', ', ''], '%032x' % (0x004e2200000000004373722900007902 | bits << 64),
                           [P, 'GPR 31:24', 'F32 63:32']) for pre, post, bits in (('', '', 0), ('-', '', 0x100), ('|', '|', 0x200))]
PTXAS_FORMS += [ptxas_form('FCHK', ['FCHK ', ', ' + pre, post + ', ' + bpre, bpost], '%032x' % (0x000ea20000000000000000030c007302 | bits),
                           [P, 'GPR 31:24', 'GPR 39:32'])
                for pre, post, bpre, bpost, bits in (('-', '', '', '', 0x100 << 64), ('|', '|', '', '', 0x200 << 64),
                                                     ('', '', '|', '|', 1 << 62))]
# MUFU.RCP64H / MUFU.RSQ64H with a double immediate's high word (key 0x908, [63:32]) or a uniform source (key 0xd08)
PTXAS_FORMS += [ptxas_form('MUFU.' + fn, ['MUFU.%s ' % fn, ', ', ''], '%032x' % (0x000e220000001800410acde300077908 | bit << 74),
                           [R, 'F64HI 63:32']) for fn, bit in (('RCP64H', 0), ('RSQ64H', 1))]
PTXAS_FORMS += [ptxas_form('MUFU.' + fn, ['MUFU.%s ' % fn, ', ', ''], '%032x' % (0x000e220008001c000000002700057d08 & ~(1 << 74) | bit << 74),
                           [R, 'UGPR 37:32']) for fn, bit in (('RCP64H', 0), ('RSQ64H', 1))]
# BREAK with a predicate (a thread leaves the barrier where it holds): !Pp [90], Pp [89:87]
PTXAS_FORMS += [ptxas_form('BREAK', guard + [' BREAK ' * bool(guard) + 'BREAK ' * (not guard) + neg, ', ', ''],
                           '%032x' % (0x000fe200000000000000000000028942 & ~(0xf << 12) | g << 12 | (1 | 4 * bool(neg)) << 88),
                           ['PRED 14:12'] * bool(guard) + ['PRED 89:87', 'BAR 19:16'],
                           ['0=0x7'] * (guard == ['@']) + ['%d=0x7' % len(guard)] * (not neg))
                for guard, g in ((['@!'], 8), (['@'], 0), ([], 7)) for neg in ('!', '')]
# IMNMX.U32 with an immediate b (key 0x817) and a negated predicate (!PT: the maximum); b is signed
PTXAS_FORMS.append(ptxas_form('IMNMX.U32', ['IMNMX.U32 ', ', ', ', ', ', !', ''], '000fe400078000000000000313137817',
                              [R, 'GPR 31:24', 'SHEX 63:32', 'PRED 89:87']))
# I2F from a constant (key 0xb12, bank [58:54], offset [53:40] signed in 4-byte units: nvdisasm ignores [39:38]) or an immediate (key 0x912): the I2F class composes the
# types and rounding
PTXAS_FORMS.append(ptxas_form('I2F.U64.RP', ['I2F.U64.RP ', ', c[', '][', ']'], '000e30000030900000800a0000007b12',
                              [R, 'HEX 58:54', 'SHEX 53:40 >>2']))
PTXAS_FORMS.append(ptxas_form('I2F.F64.U32', ['I2F.F64.U32 ', ', ', ''], '000e6200002018000000002c00027912',
                              [R, 'HEX 63:32']))
PTXAS_FORMS.append(ptxas_form('I2F.F64', ['I2F.F64 ', ', ', ''], '000ea20000201c008153364c000e7912',
                              [R, 'SHEX 63:32']))

# I2IP into 2- and 4-bit lanes (cvt.pack.sat.{u2,s2,u4,s4}.s32.b32): the type [78:76] = 4..7 (U2, S2, U4, S4) with c's
# selector [73:72] fixed as ptxas writes it (3 prints c.28 for 2-bit lanes, 2 prints c.24 for 4-bit lanes; nvdisasm
# prints ???N for any other); sm_90 holds .SAT in [74]
for name, sel, sfx in [('U2', 0x43, '.28'), ('S2', 0x53, '.28'), ('U4', 0x62, '.24'), ('S4', 0x72, '.24')]:
    for sat, sms in [(0, ['sm_75', 'sm_80', 'sm_86', 'sm_89']), (0x4, ['sm_90'])]:
        mn = 'I2IP.%s.S32.SAT' % name
        PTXAS_FORMS.append(ptxas_form(mn, [mn + ' ', ', ', ', ', ', ', sfx],
                                      '000fc800%08x0000000005007239' % ((sel | sat) << 8 | 2),
                                      [R, 'GPR 31:24', 'GPR 39:32', 'GPR 71:64'], sms=sms))
# HSET2 with both sources' halves selected .H0_H0 (a [75:74], b [61:60], as for HSETP2): ptxas's scalar f16/bf16
# set; the HSET2 class composes the comparison, .BF, .FTZ and the boolean operation
PTXAS_FORMS.append(ptxas_form('HSET2.EQ.AND', ['HSET2.EQ.AND ', ', ', '.H0_H0, ', '.H0_H0, ', ''],
                              '008fe200000028002000000500007233', [R, 'GPR 31:24', 'GPR 39:32', 'PRED 89:87']))
# FSEL with |a| [73] and -|a| ([72] too: the FSEL class's -a does not compose onto a decorated operand), and a's
# reuse flag [122] (a form printing .reuse lets the emulator's decoder drop other reuse flags of the key)
for a_pieces, word in [([', |', '|, '], '008fca00000002000000000700077208'),
                       ([', -|', '|, '], '008fca00000003000000000700077208')]:
    PTXAS_FORMS.append(ptxas_form('FSEL', ['FSEL '] + a_pieces + [', ', ''], word,
                                  [R, 'GPR 31:24', 'GPR 39:32', 'PRED 89:87']))
# (the composer leaves .reuse forms alone, so !c [90] is a form of its own)
for c_piece, word in [(', ', '041fe4000000000000000009060b7208'), (', !', '041fe4000400000000000009060b7208')]:
    PTXAS_FORMS.append(ptxas_form('FSEL', ['FSEL ', ', ', '.reuse, ', c_piece, ''], word,
                                  [R, 'GPR 31:24', 'GPR 39:32', 'PRED 89:87']))
# STS with a .X16-scaled index ([79:78] = 3) for every size [75:73] (the learned forms had it for .128 only), with and
# without an offset [63:40]
for size, sbits in [('.U8', 0), ('.S8', 1), ('.U16', 2), ('.S16', 3), ('', 4), ('.64', 5)]:
    word = '%032x' % (int('004fe8000000c0000000000000007388', 16) | sbits << 73)
    PTXAS_FORMS.append(ptxas_form('STS' + size, ['STS%s [' % size, '.X16], ', ''], word, ['GPR 31:24', 'GPR 39:32']))
    PTXAS_FORMS.append(ptxas_form('STS' + size, ['STS%s [' % size, '.X16', '], ', ''], word,
                                  ['GPR 31:24', 'SHEX_PLUS 63:40', 'GPR 39:32']))
# HFMA2.BF16_V2 -RZ.H0_H0, RZ.H0_H0, c: ptxas's bf16 neg/abs (c negated [84], |c| [83], c's halves [82:81])
for c_pieces, word in [([', |', '|'], '004fca0000280902200000ffff077231'),
                       ([', |', '|.H0_H0'], '004fca00002c0902200000ffff007231'),
                       ([', -', ''], '004fca0000300902200000ffff077231'),
                       ([', -', '.H0_H0'], '004fca0000340902200000ffff037231')]:
    PTXAS_FORMS.append(ptxas_form('HFMA2.BF16_V2', ['HFMA2.BF16_V2 ', ', -', '.H0_H0, ', '.H0_H0' + c_pieces[0],
                                                    c_pieces[1]], word, [R, 'GPR 31:24', 'GPR 39:32', 'GPR 71:64'],
                                  sms=['sm_80', 'sm_86', 'sm_89', 'sm_90']))

# F2F.F16.F64 d, a.64 with a register source (key 0x310; ptxas writes the constant-bank form for a parameter): the
# destination type [76:75] = 1 (f16), the source [85:84] = 3 (f64), the rounding [79:78] a form each (the class
# composer replaces a rounding token in place and has none to replace on the round-to-nearest form)
for rnd, rbits in [('', 0), ('.RM', 1), ('.RP', 2), ('.RZ', 3)]:
    PTXAS_FORMS.append(ptxas_form('F2F.F16.F64' + rnd, ['F2F.F16.F64%s ' % rnd, ', ', ''],
                                  '000fe200%08x0000000400027310' % (0x300800 | rbits << 14), [R, 'GPR 39:32']))
# STL.U16 (size [75:73] = 2; st.local.b16) with and without an offset [63:40], as the learned STL.U8/STL.64 forms
for pieces, slots in [(['STL.U16 [', '], ', ''], ['GPR 31:24', 'GPR 39:32']),
                      (['STL.U16 [', '', '], ', ''], ['GPR 31:24', 'SHEX_PLUS 63:40', 'GPR 39:32'])]:
    PTXAS_FORMS.append(ptxas_form('STL.U16', pieces, '000fe40000100400000000020b007387', slots))
# LDC.U8 d, c[bank][Ra+off] (ld.const.b8 at a register address; sm_75/sm_80 learned it from the corpus)
PTXAS_FORMS.append(ptxas_form('LDC.U8', ['LDC.U8 ', ', c[', '][', '', ']'], '000124000000000000c0004000087b82',
                              [R, 'HEX 58:54', 'GPR 31:24', 'SHEX_PLUS 53:38'], sms=['sm_86', 'sm_89', 'sm_90']))
# BAR.SYNC with an immediate barrier [57:54] and a register count [39:32] (key 0x91d: barrier.sync 3, r); sm_75 has
# it from the corpus, sm_90 prints it as learned
PTXAS_FORMS.append(ptxas_form('BAR.SYNC', ['BAR.SYNC ', ', ', ''], '000fec000000000000c0000b0000791d',
                              ['HEX 57:54', 'GPR 39:32'], sms=['sm_80', 'sm_86', 'sm_89']))
# fp8 packs and unpacks (sm_89/sm_90, key 0x23e): PACK_AB_MERGE_C's format [76] (1 E4M3, 0 E5M2) and .RELU [75];
# UNPACK_B's format [73] (1 E4M3, 0 E5M2) and .RELU [75]; each combination a form (nvdisasm moves .RELU between
# tokens), c [71:64] of the pack
for fmt, fbit in [('E4M3', 1), ('E5M2', 0)]:
    for relu in (0, 1):
        mn = 'F2FP.SATFINITE.%s%s.F32.PACK_AB_MERGE_C' % ('RELU.' if relu else '', fmt)
        hi = 0x04806000 | fbit << 12 | relu << 11
        PTXAS_FORMS.append(ptxas_form(mn, [mn + ' ', ', ', ', ', ', ', ''], '000fe200%08x000000030201723e' % hi,
                                      [R, 'GPR 31:24', 'GPR 39:32', 'GPR 71:64'], sms=['sm_89', 'sm_90']))
        mn = 'F2FP.%sF16.%s.UNPACK_B' % ('RELU.' if relu else '', fmt)
        hi = 0x020004ff | fbit << 9 | relu << 11
        PTXAS_FORMS.append(ptxas_form(mn, [mn + ' ', ', ', ''], '000fe200%08x00000003ff01723e' % hi,
                                      [R, 'GPR 39:32'], sms=['sm_89', 'sm_90']))
# I2IP.S2 with all three sources' reuse flags [124:122], as ptxas writes it: a key with a .reuse form lets the
# emulator's decoder drop the flags of the other I2IP words it does not know
for sat, sms in [(0, ['sm_75', 'sm_80', 'sm_86', 'sm_89']), (0x4, ['sm_90'])]:
    PTXAS_FORMS.append(ptxas_form('I2IP.S2.S32.SAT', ['I2IP.S2.S32.SAT ', ', ', '.reuse, ', '.reuse, ', '.reuse.28'],
                                  '1d0fe400%08x0000000807097239' % ((0x53 | sat) << 8 | 6),
                                  [R, 'GPR 31:24', 'GPR 39:32', 'GPR 71:64'], sms=sms))
# sm_90's atomic adds of f16x2/bf16x2 (and f32/f64 at .SM/.SYS scope) through a memory descriptor, generic (ATOM, key
# 0x19a2) and global (ATOMG, 0x19a3): Pp [83:81], d, desc[URa] [69:64], a [31:24], offset [63:40], b [39:32]; the type
# and rounding fixed per form, the scope GPU/SM/SYS as ptxas's F32.FTZ words show it
# (SM clears [78]; SYS flips [80,79,77]); every combination nvdisasm printed from raw words
for typ, hi in [('F16x2', 0x0810e1c6), ('BF16x2', 0x0810e7c6), ('F32.FTZ', 0x0810f3c6), ('F64', 0x0810ffc6)]:
    for scope, flip in [('GPU', 0), ('SM', 0x4000), ('SYS', 0x1a000)]:
        for op, key in [('ATOM', 0x79a2), ('ATOMG', 0x79a3)]:
            mn = '%s.E.ADD.%s.RN.STRONG.%s' % (op, typ, scope)
            word = '000fe200%08x%016x' % (hi ^ flip, 9 << 32 | 2 << 24 | 1 << 16 | key)
            for pieces, slots in [([mn + ' ', ', ', ', desc[', '][', '.64], ', ''],
                                   ['PRED 83:81', R, 'UGPR 69:64', 'GPR 31:24', 'GPR 39:32']),
                                  ([mn + ' ', ', ', ', desc[', '][', '.64', '], ', ''],
                                   ['PRED 83:81', R, 'UGPR 69:64', 'GPR 31:24', 'SHEX_PLUS 63:40', 'GPR 39:32'])]:
                PTXAS_FORMS.append(ptxas_form(mn, pieces, word, slots, sms=['sm_90']))
# IADD3 with an immediate b (key 0x810), as ptxas 13 writes 64-bit adds and compares: a negated [72] with one carry-out
# [83:81] (the second, [86:84], PT and hidden), c negated [75] with two carry-outs, IADD3.X with a carry-out and the
# carry-ins [89:87] and !Pd ([80] set, Pd [79:77]), a inverted (~, as .X prints [72]); and IADD3.X with c inverted and
# no carry-out. A carry-out holding PT is hidden (the forms without it print those words).
for pieces, word, slots, excl in [
        (['IADD3 ', ', ', ', -', ', ', ', ', ''], '000fc80007f1e1ff0000003f04067810',
         [R, P, 'GPR 31:24', 'SHEX 63:32', 'GPR 71:64'], ['1=0x7']),
        (['IADD3 ', ', ', ', -', '.reuse, ', ', ', ''], '040fe40007f3e1ffffff800004087810',
         [R, P, 'GPR 31:24', 'SHEX 63:32', 'GPR 71:64'], ['1=0x7']),
        (['IADD3 ', ', ', ', ', ', ', ', ', ', -', ''], '000fe4000791e8102f76b2a3100c7810',
         [R, P, 'PRED 86:84', 'GPR 31:24', 'SHEX 63:32', 'GPR 71:64'], ['1=0x7', '2=0x7']),
        (['IADD3.X ', ', ', ', ', ', ', ', ', ', ', ', !', ''], '000fe2000071e4ff8000000000ff7810',
         [R, P, 'GPR 31:24', 'SHEX 63:32', 'GPR 71:64', 'PRED 89:87', 'PRED 79:77'], ['1=0x7']),
        (['IADD3.X ', ', ', ', ~', ', ', ', ', ', ', ', !', ''], '000fc8000071e5ff0000000103077810',
         [R, P, 'GPR 31:24', 'SHEX 63:32', 'GPR 71:64', 'PRED 89:87', 'PRED 79:77'], ['1=0x7']),
        (['IADD3.X ', ', ', ', ', ', ~', ', ', ', ', ''], '000fca00007e2c117549dbef110b7810',
         [R, 'GPR 31:24', 'SHEX 63:32', 'GPR 71:64', 'PRED 89:87', 'PRED 79:77'], [])]:
    PTXAS_FORMS.append(ptxas_form(pieces[0].split(' ')[0], pieces, word, slots, excl))
# FADD with an f32 immediate (key 0x421): |a| [73] and -|a| ([72] too) with any immediate (the learned forms had one
# literal), and guarded; the FADD class composes .FTZ [80], rounding [79:78], .SAT [77] and -a [72] onto them
for pieces, word, slots, excl in [
        (['FADD ', ', |', '|, ', ''], '000fe2000000020040e0000026267421', [R, 'GPR 31:24', 'F32 63:32'], []),
        (['FADD ', ', -|', '|, ', ''], '000fe2000000030040e0000026267421', [R, 'GPR 31:24', 'F32 63:32'], []),
        (['@', ' FADD ', ', ', ', ', ''], '001fe20000000000c34eb1fb0d140421',
         ['PRED 14:12', R, 'GPR 31:24', 'F32 63:32'], ['0=0x7']),
        (['@!', ' FADD ', ', ', ', ', ''], '001fe20000000000c34eb1fb0d148421',
         ['PRED 14:12', R, 'GPR 31:24', 'F32 63:32'], [])]:
    PTXAS_FORMS.append(ptxas_form('FADD', pieces, word, slots, excl))
EXTEND.append(('FADD', 1057, [FTZ, RND, SAT], [NEG_A]))
# HADD2 with a's halves selected ([75:74]: .H0_H0 2, .H1_H1 3), a negated [72] or |a| [73], b negated [63] with its
# halves .H0_H0 ([61:60] = 2): ptxas's f16 abs/neg (HADD2 R, |R|.H0_H0, -RZ.H0_H0); the HADD2 class composes .FTZ,
# .SAT and .F32
for a_pre, a_suf, b_pre, word in [('-', '.H0_H0', '-', '004fca0000000900a00000ff02037230'),
                                  ('|', '|.H0_H0', '-', '004fca0000000a00a00000ff02037230'),
                                  ('|', '|', '-', '004fca0000000200a00000ff02077230'),
                                  ('', '', '', '022fca0000000000200000080b097230'),
                                  ('-', '.H1_H1', '-', '000fc60000000d00a00000ff02037230'),
                                  ('|', '|.H1_H1', '-', '000fc60000000e00a00000ff02037230'),
                                  ('-', '.reuse.H0_H0', '-', '044fe40000000900a00000ff02007230'),
                                  ('|', '|.reuse.H0_H0', '-', '044fe40000000a00a00000ff02007230')]:
    PTXAS_FORMS.append(ptxas_form('HADD2', ['HADD2 ', ', ' + a_pre, a_suf + ', ' + b_pre, '.H0_H0'], word,
                                  [R, 'GPR 31:24', 'GPR 39:32']))
    if '.reuse' in a_suf or '.H1_H1' in a_suf:
        # (the composer leaves reuse forms alone: .FTZ [80], which ptxas writes there, is a form of its own; sm_75's
        # composed HADD2.FTZ R, |R|.H1_H1, -R.H0_H0 is refused as ambiguous, so that one is a form too)
        PTXAS_FORMS.append(ptxas_form('HADD2.FTZ', ['HADD2.FTZ ', ', ' + a_pre, a_suf + ', ' + b_pre, '.H0_H0'],
                                      '%032x' % (int(word, 16) | 1 << 80), [R, 'GPR 31:24', 'GPR 39:32']))
for guard, word in [('@', '008fca0000000900a00000ff00060230'), ('@!', '008fca0000000900a00000ff00068230')]:
    PTXAS_FORMS.append(ptxas_form('HADD2', [guard, ' HADD2 ', ', -', '.H0_H0, -', '.H0_H0'], word,
                                  ['PRED 14:12', R, 'GPR 31:24', 'GPR 39:32'], ['0=0x7'] if guard == '@' else []))
for guard, word in [('@', '008fca0000000a00a00000ff00060230'), ('@!', '008fca0000000a00a00000ff00068230')]:
    PTXAS_FORMS.append(ptxas_form('HADD2', [guard, ' HADD2 ', ', |', '|.H0_H0, -', '.H0_H0'], word,
                                  ['PRED 14:12', R, 'GPR 31:24', 'GPR 39:32'], ['0=0x7'] if guard == '@' else []))

# F2FP (key 0x23e) with every .SATFINITE [77] x .RELU [75] x .BF16 [76] x MERGE_C/PACK_AB [78] x .RZ [80:79], as ptxas
# writes cvt.{rn,rz}{.relu}{.satfinite}.{f16,bf16}{x2}.f32: PACK_AB d, a [31:24], b [39:32]; MERGE_C d, b [39:32],
# c [71:64] (the other register field holds RZ). sm_89/90 name the types .F16/.BF16 then .F32.
AMPERE_F2FP, ADA_F2FP = ['sm_80', 'sm_86'], ['sm_89', 'sm_90']
for sat, relu, bf16, merge, rz in itertools.product((0, 1), repeat=5):
    word = 0x004fca00000000ff000000070007723e | sat << 77 | relu << 75 | bf16 << 76 | merge << 78 | rz * 3 << 79
    regs = [R, 'GPR 39:32', 'GPR 71:64'] if merge else [R, 'GPR 31:24', 'GPR 39:32']
    if merge:
        word = word & ~(0xff << 24) | 0xff << 24
    for sms, types in [(AMPERE_F2FP, ['BF16'] if bf16 else []), (ADA_F2FP, ['BF16' if bf16 else 'F16', 'F32'])]:
        mn = '.'.join(['F2FP'] + ['SATFINITE'] * sat + ['RELU'] * relu + types + ['MERGE_C' if merge else 'PACK_AB']
                      + ['RZ'] * rz)
        PTXAS_FORMS.append(ptxas_form(mn, [mn + ' ', ', ', ', ', ''], '%032x' % word, regs, sms=sms))
# 32-bit generic LD/ST (keys 0x980, 0x385) with a 32-bit offset [63:32] (a zero one prints none: the forms without an
# offset print those words), guarded or not; ST's value is [71:64]. The memory classes compose sizes and orders
# (LD.E.U8.MMIO.SYS). sm_75 encodes these bits otherwise.
TURING_ON = ['sm_80', 'sm_86', 'sm_89', 'sm_90']
for guard, g in [('', 0x7), ('@', 0x1), ('@!', 0x9)]:
    pre = [guard] if guard else []
    gslot = ['PRED 14:12'] if guard else []
    at = len(gslot)
    excl = (['0=0x7'] if guard == '@' else [])
    PTXAS_FORMS.append(ptxas_form('LD.E.64', pre + [(' ' if guard else '') + 'LD.E.64 ', ', [', '', ']'],
                                  '000ea40000100b0000000040040a%x980' % g, gslot + [R, 'GPR 31:24', 'SHEX_PLUS 63:32'],
                                  excl + ['%d=0x0' % (at + 2)], TURING_ON))
    PTXAS_FORMS.append(ptxas_form('ST.E.64', pre + [(' ' if guard else '') + 'ST.E.64 [', '', '], ', ''],
                                  '0001e40000100b08000000400400%x385' % g,
                                  gslot + ['GPR 31:24', 'SHEX_PLUS 63:32', 'GPR 71:64'],
                                  excl + ['%d=0x0' % (at + 1)], TURING_ON))

# IADD3 with a uniform b [37:32] (key 0x1c10): -a with a carry-out, IADD3.X ~a with a carry-in and !Pd
PTXAS_FORMS.append(ptxas_form('IADD3', ['IADD3 ', ', ', ', -', ', ', ', ', ''], '000fc6000ff3e1ff00000004080f7c10',
                              [R, P, 'GPR 31:24', 'UGPR 37:32', 'GPR 71:64'], ['1=0x7']))
PTXAS_FORMS.append(ptxas_form('IADD3.X', ['IADD3.X ', ', ~', ', ', ', ', ', ', ', !', ''], '000fe40008ffe5ff000000050b0d7c10',
                              [R, 'GPR 31:24', 'UGPR 37:32', 'GPR 71:64', 'PRED 89:87', 'PRED 79:77']))
# Shared atomics with a .X16-scaled address ([79:78] = 3) and an offset [63:40] (a zero one excluded): ATOMS.ADD and
# .ADD.S32 [73] (key 0x38c; the ATOMS class composes the operation and .64), ATOMS.CAS and CAST.SPIN (0x38d)
for mn, word in [('ATOMS.ADD', '004e28000000c000002040001107738c'), ('ATOMS.ADD.S32', '004e28000000c200002040001107738c')]:
    PTXAS_FORMS.append(ptxas_form(mn, [mn + ' ', ', [', '.X16', '], ', ''], word,
                                  [R, 'GPR 31:24', 'SHEX_PLUS 63:40', 'GPR 39:32'], ['2=0x0']))
for mn, word in [('ATOMS.CAS', '008e28000000c00d0020400c0f0d738d'), ('ATOMS.CAST.SPIN', '000e24000180c003002040020703738d')]:
    PTXAS_FORMS.append(ptxas_form(mn, [mn + ' ', ', [', '.X16', '], ', ', ', ''], word,
                                  [R, 'GPR 31:24', 'SHEX_PLUS 63:40', 'GPR 39:32', 'GPR 71:64'], ['2=0x0']))

# LOP3.LUT with a predicate result [83:81] (PT hidden) and a plain predicate operand ([90] clear), .PAND [80] set or
# not; .PAND with !Pc too (the learned forms' lookup field [80:72] would print .PAND as a ninth bit of the table)
for mn, hi in [('LOP3.LUT', '008fca000000c106'), ('LOP3.LUT.PAND', '008fca0000011d06'),
               ('LOP3.LUT.PAND', '008fca0004011d06')]:
    c_pre = ', !' if hi[9] == '4' else ', '
    PTXAS_FORMS.append(ptxas_form(mn, [mn + ' ', ', ', ', ', ', ', ', ', ', ', c_pre, ''], hi + '0000000500077212',
                                  [P, R, 'GPR 31:24', 'GPR 39:32', 'GPR 71:64', 'HEX 79:72', 'PRED 89:87'], ['0=0x7']))
    if c_pre == ', !':
        PTXAS_FORMS.append(ptxas_form(mn, [mn + ' ', ', ', ', ', ', ', ', ', c_pre, ''], hi[:10] + '0f' + hi[12:]
                                      + '0000000500077212',
                                      [R, 'GPR 31:24', 'GPR 39:32', 'GPR 71:64', 'HEX 79:72', 'PRED 89:87']))
PTXAS_FORMS.append(ptxas_form('LOP3.LUT.PAND', ['@', ' LOP3.LUT.PAND ', ', ', ', ', ', ', ', ', ', ', ', ', ''],
                              '020fe20000032d060000000500092212',
                              ['PRED 14:12', P, R, 'GPR 31:24', 'GPR 39:32', 'GPR 71:64', 'HEX 79:72', 'PRED 89:87'],
                              ['0=0x7', '1=0x7']))
# PLOP3 on registers' sign bits (key 0x21f): Pp [83:81], Pq [86:84], a [31:24], b [39:32], c [71:64], the lookup
# tables [79:72] and [23:16]; guarded or not
for pieces, word, gslot, excl in [([], '000fe40000700200000000060700721f', [], []),
                                  (['@'], '000fe40000720208000000060900021f', ['PRED 14:12'], ['0=0x7'])]:
    head = (' ' if pieces else '') + 'PLOP3.LUT '
    PTXAS_FORMS.append(ptxas_form('PLOP3.LUT', pieces + [head, ', ', ', ', '.SIGN, ', '.SIGN, ', '.SIGN, ', ', ', ''],
                                  word, gslot + [P, 'PRED 86:84', 'GPR 31:24', 'GPR 39:32', 'GPR 71:64', 'HEX 79:72',
                                                 'HEX 23:16'], excl))
# UIMAD.WIDE.U32 with an immediate b and a carry-out UPp [83:81] (UPT hidden); .X with a carry-in [89:87]
PTXAS_FORMS.append(ptxas_form('UIMAD.WIDE.U32', ['UIMAD.WIDE.U32 ', ', ', ', ', ', ', ', ', ''],
                              '000fe2000f80003f80000000040478a5',
                              ['UGPR 21:16', 'UPRED 83:81', 'UGPR 29:24', 'SHEX 63:32', 'UGPR 69:64'], ['1=0x7']))
PTXAS_FORMS.append(ptxas_form('UIMAD.WIDE.U32.X', ['UIMAD.WIDE.U32.X ', ', ', ', ', ', ', ', ', ''],
                              '000fc800080e040680000000080478a5',
                              ['UGPR 21:16', 'UGPR 29:24', 'SHEX 63:32', 'UGPR 69:64', 'UPRED 89:87']))

# HFMA2 with .RELU [79] (fma.rn{.ftz}.relu.{f16,bf16}{x2}; sm_80 on): .FTZ [80], .BF16_V2 [85]; ptxas's words hold
# [89:87] = 7 where the learned plain forms hold 0, so each is a form of its own from ptxas's word
for mn, word in [('HFMA2.RELU', '000fe200038080040000000500057231'),
                 ('HFMA2.FTZ.RELU', '000fe200038180040000000500097231'),
                 ('HFMA2.BF16_V2.RELU', '000fe20003a080040000000500057231')]:
    PTXAS_FORMS.append(ptxas_form(mn, [mn + ' ', ', ', ', ', ', ', ''], word,
                                  [R, 'GPR 31:24', 'GPR 39:32', 'GPR 71:64'], sms=['sm_80', 'sm_86', 'sm_89', 'sm_90']))

# FMNMX / HMNMX2 with .XORSIGN [82] and |a| |b| ([73], [62]) (min/max.xorsign.abs, sm_86 on): .FTZ [80], .NAN [81],
# .BF16_V2 [85] (HMNMX2), !Pp [90]; every combination a form, spelled as nvdisasm prints the raw words
for op, lo, types in [('FMNMX', 0x4000000500077209, [0]), ('HMNMX2', 0x4000000500077240, [0, 1])]:
    for bf16, ftz, nan, neg in itertools.product(types, (0, 1), (0, 1), (0, 1)):
        if bf16 and ftz:
            continue  # (PTX has no .ftz on bf16 min/max)
        mn = '.'.join([op] + ['BF16_V2'] * bf16 + ['FTZ'] * ftz + ['NAN'] * nan + ['XORSIGN'])
        hi = 0x000fe20003840200 | bf16 << 21 | ftz << 16 | nan << 17 | neg << 26
        PTXAS_FORMS.append(ptxas_form(mn, [mn + ' ', ', |', '|, |', '|, ' + '!' * neg, ''], '%016x%016x' % (hi, lo),
                                      [R, 'GPR 31:24', 'GPR 39:32', 'PRED 89:87'], sms=['sm_86', 'sm_89', 'sm_90']))
# Words ptxas 13 writes in the random differential programs (cli RandomProgramDifferentialTest; cli's
# RandomUnknownWordsCensus lists every word of ptxas's cubins the decoder does not know): one form per word shape
# (reuse flags, guard, operand decorations), its fields found by single-bit flips in raw mode (tools/sass-probe/
# derive-form.py: a bit belongs to an operand's field when flipping it changes only that operand's register number,
# immediate or constant bank/offset), each checked on ptxas's word and random field values against nvdisasm.
# form-suite-forms.json: the same for the words of ptxas's cubins of the instruction-form suite (cli
# UnknownWordsReportTest's examples, one word per SM and nvdisasm skeleton).
_rows = []
for _name in ('random-program-forms.json', 'form-suite-forms.json'):
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), _name)) as _f:
        _rows += json.load(_f)
for _r in _rows:
    PTXAS_FORMS.append(ptxas_form(_r['mnemonic'], _r['pieces'], _r['word'], _r['slots'], _r['exclude'], [_r['sm']]))
    if _r['pieces'][0] == '@' and _r['slots'][0].startswith('PRED 14:12'):
        # the same word under @PT, which nvdisasm prints without a guard: a form of its own, so the guarded one
        # never decodes it as "@PT ..." (a guarded form's exclusions name its slots one higher)
        _ex = ['&'.join('%d=%s' % (int(t.split('=')[0]) - 1, t.split('=')[1]) for t in e.split('&'))
               for e in _r['exclude'] if not any(t.startswith('0=') for t in e.split('&'))]
        _w = int(_r['word'], 16) & ~(0xf << 12) | 7 << 12
        PTXAS_FORMS.append(ptxas_form(_r['mnemonic'], [_r['pieces'][1].lstrip()] + _r['pieces'][2:], '%032x' % _w,
                                      _r['slots'][1:], _ex, [_r['sm']]))

# Composed spellings the forms above already hold (an operand class's '-' on a form ptxas wrote with it), or that
# nvdisasm prints otherwise ('-' on LEA.X's b is '~'): refused in the classes, so no composed form shadows or
# misprints them. (class mnemonic, key, skeletons; each also refused guarded.)
REFUSE = [('DADD', 1577, ['DADD {}, -{}, c[{}][{}]'], None),
          # .64 with .S32 is no operation nvdisasm names (as on the learned ATOMS forms)
          ('ATOMS', 908, ['ATOMS.%s.64.S32 {}, [{}.X16{}], {}' % op for op in
                          ('ADD', 'MIN', 'MAX', 'INC', 'DEC', 'AND', 'OR', 'XOR', 'EXCH')], None),
          ('ISETP', 2060, ['ISETP.EQ.AND.EX {}, {}, {}, {}, {}, {}'], ['sm_75', 'sm_80', 'sm_86', 'sm_89']),
          ('LEA', 529, ['LEA.X {}, {}, -{}, {}, {}'], None),
          # sm_90's 128-bit shared CAS has no .64 (nvdisasm prints the size as INVALID6); the class is sm_90's overlay
          # copy of the base class, so that only there it refuses the combination
          ('ATOMS', 909, ['ATOMS.%s.64.128 {}, %s, {}, {}' % (op, addr) for op in ('CAS', 'CAST', 'CAST.SPIN')
                          for addr in ('[{}]', '[{}{}]')], ['sm_90'])]

# Spellings the classes compose onto the forms above that nvdisasm prints otherwise, or that a more specific form
# always decodes first (SassModifierOracleTest's failures on them): refused in every class of the mnemonic (key None).
for mnemonic, skeletons in [["ATOMS", ["ATOMS.CAS.64.SPIN {}, [{}.X16{}], {}, {}", "ATOMS.CAS.SPIN {}, [{}.X16{}], {}, {}", "ATOMS.CAST.64.SPIN {}, [{}.X16{}], {}, {}"]],
    ["FADD", ["FADD {}, -{}, {}", "FADD {}, {}, {}"]],
    ["HADD2", ["HADD2 {}, |{}.F32|.H0_H0, -{}.H0_H0", "HADD2.F32 {}, |{}.F32|.H0_H0, -{}.H0_H0", "HADD2.F32 {}, |{}|, {}.H0_H0", "HADD2.F32 {}, |{}|.H0_H0, {}.H0_H0", "HADD2.F32 {}, |{}|.H1_H1, -{}.H0_H0", "HADD2.F32 {}, |{}|.H1_H1, {}.H0_H0", "HADD2.F32.FTZ {}, |{}.F32|.H0_H0, -{}.H0_H0", "HADD2.F32.FTZ {}, |{}|, {}.H0_H0", "HADD2.F32.FTZ {}, |{}|.H0_H0, {}.H0_H0", "HADD2.F32.FTZ {}, |{}|.H1_H1, -{}.H0_H0", "HADD2.F32.FTZ {}, |{}|.H1_H1, {}.H0_H0", "HADD2.F32.FTZ.SAT {}, |{}.F32|.H0_H0, -{}.H0_H0", "HADD2.F32.FTZ.SAT {}, |{}|, {}.H0_H0", "HADD2.F32.FTZ.SAT {}, |{}|.H0_H0, {}.H0_H0", "HADD2.F32.FTZ.SAT {}, |{}|.H1_H1, -{}.H0_H0", "HADD2.F32.FTZ.SAT {}, |{}|.H1_H1, {}.H0_H0", "HADD2.F32.SAT {}, |{}.F32|.H0_H0, -{}.H0_H0", "HADD2.F32.SAT {}, |{}|, {}.H0_H0", "HADD2.F32.SAT {}, |{}|.H0_H0, {}.H0_H0", "HADD2.F32.SAT {}, |{}|.H1_H1, -{}.H0_H0", "HADD2.F32.SAT {}, |{}|.H1_H1, {}.H0_H0", "HADD2.FTZ {}, |{}.F32|.H0_H0, -{}.H0_H0", "HADD2.FTZ.SAT {}, |{}.F32|.H0_H0, -{}.H0_H0", "HADD2.FTZ.SAT {}, |{}|.H1_H1, -{}.H0_H0", "HADD2.SAT {}, |{}.F32|.H0_H0, -{}.H0_H0", "HADD2.SAT {}, |{}|.H1_H1, -{}.H0_H0"]],
    ["IADD3", ["IADD3 {}, {}, -{}, -{}, {}", "IADD3.X {}, {}, {}, ~{}, {}, {}", "IADD3.X {}, ~{}, -{}, {}, {}, !{}", "IADD3.X {}, ~{}, {}, -{}, {}, !{}"]],
    ["UIMAD", ["UIMAD.WIDE.U32.X {}, {}, {}, -{}, {}", "UIMAD.WIDE.X {}, {}, {}, -{}, {}"]]]:
    REFUSE.append((mnemonic, None, skeletons, None))

def refuse_duplicates(sm, mods):
    for mnemonic, key, skeletons, sms in REFUSE:
        if sms is not None and sm not in sms:
            continue
        for c in mods['classes']:
            if c['mnemonic'] == mnemonic and key in (None, c['key']):
                keys = set(c['refused'])
                for sk in skeletons:
                    keys |= {sk, '@{} ' + sk, '@!{} ' + sk}
                c['refused'] = sorted(keys)


def spell(mnemonic, groups, bits, combo):
    """The mnemonic with the enums' values of combo, as the composer spells it: a form whose tokens all belong to
    enums prints them in the enums' order; otherwise each enum's token is replaced in place (fixed tokens stay)."""
    tokens = mnemonic.split('.')
    current = [next(n for n, v in g['values'].items() if int(v, 16) == extract(bits, g['bits'])) for g in groups]
    if len(tokens) - 1 == sum(1 for n in current if n):
        return '.'.join([tokens[0]] + [name for name, _ in combo if name])
    out = list(tokens)
    for cur, (name, _) in zip(current, combo):
        if not cur and not name:
            continue
        if not cur or cur not in out[1:]:
            return None  # no token to replace (HADD2.F32 where .F32 is fixed): the composer leaves the form alone
        out[out.index(cur, 1)] = name
    return '.'.join(t for t in out if t)

def operand_variants(pieces, slots, groups, at=0):
    """The pieces with one operand group's non-empty value shown on its register operand (a prefix ends the piece
    before the operand, a suffix starts the one after it); none where the operand already shows a modifier."""
    out = []
    for g in groups:
        op = g['operand'] + at if g['operand'] >= 0 else -1  # a guard is operand 0 of the pieces
        if op < 0 or op >= len(slots) or not slots[op].startswith('GPR'):
            continue
        for name in g['values']:
            if not name:
                continue
            v = list(pieces)
            if g['side'] == 'prefix':
                if v[op] and v[op][-1] in '-!~|':
                    continue
                v[op] += name
            else:
                if v[op + 1].startswith('.'):
                    continue
                v[op + 1] = name + v[op + 1]
            out.append(v)
    return out

def main():
    for sm, (module, pkg) in SMS.items():
        if len(sys.argv) > 1 and sm not in sys.argv[1:]:
            continue
        n = sm[3:]
        sass = os.path.join(ROOT, module, 'src/main/resources/org/jptxas/backend', pkg, 'sass')
        forms_path, mods_path = os.path.join(sass, 'sm%s.json' % n), os.path.join(sass, 'modifiers-sm%s.json' % n)
        overlay, mods = load(forms_path), load(mods_path)
        all_forms = load(BASE)['forms'] + overlay['forms']
        have = {(f['key'], ''.join(f['pieces']), tuple(f['slots'])) for f in all_forms}
        # I2IP with an immediate b: the learned register form's bits (sm_90 holds .SAT in another bit) at opcode 0x839
        i2ip = [f for f in all_forms if f['key'] == 569 and f['mnemonic'] == 'I2IP.S8.S32.SAT']
        extra = [form(f['mnemonic'], 2105, f['pieces'], int(f['bits'], 16) & ~0xfff | 0x839,
                      ['GPR 23:16', 'GPR 31:24', 'HEX 63:32', 'GPR 71:64']) for f in i2ip[:1]]
        for f in FORMS + extra + [p for p in PTXAS_FORMS if p['sms'] is None or sm in p['sms']]:
            f = {k: v for k, v in f.items() if k != 'sms'}
            if (f['key'], ''.join(f['pieces']), tuple(f['slots'])) not in have:
                overlay['forms'].append(f)
                all_forms.append(f)
        only = os.environ.get('ONLY')
        base_mods = {(c['mnemonic'], c['key']): c for c in load(BASE_MODS)['classes']}
        base_mods.update({(c['mnemonic'], c['key']): c for c in mods['classes']})
        extended = []
        for mnemonic, key, new, operands in EXTEND:
            lead = False  # whether the class's own mnemonic groups print before the new ones
            new = [g for g in new if g['bits'] not in SM_IGNORED.get(sm, {}).get(mnemonic, ())]
            if sm == 'sm_90' and mnemonic in ('HMUL2', 'HADD2'):
                lead = True  # HADD2.BF16_V2.FTZ.SAT
                # sm_90 prints INVALID1 for HMUL2's [78], and HADD2.F32 refuses .BF16_V2 on layouts ptxas showed
                # only under a guard: the learned HADD2.F32 forms stay, none is composed
                new = [g for g in new if g is not F32]
            old = base_mods.get((mnemonic, key), {'groups': []})['groups']
            bits = {g['bits'] for g in new + operands}
            # an old group sharing bits with a new one of the same side goes (HADD2's learned -b [63] under [63:62])
            kept = [g for g in old if g['bits'] not in bits and
                    not set(positions(g['bits'])) & set(p for n in (operands if g['operand'] >= 0 else new)
                                                             for p in positions(n['bits']))]
            mnem = [g for g in kept if g['operand'] < 0]
            extended.append((mnemonic, key, (mnem + new if lead else new + mnem) + operands
                             + [g for g in kept if g['operand'] >= 0]))
        for mnemonic, key, groups in CLASSES + extended:
            if only and mnemonic not in only.split(','):
                continue
            groups = SM_EXTRA.get(sm, {}).get(mnemonic, []) + groups
            if mnemonic in ('I2F', 'F2I'):
                groups = [SM_REPLACE.get(sm, {}).get(g['bits'], g) for g in groups]
            mnem_groups = [g for g in groups if g['operand'] < 0]
            combos = list(itertools.product(*[list(g['values'].items()) for g in mnem_groups]))
            # only the forms the composer spells every combination on
            spellable = lambda f: all(spell(f['mnemonic'], mnem_groups, int(f['bits'], 16), c) is not None
                                      for c in combos)
            plain = [f for f in all_forms if f['key'] == key and f['mnemonic'].split('.')[0] == mnemonic
                     and not f['pieces'][0].startswith('@') and '.reuse' not in ''.join(f['pieces'])
                     and spellable(f)]
            if not plain:
                sys.exit('%s: no %s form of key %d' % (sm, mnemonic, key))
            every = [f for f in all_forms if f['key'] == key and f['mnemonic'].split('.')[0] == mnemonic
                     and '.reuse' not in ''.join(f['pieces']) and spellable(f)]
            # Forms by operand layout; the register layout first. A combination nvdisasm refuses there is refused for
            # every layout; the others are read again (a 32-bit source prints no .H1 half or .B3 byte selector).
            layouts = {}
            for f in plain:
                layouts.setdefault((tuple(f['pieces'][1:]), tuple(f['slots'])), []).append(f)
            order = sorted(layouts, key=lambda k: not all(s.startswith(('GPR', 'PRED')) for s in k[1]))
            refused, dead = set(), set()
            for layout in order:
                ex = layouts[layout][0]
                word = int(ex['bits'], 16) | 0x000fe200 << 64 + 32 | 7 << 12
                regs = iter([2, 4, 6, 8])
                for sl in ex['slots']:
                    kind, rng = sl.split(' ')[:2] if ' ' in sl else (sl, '')
                    if kind == 'GPR':
                        word = insert(word, rng, next(regs))
                    elif kind == 'PRED':
                        word = insert(word, rng, 7 if rng.startswith(('86', '89')) else 0)
                base_text, = texts([word], sm)
                operands = base_text.split(' ', 1)[1] if base_text and ' ' in base_text else ''
                todo = [c for c in combos if c not in dead]
                words = []
                for combo in todo:
                    w = word
                    for g, (_, v) in zip(mnem_groups, combo):
                        w = insert(w, g['bits'], int(v, 16))
                    words.append(w)
                read = texts(words, sm)
                for combo, text in zip(todo, read):
                    spelled = spell(ex['mnemonic'], mnem_groups, int(ex['bits'], 16), combo)
                    if text is not None and text == (spelled + ' ' + operands).strip():
                        continue
                    if layout == order[0]:
                        dead.add(combo)
                    # a combination dead on the register layout is refused on every form of the class, guarded
                    # ones too (a layout ptxas showed only under a guard composes as well)
                    for f in (every if layout == order[0] else layouts[layout]):
                        pieces = list(f['pieces'])
                        at = 1 if pieces[0].startswith('@') else 0
                        pieces[at] = pieces[at].replace(f['mnemonic'], spelled, 1)
                        lit = [x[1:] if x.startswith('=') else '_' for x in f['slots']]
                        lits = any(x != '_' for x in lit)
                        # the composer also spells the combination with one operand modifier on top (-a, |b|)
                        for variant in [pieces] + operand_variants(pieces, f['slots'], groups, at):
                            sk = '{}'.join(variant)
                            refused.add(sk + (' [' + ','.join(lit) + ']' if lits else ''))
                            for guard in (('@{} ', '@!{} ') if at == 0 else ()):
                                refused.add(guard + sk + (' [_,' + ','.join(lit) + ']' if lits else ''))
            cls = {'mnemonic': mnemonic, 'key': key, 'groups': groups, 'refused': sorted(refused)}
            at = [i for i, c in enumerate(mods['classes']) if (c['mnemonic'], c['key']) == (mnemonic, key)]
            if at:
                mods['classes'][at[0]] = cls
            else:
                mods['classes'].append(cls)
            print('%s %s/%d: %d combinations, %d refused by nvdisasm, %d refused spellings' % (sm, mnemonic, key,
                  len(combos), len(dead), len(refused)))
        refuse_duplicates(sm, mods)
        # a word's form and its unguarded @PT copy can equal a form already added: the tables keep each form once
        unique = {}
        for f in overlay['forms']:
            unique.setdefault(json.dumps(f, sort_keys=True), f)
        overlay['forms'] = list(unique.values())
        save(forms_path, overlay)
        save(mods_path, mods)

if __name__ == '__main__':
    main()
