#!/usr/bin/env python3
"""Writes one PTX kernel per warp-level matrix form (mma, mma.sp, wmma.load/store/mma, ldmatrix, stmatrix,
movmatrix), a superset of what ptxas accepts: the oracle decides legality per SM, jptxas is then asked the same.

usage: mma-inventory.py OUT_DIR      (writes OUT_DIR/<name>.ptx and OUT_DIR/forms.tsv: name, group, instruction)
"""
import itertools
import os
import sys

FORMS = []  # (name, group, regs {file: count}, body lines, needs 64-bit addr)


def add(group, text, frags, extra=""):
    """frags: list of (kind, count, regtype) for the braces in text, in order, substituted as {0}, {1}, ..."""
    FORMS.append((group, text, frags, extra))


def mma_dense():
    f16acc = ["f16", "f32"]
    for al, bl in itertools.product(["row", "col"], repeat=2):
        for d, c in itertools.product(f16acc, repeat=2):
            add("mma.m8n8k4.f16", f"mma.sync.aligned.m8n8k4.{al}.{bl}.{d}.f16.f16.{c}",
                [("d", 4 if d == "f16" else 8, d), ("a", 2, "b32"), ("b", 2, "b32"), ("c", 4 if c == "f16" else 8, c)])
    add("mma.f64", "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64",
        [("d", 2, "f64"), ("a", 1, "f64"), ("b", 1, "f64"), ("c", 2, "f64")])
    for shape, a, b, cn in [("m16n8k4", 2, 1, 4), ("m16n8k8", 4, 2, 4), ("m16n8k16", 8, 4, 4)]:
        add("mma.f64", f"mma.sync.aligned.{shape}.row.col.f64.f64.f64.f64",
            [("d", cn, "f64"), ("a", a, "f64"), ("b", b, "f64"), ("c", cn, "f64")])
    for shape, a, b in [("m16n8k8", 2, 1), ("m16n8k16", 4, 2)]:
        for d, c in itertools.product(f16acc, repeat=2):
            add("mma.f16", f"mma.sync.aligned.{shape}.row.col.{d}.f16.f16.{c}",
                [("d", 2 if d == "f16" else 4, d), ("a", a, "b32"), ("b", b, "b32"), ("c", 2 if c == "f16" else 4, c)])
        add("mma.bf16", f"mma.sync.aligned.{shape}.row.col.f32.bf16.bf16.f32",
            [("d", 4, "f32"), ("a", a, "b32"), ("b", b, "b32"), ("c", 4, "f32")])
    for shape, a, b in [("m16n8k4", 2, 1), ("m16n8k8", 4, 2)]:
        add("mma.tf32", f"mma.sync.aligned.{shape}.row.col.f32.tf32.tf32.f32",
            [("d", 4, "f32"), ("a", a, "b32"), ("b", b, "b32"), ("c", 4, "f32")])
    ints = [("8", [("m8n8k16", 1, 1, 2), ("m16n8k16", 2, 1, 4), ("m16n8k32", 4, 2, 4)]),
            ("4", [("m8n8k32", 1, 1, 2), ("m16n8k32", 2, 1, 4), ("m16n8k64", 4, 2, 4)])]
    for bits, shapes in ints:
        for shape, a, b, cn in shapes:
            for ta, tb in itertools.product(["s", "u"], repeat=2):
                for sat in ["", ".satfinite"]:
                    add(f"mma.int{bits}", f"mma.sync.aligned.{shape}.row.col{sat}.s32.{ta}{bits}.{tb}{bits}.s32",
                        [("d", cn, "s32"), ("a", a, "b32"), ("b", b, "b32"), ("c", cn, "s32")])
    for shape, a, b, cn in [("m8n8k128", 1, 1, 2), ("m16n8k128", 2, 1, 4), ("m16n8k256", 4, 2, 4)]:
        for op in ["and", "xor"]:
            add("mma.b1", f"mma.sync.aligned.{shape}.row.col.s32.b1.b1.s32.{op}.popc",
                [("d", cn, "s32"), ("a", a, "b32"), ("b", b, "b32"), ("c", cn, "s32")])
    for shape, a, b in [("m16n8k32", 4, 2), ("m16n8k16", 2, 1)]:
        for ta, tb in itertools.product(["e4m3", "e5m2"], repeat=2):
            for d in ["f32", "f16"]:
                cn = 4 if d == "f32" else 2
                add("mma.fp8", f"mma.sync.aligned.{shape}.row.col.{d}.{ta}.{tb}.{d}",
                    [("d", cn, d), ("a", a, "b32"), ("b", b, "b32"), ("c", cn, d)])


