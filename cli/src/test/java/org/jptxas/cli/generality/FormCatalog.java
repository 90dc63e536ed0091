package org.jptxas.cli.generality;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jptxas.cli.generality.FormCase.Address;
import org.jptxas.cli.generality.FormCase.Base;
import org.jptxas.cli.generality.FormCase.Family;
import org.jptxas.cli.generality.FormCase.Operand;
import org.jptxas.cli.generality.FormCase.Shape;
import org.jptxas.tables.ptx.InstructionDef;
import org.jptxas.tables.ptx.InstructionForm;
import org.jptxas.tables.ptx.ModifierSlot;
import org.jptxas.tables.ptx.OperandKind;
import org.jptxas.tables.ptx.OperandSpec;
import org.jptxas.tables.ptx.PtxInstructionSet;
import org.jptxas.tables.ptx.PtxType;
import org.jptxas.tables.ptx.TypeSlot;

/**
 * Every instruction form of the PTX instruction table ({@code ptx-instructions.json}), made concrete: for each table
 * form, each combination of its type slots, its modifier combinations (all of them when there are at most
 * {@value #FULL_PRODUCT}, else each word once beside the defaults), and for each of those the operand kinds: all
 * registers, each immediate-capable source as an immediate, all of them immediates, a sink destination, guarded by a
 * predicate; memory instructions with each address form (no offset, zero, negative, large offsets; symbols; 32-bit
 * shared and local windows; generic addresses). Which of these the front end accepts for a target is the suite's first
 * count; the catalog itself does not decide legality.
 *
 * <p>Families that need a harness of their own are left out by name ({@link #EXCLUDED}, each with why); a rule that
 * excludes nothing is stale and fails the suite.
 */
final class FormCatalog {
    private FormCatalog() {}

    /** Modifier combinations are enumerated in full up to this many; beyond, each word once beside the defaults. */
    static final int FULL_PRODUCT = 48;

    /**
     * Opcodes (exact, or a prefix ending in '.') and modifier words (":word") the suite leaves to other harnesses, with
     * why. Exact: a rule that matches no table form is stale.
     */
    static final Map<String, String> EXCLUDED = excluded();

    private static Map<String, String> excluded() {
        Map<String, String> m = new LinkedHashMap<>();
        String tensor = "tensor-core family: matrix fragments spread over a warp, issue 20 leaves them to their own issue";
        m.put("mma", "tensor-core family: matrix fragments spread over a warp need inputs laid out per fragment, which"
                + " the form kernels do not make (issue 23: suite kernels mma_gemm_f16, mma_m16n8k8_f16, mma_f64,"
                + " mma_gemm_s8, mma_m8n8k16_s8, mma_gemm_tf32 and WarpMmaTest run the shapes jptxas compiles)");
        m.put("wmma.", tensor);
        m.put("wgmma.", tensor + " (sm_90a only)");
        m.put("tcgen05.", tensor + " (sm_100a only)");
        m.put("ldmatrix", tensor + " (suite kernel ldmatrix_frag runs it)");
        m.put("stmatrix", tensor);
        m.put("movmatrix", tensor);
        String async = "asynchronous-copy family: completion through async groups, mbarriers or the tensor memory "
                + "accelerator, which the emulator does not model";
        String cpAsync = "asynchronous copies complete at a wait on their group and land in shared memory, which the"
                + " form kernels neither wait on nor read back (issue 23: suite kernel cp_async_pipeline and"
                + " TensorAndAsyncCopyTest run them)";
        m.put("cp.async", cpAsync);
        m.put("cp.async.", cpAsync + "; the bulk and tensor forms: " + async);
        String bulkReduce = "bulk reductions read shared memory the form kernels do not fill and complete at a bulk-group"
                + " wait or an mbarrier, which they do not make (issue 23: BulkReductionsEndToEndTest runs every"
                + " operation, the tensor forms and the shared::cluster form three ways)";
        m.put("cp.reduce.async.bulk", bulkReduce);
        m.put("cp.reduce.async.bulk.tensor", bulkReduce);
        m.put("mbarrier.", async);
        m.put("st.async", async);
        m.put("red.async", async);
        m.put("st.bulk", async + " (sm_100 only)");
        m.put("tensormap.", async + " (tensor-map descriptors)");
        m.put(":mbarrier_init", async + " (fence.mbarrier_init)");
        m.put(":async", async + " (fence.proxy.async)");
        m.put(":tensormap::generic", async + " (fence.proxy.tensormap)");
        m.put(":tensormap", async + " (prefetch.tensormap)");
        String tex = "texture/surface family: needs texture, sampler and surface objects the launch model does not have";
        m.put("tex", tex);
        m.put("tld4", tex);
        m.put("txq", tex);
        m.put("suld", tex);
        m.put("sust", tex);
        m.put("sured", tex);
        m.put("suq", tex);
        m.put("istypep", tex);
        m.put("call", "calls need callee functions: the random-program generator calls device functions, one of them"
                + " recursive (a true call)");
        String cluster = "cluster family: needs a thread-block cluster launch and distributed shared memory";
        m.put("barrier.cluster", cluster);
        m.put("getctarank", cluster);
        m.put("mapa", cluster);
        m.put("clusterlaunchcontrol.", cluster + " (sm_100 only)");
        m.put("multimem.", cluster + " (multicast memory objects)");
        m.put(":shared::cluster", cluster + " (distributed shared memory)");
        m.put(":sync_restrict::shared::cluster", cluster);
        m.put(":sync_restrict::shared::cta", cluster + " (fence.acquire/release.sync_restrict, cluster scope)");
        return m;
    }

