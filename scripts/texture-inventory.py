#!/usr/bin/env python3
"""Writes one PTX kernel per texture and surface instruction form (tex, tld4, txq, suq, suld, sust, sured, istypep;
geometry x type x vector x modifiers x bound reference or bindless handle), a superset of what ptxas accepts: the
oracle decides legality per SM, jptxas is then asked the same (scripts/texture-inventory-run does both).

usage: texture-inventory.py OUT_DIR   (writes OUT_DIR/<name>.ptx and OUT_DIR/forms.tsv: name, group, instruction)
       texture-inventory.py --summary FORMS_TSV SM_DIR SM   (counts one SM's run: SM_DIR/accepted.txt, jptxas.txt)
"""
import collections
import os
import re
import sys

# a form: (group, instruction text with {D} for the destination and {H} for the handle, bound?, what it writes)
FORMS = []

TEX_GEOMETRIES = {  # coordinates, offset components, gradient components (0: the geometry takes none)
    "1d": (1, 1, 1), "2d": (2, 2, 2), "3d": (4, 4, 4), "a1d": (2, 1, 1), "a2d": (4, 2, 2),
    "cube": (4, 0, 4), "acube": (4, 0, 4), "2dms": (4, 2, 0), "a2dms": (4, 2, 0)}
TEX_TYPES = ["v4.f32", "v4.s32", "v4.u32", "v4.f16", "v2.f16x2"]


def vec(regs):
    return "{" + ", ".join(regs) + "}"


def coords(n, first=1):
    return vec([f"%r{first + k}" for k in range(n)])


def add(group, text, bound=False, writes="v4"):
    FORMS.append((group, text, bound, writes))


def tex():
    for geom, (nc, noff, ngrad) in TEX_GEOMETRIES.items():
        for types in TEX_TYPES:
            for ctype in ["f32", "s32"]:
                writes = "v2h" if types == "v2.f16x2" else "v4h" if types == "v4.f16" else "v4"
                full = ctype == "f32" and not types.endswith("f16") and not types.endswith("f16x2")
                mips = ["", "level", "grad"] if full else [""]
                for mip in mips:
                    extras = ["", "offset", "offset+dc", "pred"] if full or mip == "" else [""]
                    for extra in extras:
                        if extra.startswith("offset") and noff == 0:
                            continue
                        ops = ""
                        if mip == "level":
                            ops += ", %r9"
                        elif mip == "grad":
                            if ngrad == 0:
                                continue
                            ops += f", {coords(ngrad, 10)}, {coords(ngrad, 14)}"
                        if extra.startswith("offset"):
                            ops += ", " + ("%r18" if noff == 1 else coords(noff, 18))
                        if extra.endswith("dc"):
                            ops += ", %r22"
                        pred = "|%p1" if extra == "pred" else ""
                        m = f".{mip}" if mip else ""
                        add("tex", f"tex{m}.{geom}.{types}.{ctype} {{D}}{pred}, [{{H}}, {coords(nc)}]{ops}",
                            writes=writes)
                add("tex.bound", f"tex.{geom}.{types}.{ctype} {{D}}, [{{H}}, {coords(nc)}]", True, writes)


def tld4():
    for comp in "rgba":
        for geom, nc in [("2d", 2), ("a2d", 4), ("cube", 4), ("acube", 4)]:
            for dtype in ["f32", "s32", "u32"]:
                for extra in ["", "offset", "offset+dc", "pred"]:
                    ops = ""
                    if extra.startswith("offset"):
                        ops += ", " + coords(2, 18)
                    if extra.endswith("dc"):
                        ops += ", %r22"
                    pred = "|%p1" if extra == "pred" else ""
                    add("tld4", f"tld4.{comp}.{geom}.v4.{dtype}.f32 {{D}}{pred}, [{{H}}, {coords(nc)}]{ops}")
                add("tld4.bound", f"tld4.{comp}.{geom}.v4.{dtype}.f32 {{D}}, [{{H}}, {coords(nc)}]", True)


def queries():
    tq = ["width", "height", "depth", "channel_data_type", "channel_order", "normalized_coords", "array_size",
          "num_mipmap_levels", "num_samples", "force_unnormalized_coords", "filter_mode", "addr_mode_0",
          "addr_mode_1", "addr_mode_2"]
    for bound in [False, True]:
        g = ".bound" if bound else ""
        for q in tq:
            add("txq" + g, f"txq.{q}.b32 {{D}}, [{{H}}]", bound, "b32")
        for q in ["width", "height", "depth"]:
            add("txq" + g, f"txq.level.{q}.b32 {{D}}, [{{H}}], %r9", bound, "b32")
        for q in ["width", "height", "depth", "channel_data_type", "channel_order", "array_size", "memory_layout"]:
            add("suq" + g, f"suq.{q}.b32 {{D}}, [{{H}}]", bound, "b32")
    for t in ["texref", "samplerref", "surfref"]:
        add("istypep", f"istypep.{t} {{D}}, {{H}}", False, "pred")