def mma_sparse():
    for ordered in ["sp", "sp::ordered_metadata"]:
        for shape, a, b in [("m16n8k16", 2, 2), ("m16n8k32", 4, 4)]:
            for d, c in [("f16", "f16"), ("f32", "f32"), ("f16", "f32"), ("f32", "f16")]:
                add("mma.sp.f16", f"mma.{ordered}.sync.aligned.{shape}.row.col.{d}.f16.f16.{c}",
                    [("d", 2 if d == "f16" else 4, d), ("a", a, "b32"), ("b", b, "b32"),
                     ("c", 2 if c == "f16" else 4, c), ("e", 1, "b32")], ", 0x0")
            add("mma.sp.bf16", f"mma.{ordered}.sync.aligned.{shape}.row.col.f32.bf16.bf16.f32",
                [("d", 4, "f32"), ("a", a, "b32"), ("b", b, "b32"), ("c", 4, "f32"), ("e", 1, "b32")], ", 0x0")
        for shape, a, b in [("m16n8k8", 2, 2), ("m16n8k16", 4, 4)]:
            add("mma.sp.tf32", f"mma.{ordered}.sync.aligned.{shape}.row.col.f32.tf32.tf32.f32",
                [("d", 4, "f32"), ("a", a, "b32"), ("b", b, "b32"), ("c", 4, "f32"), ("e", 1, "b32")], ", 0x0")
        for bits, shapes in [("8", [("m16n8k32", 2, 2), ("m16n8k64", 4, 4)]),
                             ("4", [("m16n8k64", 2, 2), ("m16n8k128", 4, 4)])]:
            for shape, a, b in shapes:
                for ta, tb in itertools.product(["s", "u"], repeat=2):
                    for sat in ["", ".satfinite"]:
                        add(f"mma.sp.int{bits}",
                            f"mma.{ordered}.sync.aligned.{shape}.row.col{sat}.s32.{ta}{bits}.{tb}{bits}.s32",
                            [("d", 4, "s32"), ("a", a, "b32"), ("b", b, "b32"), ("c", 4, "s32"), ("e", 1, "b32")],
                            ", 0x0")
        for ta, tb in itertools.product(["e4m3", "e5m2"], repeat=2):
            for d in ["f32", "f16"]:
                cn = 4 if d == "f32" else 2
                add("mma.sp.fp8", f"mma.{ordered}.sync.aligned.m16n8k64.row.col.{d}.{ta}.{tb}.{d}",
                    [("d", cn, d), ("a", 4, "b32"), ("b", 4, "b32"), ("c", cn, d), ("e", 1, "b32")], ", 0x0")


# wmma: (type family, shape, a regs, b regs, c/d regs per accumulator type, accumulator types, layouts)
WMMA = [
    ("f16", "m16n16k16", 8, 8), ("f16", "m32n8k16", 8, 8), ("f16", "m8n32k16", 8, 8),
    ("bf16", "m16n16k16", 4, 4), ("bf16", "m32n8k16", 8, 2), ("bf16", "m8n32k16", 2, 8),
    ("s8", "m16n16k16", 2, 2), ("s8", "m32n8k16", 4, 1), ("s8", "m8n32k16", 1, 4),
    ("u8", "m16n16k16", 2, 2), ("u8", "m32n8k16", 4, 1), ("u8", "m8n32k16", 1, 4),
    ("tf32", "m16n16k8", 4, 4), ("f64", "m8n8k4", 1, 1), ("s4", "m8n8k32", 1, 1), ("u4", "m8n8k32", 1, 1),
    ("b1", "m8n8k128", 1, 1),
]