    /** The exclusion rule that covers a case, or null. */
    static String exclusionOf(String opcode, List<String> words) {
        for (String rule : EXCLUDED.keySet()) {
            if (rule.startsWith(":") ? words.contains(rule.substring(1))
                    : rule.endsWith(".") ? opcode.startsWith(rule) : opcode.equals(rule)) {
                return rule;
            }
        }
        return null;
    }

    /**
     * The exclusion rules that match no form of the instruction table (stale: the family left the table, or a
     * word was renamed): a rule by opcode needs an instruction it names, a rule by word a form with the word.
     */
    static List<String> staleExclusions(PtxInstructionSet set) {
        List<String> stale = new ArrayList<>();
        for (String rule : EXCLUDED.keySet()) {
            boolean used = false;
            for (InstructionDef def : set.instructions().values()) {
                for (InstructionForm f : def.forms()) {
                    List<String> words = new ArrayList<>();
                    f.modifiers().forEach(m -> words.addAll(m.words()));
                    if (rule.startsWith(":") ? words.contains(rule.substring(1))
                            : exclusionOf(def.opcode(), List.of()) != null && exclusionOf(def.opcode(), List.of())
                            .equals(rule)) {
                        used = true;
                    }
                }
            }
            if (!used) {
                stale.add(rule);
            }
        }
        return stale;
    }

    /** Instructions with no destination: every operand is read. */
    private static final Set<String> NO_DEST = Set.of("st", "red", "prefetch", "prefetchu", "applypriority", "discard",
            "membar", "fence", "nanosleep", "pmevent", "trap", "brkpt", "exit", "ret", "bra", "brx.idx", "stackrestore",
            "griddepcontrol", "bar.sync", "bar.arrive", "bar.warp.sync", "barrier.sync", "barrier.arrive");

    static final Set<String> MEMORY = Set.of("ld", "ldu", "st", "atom", "red", "prefetch", "prefetchu",
            "applypriority", "discard", "cvta", "isspacep", "createpolicy", "alloca", "stacksave", "stackrestore");
    static final Set<String> WARP = Set.of("shfl", "vote", "match", "redux", "activemask", "elect", "bar", "barrier",
            "membar", "fence", "nanosleep", "pmevent", "griddepcontrol");
    static final Set<String> CARRY = Set.of("addc", "subc", "madc");
    static final Set<String> VIDEO = Set.of("vadd", "vsub", "vabsdiff", "vmin", "vmax", "vshl", "vshr", "vmad", "vset",
            "vadd2", "vsub2", "vavrg2", "vabsdiff2", "vmin2", "vmax2", "vset2", "vadd4", "vsub4", "vavrg4", "vabsdiff4",
            "vmin4", "vmax4", "vset4");

