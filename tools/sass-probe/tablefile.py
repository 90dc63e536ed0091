"""The probe's tables on disk, in the layout they are committed in (one entry per line, so diffs show entries)."""
import json

COMPACT = (',', ':')
# the members of a form the form-adding scripts write, in the tables' order
FORM_KEYS = ('mnemonic', 'key', 'pieces', 'mask', 'bits', 'slots', 'exclude')


def load(path):
    with open(path) as f:
        return json.load(f)


def save(path, data, separators=COMPACT):
    """Writes a table.

    A dict (a JSON table): its header (the members that are not lists) on the first line, then each list one entry
    per line, the entries written with `separators` (the SASS tables' compact ones by default; table-rules.json
    keeps json.dumps's default ones). A list (a TSV table): one line per row, a row given as a list is joined by
    tabs, one given as a string (a comment) is written as it is."""
    with open(path, 'w') as f:
        if not isinstance(data, dict):
            for row in data:
                f.write((row if isinstance(row, str) else '\t'.join(row)) + '\n')
            return
        head = {k: v for k, v in data.items() if not isinstance(v, list)}
        lists = [(k, v) for k, v in data.items() if isinstance(v, list)]
        f.write(json.dumps(head)[:-1])
        for n, (name, entries) in enumerate(lists):
            f.write((',\n' if head or n else '') + '"%s": [\n' % name)
            if entries:
                f.write(',\n'.join(json.dumps(e, separators=separators) for e in entries) + '\n')
            f.write(']')
        f.write('}\n')


def append_forms(path, forms):
    """Appends `forms` (their FORM_KEYS members) to the form list of a SASS table, the other entries as they are."""
    data = load(path)
    data['forms'] += [{k: f[k] for k in FORM_KEYS} for f in forms]
    save(path, data)