def acc_types(t):
    if t == "f16":
        return ["f16", "f32"]
    if t in ("bf16", "tf32"):
        return ["f32"]
    if t == "f64":
        return ["f64"]
    return ["s32"]


def acc_regs(shape, acc):
    if shape in ("m8n8k4", "m8n8k32", "m8n8k128"):
        return 2
    return 4 if acc == "f16" else 8


def wmma():
    for t, shape, a, b in WMMA:
        sub = t in ("s4", "u4", "b1")
        reg = "f64" if t == "f64" else "b32"
        for which, n, lays in [("a", a, ["row"] if sub else ["row", "col"]), ("b", b, ["col"] if sub else ["row", "col"])]:
            for lay in lays:
                for space in ["", ".global", ".shared"]:
                    for stride in ["", "stride"]:
                        ltype = t
                        add(f"wmma.load.{t}", f"wmma.load.{which}.sync.aligned.{lay}.{shape}{space}.{ltype}",
                            [(which, n, reg)], "LOAD" + stride)
        for acc in acc_types(t):
            n = acc_regs(shape, acc)
            for lay in ["row", "col"]:
                for space in ["", ".global", ".shared"]:
                    for stride in ["", "stride"]:
                        add(f"wmma.load.{t}", f"wmma.load.c.sync.aligned.{lay}.{shape}{space}.{acc}",
                            [("c", n, acc)], "LOAD" + stride)
                        add(f"wmma.store.{t}", f"wmma.store.d.sync.aligned.{lay}.{shape}{space}.{acc}",
                            [("d", n, acc)], "STORE" + stride)
        lays = [("row", "col")] if sub else list(itertools.product(["row", "col"], repeat=2))
        for al, bl in lays:
            if t == "f16":
                combos = [(f".{d}.{c}", d, c) for d in ["f16", "f32"] for c in ["f16", "f32"]]
            elif t in ("bf16", "tf32"):
                combos = [(f".f32.{t}.{t}.f32", "f32", "f32")]
            elif t == "f64":
                combos = [(".f64.f64.f64.f64", "f64", "f64")]
            elif t == "b1":
                combos = [(f".s32.b1.b1.s32.{op}.popc", "s32", "s32") for op in ["xor", "and"]]
            else:
                combos = [(f"{sat}.s32.{t}.{t}.s32", "s32", "s32") for sat in ["", ".satfinite"]]
            for suffix, d, c in combos:
                add(f"wmma.mma.{t}", f"wmma.mma.sync.aligned.{al}.{bl}.{shape}{suffix}",
                    [("d", acc_regs(shape, d), d), ("a", a, reg), ("b", b, reg), ("c", acc_regs(shape, c), c)])


def matrix():
    for n, cnt in [("x1", 1), ("x2", 2), ("x4", 4)]:
        for trans in ["", ".trans"]:
            for space in ["", ".shared", ".shared::cta"]:
                add("ldmatrix", f"ldmatrix.sync.aligned.m8n8.{n}{trans}{space}.b16", [("d", cnt, "b32")], "LDM")
                add("stmatrix", f"stmatrix.sync.aligned.m8n8.{n}{trans}{space}.b16", [("d", cnt, "b32")], "STM")
    add("movmatrix", "movmatrix.sync.aligned.m8n8.trans.b16", [("d", 1, "b32"), ("a", 1, "b32")])


REGTYPE = {"f16": "b32", "f32": "f32", "f64": "f64", "s32": "s32", "b32": "b32"}