SU_GEOMETRIES = {"1d": 1, "2d": 2, "3d": 4, "a1d": 2, "a2d": 4}


def surfaces():
    for geom, nc in SU_GEOMETRIES.items():
        for v in ["", "v2", "v4"]:
            for d in ["b8", "b16", "b32", "b64"]:
                n = {"": 1, "v2": 2, "v4": 4}[v]
                vm = f".{v}" if v else ""
                for clamp in ["trap", "clamp", "zero"]:
                    add("suld.b", f"suld.b.{geom}{vm}.{d}.{clamp} {{D}}, [{{H}}, {coords(nc)}]", False, f"{n}x{d}")
                    add("sust.b", f"sust.b.{geom}{vm}.{d}.{clamp} [{{H}}, {coords(nc)}], {{S}}", False, f"{n}x{d}")
        for v in ["", "v2", "v4"]:
            n = {"": 1, "v2": 2, "v4": 4}[v]
            vm = f".{v}" if v else ""
            for clamp in ["trap", "clamp", "zero"]:
                add("sust.p", f"sust.p.{geom}{vm}.b32.{clamp} [{{H}}, {coords(nc)}], {{S}}", False, f"{n}xb32")
        for op in ["add", "min", "max", "and", "or"]:
            for t in ["u32", "s32", "b32", "u64", "s64"]:
                for clamp in ["trap", "clamp", "zero"]:
                    add("sured.b", f"sured.b.{op}.{geom}.{t}.{clamp} [{{H}}, {coords(nc)}], {{S}}", False,
                        "1xb64" if t.endswith("64") else "1xb32")
            for t in ["b32", "b64"]:
                add("sured.p", f"sured.p.{op}.{geom}.{t}.trap [{{H}}, {coords(nc)}], {{S}}", False,
                    "1xb64" if t == "b64" else "1xb32")
        add("suld.b.bound", f"suld.b.{geom}.b32.trap {{D}}, [{{H}}, {coords(nc)}]", True, "1xb32")
        add("sust.b.bound", f"sust.b.{geom}.b32.trap [{{H}}, {coords(nc)}], {{S}}", True, "1xb32")
        add("sured.b.bound", f"sured.b.add.{geom}.u32.trap [{{H}}, {coords(nc)}], {{S}}", True, "1xb32")
    for cop in ["ca", "cg", "cs", "cv"]:
        add("suld.b.cop", f"suld.b.2d.{cop}.b32.trap {{D}}, [{{H}}, {coords(2)}]", False, "1xb32")
    for cop in ["wb", "cg", "cs", "wt"]:
        add("sust.b.cop", f"sust.b.2d.{cop}.b32.trap [{{H}}, {coords(2)}], {{S}}", False, "1xb32")


def data_regs(writes):
    """(destination or source operand, register declarations needed, stores of what is written)."""
    if writes in ("v4", "v4h", "v2h"):
        n = 2 if writes == "v2h" else 4
        regs = [f"%h{k}" for k in range(n)] if writes == "v4h" else [f"%r{30 + k}" for k in range(n)]
        stores = [f"st.global.{'b16' if writes == 'v4h' else 'b32'} [%rd2+{4 * k}], {r};" for k, r in enumerate(regs)]
        return vec(regs), stores
    if writes == "b32":
        return "%r30", ["st.global.b32 [%rd2], %r30;"]
    if writes == "pred":
        return "%p2", ["selp.b32 %r30, 1, 0, %p2;", "st.global.b32 [%rd2], %r30;"]
    n, d = writes.split("x")
    n = int(n)
    reg = {"b8": "%h", "b16": "%h", "b32": "%r", "b64": "%rl"}[d]
    first = 30 if reg == "%r" else 0
    regs = [f"{reg}{first + k}" for k in range(n)]
    st = "u8" if d == "b8" else d
    size = {"b8": 1, "b16": 2, "b32": 4, "b64": 8}[d]
    stores = [f"st.global.{st} [%rd2+{size * k}], {r};" for k, r in enumerate(regs)]
    return (regs[0] if n == 1 else vec(regs)), stores