    /**
     * The catalog: every case of every instruction but those of opcodes excluded by name (cases excluded by a
     * modifier word are kept; the suite drops them with {@link #exclusionOf}).
     */
    static List<FormCase> all(PtxInstructionSet set) {
        List<FormCase> out = new ArrayList<>();
        Map<String, FormCase> byKey = new LinkedHashMap<>();
        for (InstructionDef def : set.instructions().values()) {
            String rule = exclusionOf(def.opcode(), List.of());
            if (rule != null) {
                continue;
            }
            for (int fi = 0; fi < def.forms().size(); fi++) {
                for (FormCase c : cases(def.opcode(), fi, def.forms().get(fi))) {
                    byKey.putIfAbsent(c.key(), c);
                }
            }
        }
        out.addAll(byKey.values());
        return out;
    }

    static List<FormCase> cases(String opcode, int formIndex, InstructionForm form) {
        List<FormCase> out = new ArrayList<>();
        if (!renderable(form)) {
            return out;
        }
        List<List<PtxType>> typeChoices = product(form.types());
        List<List<String>> modChoices = modifierCombinations(form.modifiers());
        for (List<PtxType> types : typeChoices) {
            for (int mi = 0; mi < modChoices.size(); mi++) {
                List<String> mods = modChoices.get(mi);
                List<String> words = new ArrayList<>();
                if (VIDEO.contains(opcode)) {
                    // the video instructions write their types first: vadd.s32.u32.s32.sat.add
                    types.forEach(t -> words.add(t.ptxName()));
                    words.addAll(mods);
                } else {
                    words.addAll(mods);
                    types.forEach(t -> words.add(t.ptxName()));
                }
                String name = form.name();
                Family family = family(opcode, words);
                for (boolean optional : mi == 0 ? new boolean[] {false, true} : new boolean[] {false}) {
                    Rendered base = operands(opcode, name, form, types, mods, optional);
                    if (base == null) {
                        continue;
                    }
                    List<List<Operand>> variants = operandVariants(opcode, words, base, mi == 0);
                    for (List<Operand> ops : variants) {
                        out.add(new FormCase(opcode, formIndex, words, ops, false, family));
                    }
                    if (mi == 0 && guardable(opcode, family, name)) {
                        out.add(new FormCase(opcode, formIndex, words, variants.get(0), true, family));
                    }
                }
            }
        }
        return out;
    }

    private static Family family(String opcode, List<String> words) {
        if (opcode.equals("bra") || opcode.equals("brx.idx")) {
            return Family.BRANCH;
        }
        if (MEMORY.contains(opcode)) {
            return Family.MEMORY;
        }
        if (WARP.contains(opcode)) {
            return Family.WARP;
        }
        if (CARRY.contains(opcode) || words.contains("cc")) {
            return Family.CARRY;
        }
        return Family.ALU;
    }

    /** Warp-wide instructions under a guard would run with lanes missing that their member mask names. */
    private static boolean guardable(String opcode, Family family, String name) {
        return family != Family.WARP && family != Family.BRANCH && !opcode.equals("alloca")
                && !opcode.equals("stacksave") && !opcode.equals("stackrestore");
    }

    private static boolean renderable(InstructionForm form) {
        for (OperandSpec o : form.operands()) {
            boolean any = o.kinds().containsAll(EnumSet.allOf(OperandKind.class));
            if (!any && (o.kinds().contains(OperandKind.TEXTURE) || o.kinds().contains(OperandKind.PARAM_LIST))) {
                return false;
            }
            if (o.shapeDivisor() > 0) {
                return false;
            }
        }
        return true;
    }

    static List<List<PtxType>> product(List<TypeSlot> slots) {
        List<List<PtxType>> out = new ArrayList<>();
        out.add(List.of());
        for (TypeSlot s : slots) {
            List<List<PtxType>> next = new ArrayList<>();
            for (List<PtxType> prefix : out) {
                for (PtxType t : sorted(s.types())) {
                    List<PtxType> l = new ArrayList<>(prefix);
                    l.add(t);
                    next.add(l);
                }
            }
            out = next;
        }
        return out;
    }

    private static List<PtxType> sorted(Set<PtxType> types) {
        List<PtxType> l = new ArrayList<>(types);
        l.sort(null);
        return l;
    }