def render(text, frags, extra, version, target):
    decls, groups, inits = {}, [], []
    counter = 0
    for kind, n, t in frags:
        rt = REGTYPE[t]
        prefix = {"b32": "%r", "f32": "%f", "f64": "%fd", "s32": "%s"}[rt]
        names = []
        for _ in range(n):
            names.append(f"{prefix}{counter}")
            counter += 1
        decls.setdefault(rt, 0)
        groups.append((kind, names, rt))
    lines = []
    body = []
    addr = "%rd2"
    # every source register starts from a load so nothing folds away
    for kind, names, rt in groups:
        if kind in ("a", "b", "c", "e") and not extra.startswith("LOAD"):
            for i, nm in enumerate(names):
                width = {"f64": 8}.get(rt, 4)
                body.append(f"ld.global.{rt} {nm}, [{addr}+{8 * counter + 8 * i}];")
    operands = []
    for kind, names, rt in groups:
        scalar = kind == "e" or text.startswith("movmatrix")
        operands.append(names[0] if len(names) == 1 and scalar else "{" + ", ".join(names) + "}")
    dest_names = groups[0][1]
    dest_rt = groups[0][2]
    if extra.startswith("LOAD"):
        stride = ", %r100" if extra.endswith("stride") else ""
        space = ".shared" if ".shared" in text else ".global" if ".global" in text else ""
        a = "%r101" if space == ".shared" else addr
        body.append(f"{text} {operands[0]}, [{a}]{stride};")
    elif extra.startswith("STORE"):
        stride = ", %r100" if extra.endswith("stride") else ""
        for i, nm in enumerate(dest_names):
            body.append(f"ld.global.{dest_rt} {nm}, [{addr}+{8 * i}];")
        space = ".shared" if ".shared" in text else ".global" if ".global" in text else ""
        a = "%r101" if space == ".shared" else addr
        body.append(f"{text} [{a}], {operands[0]}{stride};")
        dest_names = []
    elif extra == "LDM":
        body.append(f"{text} {operands[0]}, [{'%r101' if '.shared' in text else '%rd3'}];")
    elif extra == "STM":
        for i, nm in enumerate(dest_names):
            body.append(f"ld.global.b32 {nm}, [{addr}+{4 * i}];")
        body.append(f"{text} [{'%r101' if '.shared' in text else '%rd3'}], {operands[0]};")
        dest_names = []
    else:
        body.append(f"{text} {', '.join(operands)}{extra};")
    for i, nm in enumerate(dest_names):
        body.append(f"st.global.{dest_rt} [{addr}+{8 * i}], {nm};")
    regdecl = "\n".join(f"    .reg .{rt} {p}<{counter + 2}>;" for rt, p in
                        [("b32", "%r"), ("f32", "%f"), ("f64", "%fd"), ("s32", "%s")])
    return f""".version {version}
.target {target}
.address_size 64
.shared .align 16 .b8 tile[4096];
.visible .entry k(.param .u64 p)
{{
{regdecl}
    .reg .b32 %r100, %r101;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [p];
    cvta.to.global.u64 %rd2, %rd1;
    mov.u32 %r100, 16;
    mov.u32 %r101, tile;
    mov.u64 %rd3, tile;
    {chr(10).join('    ' + b for b in body).strip()}
    ret;
}}
"""


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    mma_dense()
    mma_sparse()
    wmma()
    matrix()
    with open(os.path.join(out, "forms.tsv"), "w") as idx:
        for i, (group, text, frags, extra) in enumerate(FORMS):
            name = f"f{i:04d}"
            idx.write(f"{name}\t{group}\t{text}{' ' + extra if extra else ''}\n")
            with open(os.path.join(out, name + ".ptx"), "w") as f:
                f.write(render(text, frags, extra, "8.8", "sm_XX"))


if __name__ == "__main__":
    main()
