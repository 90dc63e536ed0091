package org.jptxas.simulator.sass;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The instructions of every function of a cubin, by address, from jptxas's own SASS decoder
 * ({@code org.jptxas.sass}; no NVIDIA tool), each made into a {@link SassOp} from its typed form and field values
 * ({@link TypedOps}); no instruction text is read back.
 */
public final class SassListing {
    private final Map<String, List<SassOp>> functions;
    /** Per kernel, the code it runs: its own function, or for linked code the {@link #image} of the module. */
    private final Map<String, List<SassOp>> programs;

    private SassListing(Map<String, List<SassOp>> functions, Map<String, List<SassOp>> programs) {
        this.functions = functions;
        this.programs = programs;
    }

    /** Every function's own code ({@code .text.<function>}), at section-relative addresses. */
    public Map<String, List<SassOp>> functions() {
        return functions;
    }

    /**
     * The code a launch of each function runs, by function: the function's own code when it stays in its section,
     * else (code of nvlink-linked executables calling across sections with {@code CALL.ABS}) the module's code image
     * with that function at address 0 (see {@link #image}). Its first instructions are always the function's own.
     */
    Map<String, List<SassOp>> programs() {
        return programs;
    }

    /** Undecodable bits print as {@code UNKNOWN 0x<128-bit hex>}; executing one stops the run with its address. */
    static final String UNKNOWN = "UNKNOWN";

    /** Decodes every {@code .text.<function>} section of a cubin with jptxas's decoder and {@code isa}'s tables. */
    public static SassListing decode(org.jptxas.sass.SassIsa isa, byte[] cubinBytes) {
        return decode(isa, org.jptxas.cubin.Cubin.read(cubinBytes));
    }

    public static SassListing decode(org.jptxas.sass.SassIsa isa, org.jptxas.cubin.Cubin cubin) {
        Map<String, List<SassOp>> out = new LinkedHashMap<>();
        for (org.jptxas.cubin.Section s : cubin.textSections()) {
            out.put(s.functionName(), decodeFunction(isa, s.data(), 0));
        }
        Map<String, List<SassOp>> programs = new LinkedHashMap<>(out);
        if (callsAcrossSections(cubin)) {
            for (org.jptxas.cubin.Section s : cubin.textSections()) {
                programs.put(s.functionName(), image(isa, cubin, s.functionName()));
            }
        }
        return new SassListing(out, programs);
    }

    /** Alignment of the functions in a code {@link #image} (nvlink's and ptxas's {@code .text} alignment). */
    static final int CODE_ALIGN = 128;