    /**
     * The modifier combinations: the full product of the slots' options (an optional slot's first option is its
     * absence) when small, else the defaults, each option of each slot with the others at their defaults, and the
     * options rotated together (so that later words of different slots meet).
     */
    static List<List<String>> modifierCombinations(List<ModifierSlot> slots) {
        List<List<String>> options = new ArrayList<>();
        long product = 1;
        for (ModifierSlot s : slots) {
            List<String> o = new ArrayList<>();
            if (s.optional()) {
                o.add("");
            }
            o.addAll(s.words());
            options.add(o);
            product *= o.size();
        }
        List<List<String>> combos = new ArrayList<>();
        if (product <= FULL_PRODUCT) {
            combos.add(List.of());
            for (List<String> o : options) {
                List<List<String>> next = new ArrayList<>();
                for (List<String> prefix : combos) {
                    for (String w : o) {
                        List<String> l = new ArrayList<>(prefix);
                        l.add(w);
                        next.add(l);
                    }
                }
                combos = next;
            }
        } else {
            List<String> defaults = new ArrayList<>();
            options.forEach(o -> defaults.add(o.get(0)));
            combos.add(defaults);
            for (int s = 0; s < options.size(); s++) {
                for (int i = 1; i < options.get(s).size(); i++) {
                    List<String> l = new ArrayList<>(defaults);
                    l.set(s, options.get(s).get(i));
                    combos.add(l);
                }
            }
            int longest = options.stream().mapToInt(List::size).max().orElse(1);
            for (int i = 1; i < longest; i++) {
                List<String> l = new ArrayList<>();
                for (List<String> o : options) {
                    l.add(o.get(i % o.size()));
                }
                combos.add(l);
            }
        }
        List<List<String>> out = new ArrayList<>();
        for (List<String> c : combos) {
            List<String> words = new ArrayList<>();
            for (String w : c) {
                if (!w.isEmpty() && !words.contains(w)) {
                    words.add(w);
                }
            }
            if (!out.contains(words)) {
                out.add(words);
            }
        }
        return out;
    }

    private static int vectorLength(List<String> mods) {
        for (String m : mods) {
            if (m.matches("v[248]")) {
                return Integer.parseInt(m.substring(1));
            }
        }
        return 0;
    }

    /** Whether operand {@code i} of the form is written by the instruction. */
    private static boolean isDest(String opcode, String name, List<OperandSpec> specs, int i) {
        if (NO_DEST.contains(opcode) || NO_DEST.contains(name)) {
            return false;
        }
        if (i == 0) {
            return !specs.get(0).kinds().contains(OperandKind.ADDRESS);
        }
        return i == 1 && specs.get(1).paired();
    }

    /**
     * An instruction's operands with every source a register, and the positions that also take an immediate or a
     * sink.
     */
    record Rendered(List<Operand> ops, List<Integer> immediates, List<Integer> sinks) {}

    /** The operands with every source a register; null when the form cannot be rendered. */
    private static Rendered operands(String opcode, String name, InstructionForm form, List<PtxType> types,
            List<String> mods, boolean withOptional) {
        int vec = vectorLength(mods);
        List<Operand> ops = new ArrayList<>();
        List<Integer> imm = new ArrayList<>();
        List<Integer> sink = new ArrayList<>();
        List<OperandSpec> specs = form.operands();
        for (int i = 0; i < specs.size(); i++) {
            OperandSpec o = specs.get(i);
            if (!o.presentWith().isEmpty()) {
                if (!mods.contains(o.presentWith())) {
                    break;
                }
            } else if (o.optional() && !withOptional) {
                break;
            }
            boolean dest = isDest(opcode, name, specs, i);
            PtxType t = typeOf(form, o, types);
            Set<OperandKind> k = o.kinds();
            if (k.containsAll(EnumSet.allOf(OperandKind.class))) {
                // a free operand (the video instructions' sources): a register of its type
                k = EnumSet.of(OperandKind.REGISTER, OperandKind.TYPED_IMMEDIATE);
                if (t == null) {
                    t = PtxType.B32;
                }
            }
            Operand op;
            if (k.contains(OperandKind.ADDRESS)) {
                op = new Operand(false, Shape.ADDRESS, t == null ? PtxType.B32 : t, 1, 0, false,
                        new Address("", Base.REG64, 0, false));
            } else if (k.contains(OperandKind.LABEL)) {
                op = new Operand(false, Shape.LABEL, PtxType.B32, 1, 0, false, null);
            } else if ((k.contains(OperandKind.SYMBOL) || k.contains(OperandKind.BRANCH_TARGETS))
                    && !k.contains(OperandKind.REGISTER)) {
                op = new Operand(false, Shape.SYMBOL, PtxType.B32, 1, 0, false, null);
            } else if (k.contains(OperandKind.DATA) && vec > 0) {
                op = Operand.vector(dest, registerType(t), vec);
            } else if (k.contains(OperandKind.VECTOR) && !k.contains(OperandKind.REGISTER)) {
                if (vec > 0) {
                    op = Operand.vector(dest, registerType(t), vec);
                } else if (o.vectorLength() > 0) {
                    op = Operand.vector(dest, registerType(t == null ? PtxType.B32 : t), o.vectorLength());
                } else if (t == null) {
                    // mov's pack/unpack: the vector's elements split the other operand's type
                    PtxType whole = types.get(0);
                    op = Operand.vector(dest, bitType(whole.bits() / 2), 2);
                } else {
                    return null;
                }
            } else if (k.contains(OperandKind.REGISTER) || k.contains(OperandKind.DATA)) {
                op = Operand.register(dest, registerType(t == null ? PtxType.B32 : t));
            } else if (k.contains(OperandKind.PREDICATE)) {
                op = Operand.register(dest, PtxType.PRED);
            } else if (k.contains(OperandKind.TYPED_IMMEDIATE) || k.contains(OperandKind.INT_IMMEDIATE)) {
                op = Operand.immediate(t == null ? PtxType.B32 : t, legalValue(o));
            } else if (k.contains(OperandKind.SINK)) {
                op = new Operand(dest, Shape.SINK, PtxType.B32, 1, 0, false, null);
            } else {
                return null;
            }
            if (o.paired()) {
                op = op.asPaired();
            }
            if (op.shape() == Shape.REGISTER && !dest && (k.contains(OperandKind.TYPED_IMMEDIATE)
                    || k.contains(OperandKind.INT_IMMEDIATE))) {
                imm.add(ops.size());
            }
            if (op.shape() == Shape.REGISTER && dest && k.contains(OperandKind.SINK)) {
                sink.add(ops.size());
            }
            ops.add(op);
        }
        if (ops.size() < form.requiredOperands()) {
            return null;
        }
        return new Rendered(ops, imm, sink);
    }