def render(group, text, bound, writes):
    surface = group.startswith(("suld", "sust", "sured", "suq"))
    handle = ("sr" if surface else "tr") if bound else "%rd4"
    if group == "istypep":
        handle = "%rd4"
    operand, stores = data_regs(writes)
    body = []
    body.append("ld.global.v4.b32 {%r1, %r2, %r3, %r4}, [%rd2];")
    body.append("ld.global.v4.b32 {%r5, %r6, %r7, %r8}, [%rd2+16];")
    body.append("ld.global.v4.b32 {%r9, %r10, %r11, %r12}, [%rd2+32];")
    body.append("ld.global.v4.b32 {%r13, %r14, %r15, %r16}, [%rd2+48];")
    body.append("ld.global.v4.b32 {%r17, %r18, %r19, %r20}, [%rd2+64];")
    body.append("ld.global.v2.b32 {%r21, %r22}, [%rd2+80];")
    body.append("setp.ne.s32 %p3, %r1, 0;")
    if text.startswith(("sust", "sured")):
        # the stored data comes from memory, so nothing folds away
        for k, r in enumerate(operand.strip("{}").split(", ")):
            t = "b64" if r.startswith("%rl") else "b16" if r.startswith("%h") else "b32"
            off = 96 + 8 * k
            if t == "b16" and "b8" in writes:
                body.append(f"ld.global.u8 {r}, [%rd2+{off}];")
            else:
                body.append(f"ld.global.{t} {r}, [%rd2+{off}];")
        body.append(text.replace("{H}", handle).replace("{S}", operand) + ";")
    else:
        body.append(text.replace("{H}", handle).replace("{D}", operand) + ";")
        if "|%p1" in text:
            stores = stores + ["selp.b32 %r29, 1, 0, %p1;", "st.global.b32 [%rd2+64], %r29;"]
        body.extend(stores)
    decls = "\n".join(["    .reg .b32 %r<40>;", "    .reg .b16 %h<8>;", "    .reg .b64 %rl<8>;",
                       "    .reg .pred %p<4>;", "    .reg .b64 %rd<8>;"])
    globals_ = ".global .texref tr;\n.global .surfref sr;\n" if bound else ""
    return f""".version 8.8
.target sm_XX
.address_size 64
{globals_}.visible .entry k(.param .u64 p, .param .u64 h)
{{
{decls}
    ld.param.u64 %rd1, [p];
    ld.param.u64 %rd4, [h];
    cvta.to.global.u64 %rd2, %rd1;
{chr(10).join('    ' + b for b in body)}
    ret;
}}
"""


def summary(forms, d, sm):
    """Per group: forms, accepted by ptxas, compiled by jptxas; then jptxas's refusals by message."""
    group = {}
    for line in open(forms):
        name, g, _ = line.rstrip("\n").split("\t")
        group[name] = g
    accepted = {os.path.basename(l.strip())[:-4] for l in open(os.path.join(d, "accepted.txt")) if l.strip()}
    refused = {}
    jt = os.path.join(d, "jptxas.txt")
    if os.path.exists(jt):
        for l in open(jt):
            m = re.match(r"jptxas-batch: \S*/(t\d+)\.ptx: (.*)", l)
            if m:
                why = re.sub(r"^.*?; (error|fatal)\s*: ", "", m.group(2))
                why = re.sub(r"Instruction '[^']*' not yet supported for sm_\d+a? ", "not yet supported ", why)
                refused[m.group(1)] = why
    rows = collections.defaultdict(lambda: [0, 0, 0])
    reasons = collections.Counter()
    for name, g in group.items():
        r = rows[g]
        r[0] += 1
        if name in accepted:
            r[1] += 1
            if name in refused:
                reasons[(g, refused[name])] += 1
            else:
                r[2] += 1
    tot = [sum(r[k] for r in rows.values()) for k in range(3)]
    print(f"{sm}: {tot[0]} forms, ptxas accepts {tot[1]}, jptxas compiles {tot[2]}")
    for g in sorted(rows):
        print(f"  {sm}\t{g}\t{rows[g][0]}\t{rows[g][1]}\t{rows[g][2]}")
    for (g, why), n in sorted(reasons.items()):
        print(f"  {sm}\trefused\t{g}\t{n}\t{why}")


def shown(group, text, bound):
    """The instruction as forms.tsv lists it: h for the handle (tr/sr a bound reference), d and v for the data."""
    handle = ("sr" if group.startswith("su") else "tr") if bound else "h"
    return text.replace("{H}", handle).replace("{D}", "d").replace("{S}", "v")


def main():
    if sys.argv[1] == "--summary":
        summary(*sys.argv[2:5])
        return
    for family in (tex, tld4, queries, surfaces):
        family()
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    names = [f"t{i:04d}" for i in range(len(FORMS))]
    for name, form in zip(names, FORMS):
        with open(os.path.join(out, name + ".ptx"), "w") as f:
            f.write(render(*form))
    with open(os.path.join(out, "forms.tsv"), "w") as idx:
        idx.writelines(f"{name}\t{g}\t{shown(g, t, b)}\n" for name, (g, t, b, _) in zip(names, FORMS))


if __name__ == "__main__":
    main()