    /**
     * Whether code refers to code of another section (a relocation of a {@code .text} section against a symbol of
     * a different {@code .text} section): nvlink leaves such {@code CALL.ABS} targets and return addresses for the
     * driver to resolve when it loads the module.
     */
    static boolean callsAcrossSections(org.jptxas.cubin.Cubin cubin) {
        List<org.jptxas.cubin.Section> sections = cubin.sections();
        List<org.jptxas.cubin.Symbol> symbols = cubin.symbols();
        for (org.jptxas.cubin.Section rel : sections) {
            int into = codeRelocationTarget(rel, sections);
            if (into < 0) {
                continue;
            }
            for (org.jptxas.cubin.Relocation r : org.jptxas.cubin.Relocations.decode(rel)) {
                int to = r.symbol() < symbols.size() ? symbols.get(r.symbol()).shndx() : -1;
                if (to != into && to > 0 && to < sections.size() && sections.get(to).isText()) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The text section a relocation section patches, or -1 when it is not a relocation of code. */
    private static int codeRelocationTarget(org.jptxas.cubin.Section rel, List<org.jptxas.cubin.Section> sections) {
        boolean isRel = rel.type() == org.jptxas.cubin.SectionType.REL || rel.type() == org.jptxas.cubin.SectionType.RELA;
        return isRel && rel.info() > 0 && rel.info() < sections.size() && sections.get(rel.info()).isText() ? rel.info() : -1;
    }

    /**
     * The module's code as the driver loads it, for a launch of {@code entry}: {@code entry}'s section at address 0,
     * then every other {@code .text} section in section order, each at the next multiple of {@link #CODE_ALIGN}
     * (or of its own larger alignment); the code relocations against code symbols ({@code CALL.ABS} targets, return
     * addresses {@code 32@lo/hi(f + .L@srel)}) are applied with those addresses, as the driver applies them; other
     * relocations are left as the emulator already treats them. Gaps between functions hold {@code UNKNOWN}
     * instructions (executing one stops the run). Addresses are absolute in the image, so CALL.ABS and RET.ABS
     * jump by address and branch targets carry their function's base.
     */
    static List<SassOp> image(org.jptxas.sass.SassIsa isa, org.jptxas.cubin.Cubin cubin, String entry) {
        List<org.jptxas.cubin.Section> sections = cubin.sections();
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < sections.size(); i++) {
            if (sections.get(i).isText() && sections.get(i).functionName().equals(entry)) {
                order.add(i);
            }
        }
        for (int i = 0; i < sections.size(); i++) {
            if (sections.get(i).isText() && !order.contains(i)) {
                order.add(i);
            }
        }
        Map<Integer, Long> base = new HashMap<>();
        Map<Integer, byte[]> bytes = new HashMap<>();
        long next = 0;
        for (int i : order) {
            org.jptxas.cubin.Section s = sections.get(i);
            long align = Math.max(CODE_ALIGN, s.addralign());
            next = (next + align - 1) / align * align;
            base.put(i, next);
            bytes.put(i, s.data().clone());
            next += s.data().length;
        }
        List<org.jptxas.cubin.Symbol> symbols = cubin.symbols();
        Map<Long, Long> callTargets = new HashMap<>(); // image address of a CALL.ABS -> its resolved target
        for (org.jptxas.cubin.Section rel : sections) {
            int into = codeRelocationTarget(rel, sections);
            if (into < 0) {
                continue;
            }
            for (org.jptxas.cubin.Relocation r : org.jptxas.cubin.Relocations.decode(rel)) {
                org.jptxas.cubin.Symbol sym = r.symbol() < symbols.size() ? symbols.get(r.symbol()) : null;
                if (sym == null || !base.containsKey(sym.shndx())) {
                    continue; // not a code address (shared windows, constants): as in a function's own decoding
                }
                long target = base.get(sym.shndx()) + sym.value() + r.addend();
                try {
                    org.jptxas.cubin.Relocations.applyResolved(bytes.get(into), r.offset(), r.type(), target, 0);
                } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
                    continue; // a field jptxas does not know how to patch: the instruction keeps the value ptxas wrote
                }
                if (CODE_ADDRESS_FIELD.matcher(r.typeName()).matches()) {
                    callTargets.put(base.get(into) + (r.offset() & ~15L), target);
                }
            }
        }
        List<SassOp> ops = new ArrayList<>();
        for (int i : order) {
            long b = base.get(i);
            while (16L * ops.size() < b) {
                long a = 16L * ops.size();
                ops.add(new SassOp(a, 7, false, false, UNKNOWN, List.of(), List.of(), "UNKNOWN (between functions)"));
            }
            for (SassOp op : decodeFunction(isa, bytes.get(i), b)) {
                Long target = callTargets.get(op.address());
                // The call's target as the relocation resolved it (not as the printed field: one source of truth)
                ops.add(target == null || !op.opcode().equals("CALL") ? op : new SassOp(op.address(), op.guard(),
                        op.guardNegated(), op.guardUniform(), op.opcode(), op.modifiers(),
                        List.of(new SassOperand.Target(target)), op.text(), op.fullName()));
            }
        }
        return List.copyOf(ops);
    }

    /** Relocation types of absolute code-address fields (CALL.ABS targets). */
    private static final java.util.regex.Pattern CODE_ADDRESS_FIELD = java.util.regex.Pattern.compile("R_CUDA_ABS(47_34|5[56]_16_34)");

    /**
     * One function's code at address {@code base}, each instruction built from the decoder's typed form
     * ({@link TypedOps}); its text, with every branch, call and reconvergence target named by its address, is kept
     * for messages.
     */
    static List<SassOp> decodeFunction(org.jptxas.sass.SassIsa isa, byte[] code, long base) {
        // reuse flags are cache hints: words whose flag combination the tables never saw still run
        List<org.jptxas.sass.SassInstruction> instrs = isa.decodeAllForExecution(code, 0, code.length - code.length % 16);
        org.jptxas.sass.LabelNamer namer = address -> ".L_" + Long.toHexString(address);
        List<SassOp> ops = new ArrayList<>(instrs.size());
        for (int k = 0; k < instrs.size(); k++) {
            long address = base + 16L * k;
            String text = org.jptxas.sass.SassPrinter.text(instrs.get(k), address, namer);
            ops.add(instrs.get(k) instanceof org.jptxas.sass.SassInstruction.Known known
                    ? TypedOps.of(known, address, text, namer)
                    : new SassOp(address, 7, false, false, UNKNOWN, List.of(), List.of(), text));
        }
        return List.copyOf(ops);
    }
}