    static PtxType typeOf(InstructionForm form, OperandSpec o, List<PtxType> types) {
        PtxType t = o.fixedType();
        if (o.typeSlot() != 0) {
            for (int i = 0; i < form.types().size(); i++) {
                if (form.types().get(i).name() == o.typeSlot()) {
                    t = types.get(i);
                }
            }
        }
        if (o.doubleWidth() && t != null) {
            t = t.doubled().orElse(t);
        }
        return t;
    }

    /** An immediate the spec allows: its first listed value, else the smallest multiple inside its range. */
    static long legalValue(OperandSpec o) {
        if (!o.values().isEmpty()) {
            return o.values().get(0);
        }
        long step = Math.max(1, o.multipleOf());
        long v = o.max() != 0 ? Math.max(o.min(), step) : step;
        return (v + step - 1) / step * step;
    }

    /** Register types the kernels declare; other types live in bit registers of their size. */
    static final Set<PtxType> DECLARABLE = EnumSet.of(PtxType.PRED, PtxType.B8, PtxType.B16, PtxType.B32,
            PtxType.B64, PtxType.B128, PtxType.U8, PtxType.U16, PtxType.U32, PtxType.U64, PtxType.S8, PtxType.S16,
            PtxType.S32, PtxType.S64, PtxType.F16, PtxType.F16X2, PtxType.F32, PtxType.F64);

    static PtxType registerType(PtxType t) {
        return DECLARABLE.contains(t) ? t : bitType(t.bits());
    }

    static PtxType bitType(int bits) {
        return switch (bits) {
            case 1, 2, 4, 6, 8 -> PtxType.B8;
            case 16 -> PtxType.B16;
            case 64 -> PtxType.B64;
            case 128 -> PtxType.B128;
            default -> PtxType.B32;
        };
    }

