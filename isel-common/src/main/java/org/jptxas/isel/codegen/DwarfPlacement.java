package org.jptxas.isel.codegen;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.cubin.CubinBuilder;
import org.jptxas.ori.ir.DwarfSections;
import org.jptxas.ori.ir.FunctionAttrs;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.OriModule;
import org.jptxas.ori.ir.SourceLines;

/**
 * Fills in the words of the PTX's DWARF ({@link DwarfSections}) that name code or parameters, once the code is laid
 * out, as ptxas 13 does for a {@code -g} cubin:
 * <ul>
 * <li>a label in a function body: an R_CUDA_64 relocation against the function's symbol whose addend is the address
 * where the code of the PTX lines after the label begins (0 for a label before all of the body's code, the end of
 * the code for one after it); the word holds the same address;</li>
 * <li>a kernel parameter ({@code .b64 kernel_param_0}, a DW_OP_addr operand): its constant-bank-0 address, the
 * target's parameter base plus its offset in the parameter block (0x210 + 0 on sm_90, as ptxas writes it);</li>
 * <li>another debug section ({@code .debug_abbrev}, {@code .debug_line}): offset 0, relocated against the section
 * (R_CUDA_32 for a 4-byte word) in relocatable output only;</li>
 * <li>anything else (a function the whole-program compilation dropped, a local depot): 0, no relocation.</li>
 * </ul>
 */
final class DwarfPlacement {
    private DwarfPlacement() {}

    static List<CubinBuilder.DwarfSection> of(OriModule module, List<CompiledFunction> compiled, int paramBase,
                                              boolean relocatable) {
        // the sections a reference may be relocated against: the line table and the copied DWARF
        java.util.Set<String> written = new java.util.HashSet<>(List.of(".debug_line"));
        module.dwarf().sections().forEach(s -> written.add(s.name()));
        Map<String, CompiledFunction> code = new HashMap<>();
        compiled.forEach(c -> code.put(c.facts().name(), c));
        Map<String, Long> parameters = new HashMap<>();
        for (OriFunction f : module.functions()) {
            if (f.entry()) {
                for (FunctionAttrs.Param p : f.attrs().params()) {
                    parameters.put(p.name(), (long) paramBase + p.offset());
                }
            }
        }
        List<CubinBuilder.DwarfSection> out = new ArrayList<>();
        for (DwarfSections.Section s : module.dwarf().sections()) {
            byte[] data = s.data();
            List<CubinBuilder.DwarfRelocation> relocations = new ArrayList<>();
            for (DwarfSections.Address a : s.addresses()) {
                long value = 0;
                if (a instanceof DwarfSections.CodeLabel l && code.containsKey(l.function()) && a.width() == 8) {
                    CompiledFunction c = code.get(l.function());
                    value = labelAddress(c.code(), l, module.lines().functions().get(l.function()),
                            c.facts().code().length);
                    relocations.add(new CubinBuilder.DwarfRelocation(a.offset(), l.function(), "R_CUDA_64", value));
                } else if (a instanceof DwarfSections.SectionOffset o && relocatable && written.contains(o.section())
                        && (a.width() == 4 || a.width() == 8)) {
                    relocations.add(new CubinBuilder.DwarfRelocation(a.offset(), o.section(),
                            a.width() == 4 ? "R_CUDA_32" : "R_CUDA_64", 0));
                } else if (a instanceof DwarfSections.Symbol sym) {
                    value = parameters.getOrDefault(sym.name(), 0L);
                }
                for (int k = 0; k < a.width(); k++) {
                    data[a.offset() + k] = k < 8 ? (byte) (value >>> (8 * k)) : 0;
                }
            }
            out.add(new CubinBuilder.DwarfSection(s.name(), data, relocations));
        }
        return out;
    }

    /**
     * Where the code of the PTX lines after {@code label} begins in {@code code} (16 bytes an instruction), counting
     * only the instructions of lines inside the body's braces (not the stack set-up's or closing branch's): 0 when
     * no such instruction comes before the label, the end of the last one when none comes after it, and {@code end}
     * (the size of the code with its closing branch and padding) for the body's last statement, as ptxas 13 places
     * NVVM's {@code $L__func_begin0}, {@code $L__tmp4} (after the {@code ret}) and {@code $L__func_end0}.
     */
    static long labelAddress(List<CodeLine> code, DwarfSections.CodeLabel label, SourceLines.FunctionLines body,
                             long end) {
        if (label.endsBody()) {
            return end;
        }
        int open = body == null ? 0 : body.open();
        int close = body == null ? Integer.MAX_VALUE : body.close();
        boolean codeBefore = false;
        long first = -1;
        long afterLast = 0;
        for (int i = 0; i < code.size(); i++) {
            int line = code.get(i).ptxLine();
            if (line <= open || line >= close) {
                continue;
            }
            afterLast = 16L * (i + 1);
            if (line <= label.ptxLine()) {
                codeBefore = true;
            } else if (first < 0) {
                first = 16L * i;
            }
        }
        if (!codeBefore) {
            return 0;
        }
        return first >= 0 ? first : afterLast;
    }
}
