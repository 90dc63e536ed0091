#!/usr/bin/env python3
"""Forms for the words RandomProgramWordsTest still lists open, as rows of random-program-forms.json.

For each word of isel-common's random-program-words-open.txt: derive its form by single-bit flips in nvdisasm's raw
mode (derive-form.py; an immediate field is one contiguous run from its lowest bit, LEA's shift [79:75]), one row per
SM and word shape, and check each row on four words with random field values: nvdisasm's texts of those go to a
words file for cli's WordTextCheck (-Djptxas.words=FILE) once the tables hold the rows.
  tools/sass-probe/open-word-forms.py ROWS.json CHECKS.tsv
Then append ROWS.json to random-program-forms.json, run field-enums.py (it adds the forms the tables lack) and
table-rules, and run RandomProgramWordsTest and WordTextCheck.
"""
import importlib.util, json, os, random, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from nvtext import texts

_spec = importlib.util.spec_from_file_location('derive_form', os.path.join(HERE, 'derive-form.py'))
derive_form = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(derive_form)
OPEN = os.path.join(HERE, '..', '..', 'isel-common/src/test/resources/org/jptxas/sass/random-program-words-open.txt')


def contiguous(slot):
    kind, rng = slot.split(' ')[:2]
    hi, lo = map(int, rng.split(':'))
    if kind in ('HEX', 'SHEX') and (hi - lo >= 32 or (lo == 75 and hi > 79)):
        hi = lo + 4 if lo == 75 else lo + 31
    return '%s %d:%d' % (kind, hi, lo)


def random_fields(word, slots, rnd):
    for slot in slots:
        kind, rng = slot.split(' ')[:2]
        hi, lo = map(int, rng.split(':'))
        if kind == 'GPR':
            value = rnd.randrange(0, 255)
        elif kind == 'UGPR':
            value = rnd.randrange(0, 63)
        elif kind in ('PRED', 'UPRED'):
            value = rnd.randrange(0, 7)
        else:
            value = rnd.getrandbits(hi - lo + 1)
        mask = ((1 << (hi - lo + 1)) - 1) << lo
        word = word & ~mask | (value << lo) & mask
    return word


def main(rows_path, checks_path):
    rows, checks, seen = [], [], set()
    rnd = random.Random(20)
    for line in open(OPEN):
        if line.startswith('#') or not line.strip():
            continue
        sm, hex_word, text = line.rstrip('\n').split('\t')
        word = int(hex_word, 16)
        derived, why = derive_form.derive(sm, word, text, False)
        if derived is None:
            print('%s %s: %s' % (sm, text, why), file=sys.stderr)
            continue
        mnemonic, pieces, slots, _ = derived
        slots = [contiguous(s) for s in slots]
        checks.append((sm, hex_word, text))
        shape = (sm, mnemonic, tuple(pieces), tuple(slots))
        if shape in seen:
            continue
        seen.add(shape)
        rows.append({'sm': sm, 'word': hex_word, 'text': text, 'mnemonic': mnemonic, 'pieces': pieces,
                     'slots': slots, 'exclude': []})
        variants = [random_fields(word, slots, rnd) for _ in range(4)]
        for v, t in zip(variants, texts(variants, sm)):
            if t:
                checks.append((sm, '%032x' % v, t))
    with open(rows_path, 'w') as f:
        f.write('[\n' + ',\n'.join(json.dumps(r, separators=(',', ':')) for r in rows) + '\n]\n')
    with open(checks_path, 'w') as f:
        f.writelines('\t'.join(c) + '\n' for c in checks)
    print('%d rows, %d words to check' % (len(rows), len(checks)), file=sys.stderr)


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