    /**
     * The operand-kind variants of one instruction: all registers; each immediate-capable source as an immediate;
     * every such source an immediate (constant folding); a sink for a destination that takes one; for memory
     * instructions, each address form of the space they reach ({@link #addressForms}). Beyond the first modifier
     * combination of a type ({@code full} false), registers only (and the plain address form).
     */
    private static List<List<Operand>> operandVariants(String opcode, List<String> words, Rendered r, boolean full) {
        List<List<Operand>> out = new ArrayList<>();
        List<Operand> base = r.ops();
        int addr = -1;
        for (int i = 0; i < base.size(); i++) {
            if (base.get(i).shape() == Shape.ADDRESS) {
                addr = i;
            }
        }
        if (addr >= 0) {
            List<Address> forms = addressForms(opcode, words);
            for (Address a : full ? forms : forms.subList(0, 1)) {
                List<Operand> l = new ArrayList<>(base);
                l.set(addr, base.get(addr).withAddress(a));
                out.add(l);
            }
            base = out.get(0);
        } else {
            out.add(base);
        }
        if (!full) {
            return out;
        }
        for (int i : r.immediates()) {
            List<Operand> l = new ArrayList<>(base);
            l.set(i, base.get(i).withShape(Shape.IMMEDIATE, 0));
            out.add(l);
        }
        if (r.immediates().size() > 1) {
            List<Operand> l = new ArrayList<>(base);
            for (int i : r.immediates()) {
                l.set(i, base.get(i).withShape(Shape.IMMEDIATE, 0));
            }
            out.add(l);
        }
        for (int i : r.sinks()) {
            List<Operand> l = new ArrayList<>(base);
            l.set(i, base.get(i).withShape(Shape.SINK, 0));
            out.add(l);
        }
        return out;
    }

    /** Offsets of the address forms: a negative one, and one beyond the 24 bits of a SASS memory offset. */
    static final long NEGATIVE = -48;
    static final long LARGE_GLOBAL = 0x1234560;
    /** Shared and local windows are small: a large offset there is still inside a 32-bit window. */
    static final long LARGE_WINDOW = 0x2000;

    /** The state space an instruction's words name, "" for a generic address. */
    static String space(List<String> words) {
        for (String w : words) {
            switch (w) {
                case "global", "shared", "shared::cta", "local", "const", "param", "param::entry", "param::func" -> {
                    return w;
                }
                default -> { }
            }
        }
        return "";
    }

    /**
     * The address forms of a memory instruction: the plain register first. Global: a 64-bit register with no,
     * zero, negative and large offsets, and a {@code .global} variable with an offset. Shared and local: 32-bit and
     * 64-bit window registers with offsets and the variable with an offset. Const and param: the variable with and
     * without an offset (and const through a register). Generic: a global buffer through its address with the
     * offsets, and shared and local memory through generic addresses (cvta).
     */
    static List<Address> addressForms(String opcode, List<String> words) {
        String space = space(words);
        List<Address> out = new ArrayList<>();
        if (Set.of("prefetch", "prefetchu", "applypriority", "discard", "createpolicy", "cvta", "isspacep")
                .contains(opcode)) {
            out.add(new Address(space.isEmpty() ? "generic" : space, Base.REG64, 0, false));
            return out;
        }
        switch (space) {
            case "global" -> {
                out.add(new Address("global", Base.REG64, 0, false));
                out.add(new Address("global", Base.REG64, 0, true));
                out.add(new Address("global", Base.REG64, NEGATIVE, true));
                out.add(new Address("global", Base.REG64, LARGE_GLOBAL, true));
                out.add(new Address("global", Base.SYMBOL, 16, true));
            }
            case "shared", "shared::cta", "local" -> {
                out.add(new Address(space, Base.REG32, 0, false));
                out.add(new Address(space, Base.REG32, NEGATIVE, true));
                out.add(new Address(space, Base.REG32, LARGE_WINDOW, true));
                out.add(new Address(space, Base.REG64, 0, true));
                out.add(new Address(space, Base.SYMBOL, 16, true));
            }
            case "const" -> {
                out.add(new Address(space, Base.REG64, 0, false));
                out.add(new Address(space, Base.REG64, NEGATIVE, true));
                out.add(new Address(space, Base.SYMBOL, 0, false));
                out.add(new Address(space, Base.SYMBOL, 16, true));
            }
            case "param", "param::entry", "param::func" -> {
                out.add(new Address(space, Base.SYMBOL, 0, false));
                out.add(new Address(space, Base.SYMBOL, 0, true));
            }
            default -> {
                out.add(new Address("generic", Base.REG64, 0, false));
                out.add(new Address("generic", Base.REG64, 0, true));
                out.add(new Address("generic", Base.REG64, NEGATIVE, true));
                out.add(new Address("generic", Base.REG64, LARGE_GLOBAL, true));
                out.add(new Address("generic:shared", Base.REG64, 0, false));
                out.add(new Address("generic:local", Base.REG64, 0, false));
            }
        }
        return out;
    }
}
