package org.jptxas.cli.generality;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.jptxas.cli.generality.FormCase.Address;
import org.jptxas.cli.generality.FormCase.Base;
import org.jptxas.cli.generality.FormCase.Family;
import org.jptxas.cli.generality.FormCase.Operand;
import org.jptxas.cli.generality.FormCase.Shape;
import org.jptxas.tables.ptx.PtxType;

/**
 * The kernel that runs one {@link FormCase}: each thread loads the instruction's sources from its slots of an input
 * buffer (edge values and random bits, {@link EdgeValues}), runs the instruction once, and stores every destination
 * (and, for memory instructions, the memory it touched, read back) to its slots of an output buffer. Which values
 * each operand gets follows what PTX defines: warp member masks are full, barrier ids and counts uniform, integer
 * divisors non-zero, carries set from an input first. The kernel, its launch and its buffers are deterministic in
 * the case's key.
 */
final class FormKernels {
    private FormKernels() {}

    /** Threads per block and blocks of the launch (one thread for instructions on one shared location). */
    static final int BLOCK = 128;
    static final int GRID = 2;
    /** Bytes of one thread's memory slot (the largest access is 16 bytes). */
    static final int SLOT = 16;
    /** The address an immediate cvta converts: above 4 GiB, so a truncation to 32 bits would show. */
    static final long IMMEDIATE_GLOBAL_ADDRESS = 0x1_2345_6780L;

    /** The case cannot be set up by this harness (said why); it is counted apart, never silently dropped. */
    static final class Unrenderable extends Exception {
        private static final long serialVersionUID = 1L;

        Unrenderable(String why) {
            super(why, null, false, false);
        }
    }

    /** One value stored per thread in the output buffer: its offset in the thread's record, its type and size. */
    record OutField(String what, int offset, PtxType type, int bytes) {}

    /**
     * A kernel argument: a global buffer with its initial bytes, a scalar of 1, 2, 4 or 8 bytes, or a byte array
     * passed by value (wider parameters).
     */
    sealed interface Param permits Buffer, Scalar, ByValue {}

    record Buffer(byte[] init) implements Param {}

    record Scalar(int bytes, long bits) implements Param {}

    record ByValue(byte[] value) implements Param {}

    /**
     * A rendered kernel.
     *
     * @param globals module-scope declarations (shared, const and global variables) the entry uses
     * @param entry the {@code .entry} text
     * @param out the index of the output buffer in {@code params}
     * @param outStride bytes per thread in the output buffer
     */
    record Kernel(String name, String globals, String entry, int grid, int block, List<Param> params, int out,
                  int outStride, List<OutField> fields) {
        int threads() {
            return grid * block;
        }
    }

    /** Renders {@code c} as the kernel {@code name}. */
    static Kernel render(FormCase c, String name) throws Unrenderable {
        return new Builder(c, name).build();
    }

    /**
     * Renders each case as its suite kernel {@code k<i>} into {@code kernels}, index for index, and returns the indices
     * rendered; with {@code probeFallback} a case without a suite kernel gets its probe kernel instead (one with
     * neither is left out: the suite counts it a harness failure).
     */
    static List<Integer> renderAll(List<FormCase> cases, Kernel[] kernels, boolean probeFallback) {
        List<Integer> rendered = new java.util.ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            try {
                kernels[i] = render(cases.get(i), "k" + i);
                rendered.add(i);
            } catch (Unrenderable e) {
                if (probeFallback) {
                    try {
                        kernels[i] = probe(cases.get(i), "k" + i);
                        rendered.add(i);
                    } catch (Unrenderable e2) {
                        // neither kernel can be built
                    }
                }
            }
        }
        return rendered;
    }

    /**
     * A kernel that only writes the instruction (operands as registers, immediates and a plain address), for the
     * front end to say whether it accepts a case the harness cannot run.
     */
    static Kernel probe(FormCase c, String name) throws Unrenderable {
        Builder b = new Builder(c, name);
        List<String> texts = b.operands();
        b.reg("b64", "%pa");
        String space = FormCatalog.space(c.words());
        for (int i = 0; i < texts.size(); i++) {
            if (texts.get(i) == null) {
                if (space.startsWith("param")) {
                    b.extraParamDecls.add(".param .align 16 .b8 " + name + "_p[32]");
                    b.extraParams.add(new Scalar(8, 0));
                    texts.set(i, "[" + name + "_p]");
                } else {
                    texts.set(i, "[%pa]");
                }
            }
        }
        b.line(b.instruction(texts));
        return b.finish();
    }

    /** The value an operand must have for the instruction to be defined. */
    enum Role { DATA, MASK, BARRIER_ID, BARRIER_COUNT, DIVISOR, LUT, SIZE, ALIGN, FRACTION, POLICY_SIZE, SELECT }

    static Role role(FormCase c, int i) {
        String op = c.opcode();
        List<Operand> ops = c.operands();
        Operand o = ops.get(i);
        if (o.dest()) {
            return Role.DATA;
        }
        boolean sync = c.words().contains("sync");
        if ((op.equals("shfl") || op.equals("vote") || op.equals("match") || op.equals("redux") || op.equals("elect"))
                && sync && i == ops.size() - 1) {
            return Role.MASK;
        }
        if ((op.equals("bar") || op.equals("barrier")) && c.words().contains("warp")) {
            return Role.MASK;
        }
        if (op.equals("bar") || op.equals("barrier")) {
            int first = 0;
            while (first < ops.size() && ops.get(first).dest()) {
                first++;
            }
            if (i == first) {
                return Role.BARRIER_ID;
            }
            if (i == first + 1 && o.type() != PtxType.PRED) {
                return Role.BARRIER_COUNT;
            }
            return Role.DATA;
        }
        if ((op.equals("div") || op.equals("rem")) && i == 2 && o.type().typeClass() != PtxType.TypeClass.FLOAT) {
            return Role.DIVISOR;
        }
        if (op.equals("lop3") && o.shape() == Shape.IMMEDIATE && o.type() != PtxType.PRED) {
            return Role.LUT;
        }
        if (op.equals("alloca")) {
            return i == 1 ? Role.SIZE : Role.ALIGN;
        }
        if (op.equals("createpolicy")) {
            return o.type() == PtxType.F32 ? Role.FRACTION : Role.POLICY_SIZE;
        }
        if (op.equals("brx.idx")) {
            return Role.SELECT;
        }
        return Role.DATA;
    }

    /** Whether every thread must see the same value (barriers, masks, sizes). */
    static boolean uniform(Role r) {
        return r != Role.DATA && r != Role.DIVISOR && r != Role.SELECT;
    }

    /** The immediate of an operand of {@code c}: a role's fixed value, else an edge value chosen by the key. */
    static long immediateValue(FormCase c, int i) {
        Operand o = c.operands().get(i);
        Role r = role(c, i);
        return switch (r) {
            case MASK -> 0xffffffffL;
            case BARRIER_ID -> 1;
            case BARRIER_COUNT -> BLOCK;
            case DIVISOR -> {
                long v = EdgeValues.edge(o.type(), c.key().hashCode() + 17 * i);
                yield v == 0 ? 7 : v;
            }
            case LUT -> Math.floorMod(c.key().hashCode(), 256);
            case SIZE -> 64;
            case ALIGN -> 8;
            case FRACTION -> 0x3f000000L;
            case POLICY_SIZE -> 256;
            case SELECT -> 1;
            case DATA -> o.type() == PtxType.PRED ? Math.floorMod(c.key().hashCode(), 2)
                    : o.immediate() != 0 ? o.immediate()
                    : Approximate.clampInput(c, o.type(), EdgeValues.edge(o.type(), c.key().hashCode() + 31 * i));
        };
    }

    /** PTX text of an immediate of type t. */
    static String immediate(PtxType t, long bits) {
        if (t == PtxType.F64) {
            return String.format("0d%016X", bits);
        }
        if (t == PtxType.F32 || t == PtxType.TF32) {
            return String.format("0f%08X", bits & 0xffffffffL);
        }
        if (t == PtxType.PRED) {
            return Long.toString(bits & 1);
        }
        int width = Math.min(64, EdgeValues.width(t));
        long v = bits & EdgeValues.mask(width);
        if (t.typeClass() == PtxType.TypeClass.SIGNED && width < 64) {
            long sign = 1L << (width - 1);
            return Long.toString((v ^ sign) - sign);
        }
        if (t.typeClass() == PtxType.TypeClass.SIGNED) {
            return Long.toString(v);
        }
        return String.format("0x%X", v);
    }

    /** Writes kernels; {@code %o<i>} is operand i, {@code %o<i>_<j>} element j of a vector. */
    private static final class Builder {
        final FormCase c;
        final String name;
        final Random rnd;
        final StringBuilder decl = new StringBuilder();
        final StringBuilder code = new StringBuilder();
        final StringBuilder globals = new StringBuilder();
        final List<OutField> fields = new ArrayList<>();
        /** Input slots: per slot, the values of every thread. */
        final List<long[]> inputs = new ArrayList<>();
        int outBytes;
        int grid = GRID;
        int block = BLOCK;
        final List<Param> extraParams = new ArrayList<>();
        final List<String> extraParamDecls = new ArrayList<>();
        byte[] memInit;

        Builder(FormCase c, String name) {
            this.c = c;
            this.name = name;
            this.rnd = new Random(c.key().hashCode() * 1_000_003L + 12345);
        }

        int threads() {
            return grid * block;
        }

        void line(String s) {
            code.append("  ").append(s).append('\n');
        }

        void reg(String type, String names) {
            decl.append("  .reg .").append(type).append(' ').append(names).append(";\n");
        }

        /** A new input slot with a value per thread; its byte offset in the thread's input record. */
        int input(long[] perThread) {
            inputs.add(perThread);
            return 8 * (inputs.size() - 1);
        }

        long[] values(PtxType t, Role r) {
            long[] v = new long[threads()];
            long fixed = r == Role.DATA || r == Role.DIVISOR || r == Role.SELECT ? 0 : immediateValue(c, -1 >>> 1, r);
            for (int i = 0; i < v.length; i++) {
                switch (r) {
                    case DATA -> v[i] = Approximate.clampInput(c, t, EdgeValues.value(t, rnd));
                    case DIVISOR -> {
                        long x = EdgeValues.value(t, rnd);
                        v[i] = (x & EdgeValues.mask(Math.min(64, EdgeValues.width(t)))) == 0 ? 3 : x;
                    }
                    case SELECT -> v[i] = rnd.nextInt(3);
                    default -> v[i] = fixed;
                }
            }
            return v;
        }

        /** Loads an input slot of the thread into register {@code reg} of type t. */
        void load(String reg, PtxType t, int offset) {
            int w = EdgeValues.width(t);
            if (t == PtxType.PRED) {
                line("ld.global.u32 %t32, [%in+" + offset + "];");
                line("setp.ne.u32 " + reg + ", %t32, 0;");
            } else if (w == 128) {
                line("ld.global.v2.b64 {%tlo, %thi}, [%in+" + offset + "];");
                line("mov.b128 " + reg + ", {%tlo, %thi};");
            } else {
                line("ld.global.b" + w + " " + reg + ", [%in+" + offset + "];");
            }
        }

        /** Stores register {@code reg} of type t to a new output field. */
        void store(String what, String reg, PtxType t) {
            int w = EdgeValues.width(t);
            int bytes = w == 128 ? 16 : 8;
            int offset = outBytes;
            outBytes += bytes;
            fields.add(new OutField(what, offset, t, w == 128 ? 16 : Math.max(1, w / 8)));
            if (t == PtxType.PRED) {
                line("selp.u32 %t32, 1, 0, " + reg + ";");
                line("st.global.u32 [%out+" + offset + "], %t32;");
            } else if (w == 128) {
                line("mov.b128 {%tlo, %thi}, " + reg + ";");
                line("st.global.v2.b64 [%out+" + offset + "], {%tlo, %thi};");
            } else {
                line("st.global.b" + w + " [%out+" + offset + "], " + reg + ";");
            }
        }

        long immediateValue(FormCase c, int i, Role r) {
            return switch (r) {
                case MASK -> 0xffffffffL;
                case BARRIER_ID -> 1;
                case BARRIER_COUNT -> block;
                case SIZE -> 64;
                case ALIGN -> 8;
                case FRACTION -> 0x3f000000L;
                case POLICY_SIZE -> 256;
                default -> 0;
            };
        }

        static String regType(PtxType t) {
            return t.ptxName();
        }

        /** Declares and loads the sources, and declares the destinations; returns the operand texts. */
        List<String> operands() throws Unrenderable {
            List<String> texts = new ArrayList<>();
            List<Operand> ops = c.operands();
            for (int i = 0; i < ops.size(); i++) {
                Operand o = ops.get(i);
                String r = "%o" + i;
                Role role = role(c, i);
                switch (o.shape()) {
                    case REGISTER -> {
                        reg(regType(o.type()), r);
                        if (!o.dest()) {
                            load(r, o.type(), input(values(o.type(), role)));
                        }
                        texts.add(r);
                    }
                    case VECTOR -> {
                        StringBuilder sb = new StringBuilder("{");
                        for (int j = 0; j < o.length(); j++) {
                            String e = r + "_" + j;
                            reg(regType(o.type()), e);
                            if (!o.dest()) {
                                load(e, o.type(), input(values(o.type(), role)));
                            }
                            sb.append(j == 0 ? "" : ", ").append(e);
                        }
                        texts.add(sb.append('}').toString());
                    }
                    case IMMEDIATE -> {
                        long v = o.immediate() != 0 && role == Role.DATA ? o.immediate()
                                : role == Role.DATA || role == Role.DIVISOR || role == Role.LUT || role == Role.SELECT
                                ? FormKernels.immediateValue(c, i) : immediateValue(c, i, role);
                        texts.add(FormKernels.immediate(o.type(), v));
                    }
                    case SINK -> texts.add("_");
                    case ADDRESS, LABEL, SYMBOL, SPECIAL -> texts.add(null); // the family fills these in
                    default -> throw new Unrenderable("operand shape " + o.shape());
                }
            }
            return texts;
        }

        /** The instruction with its operand texts, guarded when the case is predicated. */
        String instruction(List<String> texts) {
            StringBuilder sb = new StringBuilder(c.predicated() ? "@%pg " : "").append(c.instruction());
            for (int i = 0; i < texts.size(); i++) {
                sb.append(i == 0 ? " " : c.operands().get(i).paired() ? "|" : ", ").append(texts.get(i));
            }
            return sb.append(';').toString();
        }

        /** Guarded cases: the guard from an input, and every destination given a known value first. */
        void guard() {
            if (!c.predicated()) {
                return;
            }
            long[] g = new long[threads()];
            for (int i = 0; i < g.length; i++) {
                g[i] = rnd.nextBoolean() ? 1 : 0;
            }
            load("%pg", PtxType.PRED, input(g));
            for (int i = 0; i < c.operands().size(); i++) {
                Operand o = c.operands().get(i);
                if (!o.dest()) {
                    continue;
                }
                if (o.shape() == Shape.REGISTER) {
                    load("%o" + i, o.type(), input(values(o.type(), Role.DATA)));
                } else if (o.shape() == Shape.VECTOR) {
                    for (int j = 0; j < o.length(); j++) {
                        load("%o" + i + "_" + j, o.type(), input(values(o.type(), Role.DATA)));
                    }
                }
            }
        }

        void storeDests() {
            for (int i = 0; i < c.operands().size(); i++) {
                Operand o = c.operands().get(i);
                if (!o.dest()) {
                    continue;
                }
                if (o.shape() == Shape.REGISTER) {
                    store("operand " + i, "%o" + i, o.type());
                } else if (o.shape() == Shape.VECTOR) {
                    for (int j = 0; j < o.length(); j++) {
                        store("operand " + i + "[" + j + "]", "%o" + i + "_" + j, o.type());
                    }
                }
            }
        }

        Kernel build() throws Unrenderable {
            switch (c.family()) {
                case ALU, WARP, CARRY -> alu();
                case MEMORY -> memory();
                case BRANCH -> branch();
                default -> throw new Unrenderable("family " + c.family());
            }
            return finish();
        }

        void alu() throws Unrenderable {
            if (c.opcode().equals("bar") || c.opcode().equals("barrier")) {
                grid = 1;
            }
            List<String> texts = operands();
            for (String t : texts) {
                if (t == null) {
                    throw new Unrenderable("an address, label or symbol operand outside a memory or branch form");
                }
            }
            guard();
            // Subtractions keep a borrow in CC.CF (the PTX ISA's subc: a - (b + CF)), additions a carry; ptxas's
            // code keeps the hardware's carry for both (a borrow is a missing carry), so the flag is set and read by
            // instructions of the same kind as the one under test, where the two models agree.
            boolean borrow = c.opcode().startsWith("sub");
            if (c.family() == Family.CARRY) {
                // the flag is undefined at entry: set it from an input (a carry or borrow when the input is not 0)
                long[] cin = new long[threads()];
                for (int i = 0; i < cin.length; i++) {
                    cin[i] = rnd.nextInt(2) * (1 + rnd.nextInt(100));
                }
                reg("b32", "%cin, %cout");
                line("ld.global.u32 %cin, [%in+" + input(cin) + "];");
                line(borrow ? "sub.cc.u32 %cin, 0, %cin;" : "add.cc.u32 %cin, %cin, 0xFFFFFFFF;");
            }
            line(instruction(texts));
            if (c.family() == Family.CARRY) {
                line(borrow ? "subc.u32 %cout, 0, 0;" : "addc.u32 %cout, 0, 0;");
                store("carry out", "%cout", PtxType.U32);
            }
            storeDests();
        }

        // ------------------------------------------------------------------ branches

        void branch() throws Unrenderable {
            reg("b32", "%sel, %res");
            line("ld.global.u32 %sel, [%in+" + input(values(PtxType.U32, Role.SELECT)) + "];");
            if (c.opcode().equals("bra")) {
                reg("pred", "%pb");
                // .uni promises a non-divergent branch: decide by block
                line(c.words().contains("uni") ? "setp.ne.u32 %pb, %ctx, 0;" : "setp.ne.u32 %pb, %sel, 0;");
                line("mov.u32 %res, 10;");
                String text = "@%pb " + c.instruction() + " " + name + "_L1;";
                line(text);
                line("mov.u32 %res, 20;");
                code.append(name).append("_L1:\n");
                store("branch result", "%res", PtxType.U32);
                return;
            }
            // brx.idx: a table of three targets
            Operand idx = c.operands().get(0);
            String index = idx.shape() == Shape.IMMEDIATE ? "1" : c.words().contains("uni") ? "%ctx" : "%sel";
            code.append(name).append("_T: .branchtargets ").append(name).append("_L0, ").append(name).append("_L1, ")
                    .append(name).append("_L2;\n");
            line(c.instruction() + " " + index + ", " + name + "_T;");
            for (int k = 0; k < 3; k++) {
                code.append(name).append("_L").append(k).append(":\n");
                line("mov.u32 %res, " + (100 + k) + ";");
                line("bra.uni " + name + "_J;");
            }
            code.append(name).append("_J:\n");
            store("branch result", "%res", PtxType.U32);
        }

        // ------------------------------------------------------------------ memory

        /** The memory slot of this thread: where the instruction's address points. */
        String space;
        String ea;
        /** The call-site parameter the case addresses ({@link #callSite}), else null. */
        String callSiteSymbol;

        void memory() throws Unrenderable {
            String op = c.opcode();
            switch (op) {
                case "ld", "ldu", "st", "atom", "red" -> access();
                case "prefetch", "prefetchu", "applypriority", "discard" -> hint();
                case "cvta" -> cvta();
                case "isspacep" -> isspacep();
                case "createpolicy" -> createpolicy();
                case "alloca", "stacksave", "stackrestore" -> stack();
                default -> throw new Unrenderable("memory instruction " + op);
            }
        }

        int addressIndex() {
            for (int i = 0; i < c.operands().size(); i++) {
                if (c.operands().get(i).shape() == Shape.ADDRESS) {
                    return i;
                }
            }
            return -1;
        }

        /** Bytes the instruction moves: its type times its vector length. */
        int accessBytes() {
            int n = 1;
            PtxType t = null;
            for (Operand o : c.operands()) {
                if (o.shape() == Shape.VECTOR) {
                    n = o.length();
                }
            }
            for (String w : c.words()) {
                java.util.Optional<PtxType> p = PtxType.of(w);
                if (p.isPresent()) {
                    t = p.get();
                }
            }
            return n * Math.max(1, (t == null ? 32 : t.bits()) / 8);
        }

        static final int WINDOW_MARGIN = (int) FormCatalog.LARGE_WINDOW + 64;

        /**
         * Declares the memory of the case's space, fills this thread's slot, and leaves its address in {@code %ea}
         * (64-bit; for shared and local windows also {@code %ea32}). One thread when the address is a variable
         * (every thread would reach the same location).
         */
        void prepareSlot(Address a, boolean writes) throws Unrenderable {
            space = a.space();
            boolean symbol = a.base() == Base.SYMBOL;
            long symOff = a.written() ? a.offset() : 0;
            if (symbol) {
                grid = 1;
                block = 1;
            }
            reg("b64", "%ea, %base, %rb0, %rb1");
            reg("b32", "%ea32, %base32");
            String where = space.startsWith("generic:") ? space.substring(8) : space;
            switch (where) {
                case "global", "generic" -> {
                    int size = 64 + threads() * SLOT + 64;
                    memInit = new byte[size];
                    rnd.nextBytes(memInit);
                    extraParamDecls.add(".param .u64 " + name + "_mem");
                    extraParams.add(new Buffer(memInit));
                    if (symbol) {
                        // a .global variable, initialized in the module (the kernel writes it only at the end)
                        byte[] init = new byte[64 + SLOT + 64];
                        rnd.nextBytes(init);
                        globals.append(".global .align 16 .b8 ").append(name).append("_g[").append(init.length)
                                .append("] = {").append(bytes(init)).append("};\n");
                        line("mov.u64 %ea, " + name + "_g;");
                        line("add.u64 %ea, %ea, " + symOff + ";");
                    } else {
                        line("ld.param.u64 %ea, [" + name + "_mem];");
                        if (where.equals("global")) {
                            line("cvta.to.global.u64 %ea, %ea;");
                        }
                        line("mul.wide.u32 %t64, %gid, " + SLOT + ";");
                        line("add.u64 %ea, %ea, %t64;");
                        line("add.u64 %ea, %ea, 64;");
                    }
                }
                case "shared", "shared::cta" -> {
                    int size = WINDOW_MARGIN + block * SLOT + 64;
                    globals.append(".shared .align 16 .b8 ").append(name).append("_s[").append(size).append("];\n");
                    line("mov.u32 %ea32, " + name + "_s;");
                    if (symbol) {
                        line("add.u32 %ea32, %ea32, " + symOff + ";");
                    } else {
                        line("mad.lo.u32 %ea32, %tix, " + SLOT + ", %ea32;");
                        line("add.u32 %ea32, %ea32, " + WINDOW_MARGIN + ";");
                    }
                    fillWindow("shared");
                    if (space.startsWith("generic:")) {
                        line("cvta.shared.u64 %ea, %ea;");
                    }
                }
                case "local" -> {
                    int size = WINDOW_MARGIN + SLOT + 64;
                    decl.append("  .local .align 16 .b8 ").append(name).append("_l[").append(size).append("];\n");
                    line("mov.u32 %ea32, " + name + "_l;");
                    line("add.u32 %ea32, %ea32, " + (symbol ? symOff : WINDOW_MARGIN) + ";");
                    fillWindow("local");
                    if (space.startsWith("generic:")) {
                        line("cvta.local.u64 %ea, %ea;");
                    }
                }
                case "const" -> {
                    if (writes) {
                        throw new Unrenderable("a write to the constant space");
                    }
                    byte[] init = new byte[64 + threads() * SLOT + 64];
                    rnd.nextBytes(init);
                    globals.append(".const .align 16 .b8 ").append(name).append("_c[").append(init.length)
                            .append("] = {").append(bytes(init)).append("};\n");
                    line("mov.u64 %ea, " + name + "_c;");
                    if (symbol) {
                        line("add.u64 %ea, %ea, " + symOff + ";");
                    } else {
                        line("mul.wide.u32 %t64, %gid, " + SLOT + ";");
                        line("add.u64 %ea, %ea, %t64;");
                        line("add.u64 %ea, %ea, 64;");
                    }
                }
                case "param::func" -> callSite(symbol, symOff, writes);
                case "param", "param::entry" -> {
                    if (writes && where.equals("param")) {
                        callSite(symbol, symOff, true); // a kernel's st.param writes a call's argument
                        return;
                    }
                    if (writes) {
                        throw new Unrenderable("a write to a kernel parameter");
                    }
                    int bytes = accessBytes();
                    extraParamDecls.add(".param .align " + bytes + " .b8 " + name + "_p[" + bytes + "]");
                    if (bytes > 8) {
                        byte[] value = new byte[bytes];
                        rnd.nextBytes(value);
                        extraParams.add(new ByValue(value));
                    } else {
                        extraParams.add(new Scalar(bytes, rnd.nextLong() & EdgeValues.mask(8 * bytes)));
                    }
                }
                default -> throw new Unrenderable("state space " + where);
            }
        }

        /**
         * A call-site parameter ({@link CallSiteParams}): declares the copying function, the argument and the return
         * value, and fills the argument with random bytes; a read calls before the instruction, a write after it.
         */
        void callSite(boolean symbol, long symOff, boolean writes) throws Unrenderable {
            if (!symbol) {
                throw new Unrenderable("a register address of a call-site parameter");
            }
            if (symOff < 0 || symOff + accessBytes() > CallSiteParams.BYTES) {
                throw new Unrenderable("an access past a call-site parameter's " + CallSiteParams.BYTES + " bytes");
            }
            callSiteSymbol = CallSiteParams.symbol(name, writes);
            globals.append(CallSiteParams.function(name));
            decl.append(CallSiteParams.declarations(name));
            for (int at = 0; at < CallSiteParams.BYTES; at += 8) {
                line("mov.b64 %rb0, " + String.format("0x%016X", rnd.nextLong()) + ";");
                line("st.param.b64 [" + name + "_a+" + at + "], %rb0;");
            }
            if (!writes) {
                line(CallSiteParams.call(name));
            }
        }

        /** Fills this thread's window slot from the input and points {@code %ea} at it (window address, 64-bit). */
        void fillWindow(String ss) {
            long[] lo = new long[threads()], hi = new long[threads()];
            for (int i = 0; i < lo.length; i++) {
                lo[i] = rnd.nextLong();
                hi[i] = rnd.nextLong();
            }
            int off = input(lo);
            input(hi);
            line("ld.global.v2.b64 {%rb0, %rb1}, [%in+" + off + "];");
            line("st." + ss + ".v2.b64 [%ea32], {%rb0, %rb1};");
            line("cvt.u64.u32 %ea, %ea32;");
            if (ss.equals("shared")) {
                line("bar.sync 0;");
            }
        }

        /** The address operand's text; sets up its base register. */
        String address(Address a) {
            String where = space.startsWith("generic:") ? "generic" : space;
            String off = a.written() ? (a.offset() < 0 ? "+" + a.offset() : "+" + a.offset()) : "";
            if (a.base() == Base.SYMBOL && callSiteSymbol != null) {
                return "[" + callSiteSymbol + off + "]";
            }
            if (a.base() == Base.SYMBOL) {
                String sym = switch (where) {
                    case "global" -> name + "_g";
                    case "shared", "shared::cta" -> name + "_s";
                    case "local" -> name + "_l";
                    case "const" -> name + "_c";
                    default -> name + "_p";
                };
                return "[" + sym + off + "]";
            }
            if (a.base() == Base.REG32) {
                line("sub.u32 %base32, %ea32, " + a.offset() + ";");
                return "[%base32" + off + "]";
            }
            line("sub.u64 %base, %ea, " + a.offset() + ";");
            return "[%base" + off + "]";
        }

        /** Reads this thread's slot back after the instruction (spaces the kernel may write). */
        void readBack() {
            if (callSiteSymbol != null) {
                line(CallSiteParams.call(name));
                for (int at = 0; at < CallSiteParams.BYTES; at += 8) {
                    line("ld.param.b64 %rb0, [" + name + "_r+" + at + "];");
                    store("returned[" + at + ":" + (at + 8) + "]", "%rb0", PtxType.B64);
                }
                return;
            }
            String where = space.startsWith("generic:") ? "generic" : space;
            String ss = switch (where) {
                case "generic" -> "";
                case "shared", "shared::cta" -> ".shared";
                case "local" -> ".local";
                default -> ".global";
            };
            String addr = where.equals("shared") || where.equals("shared::cta") || where.equals("local") ? "%ea32"
                    : "%ea";
            line("ld" + ss + ".v2.b64 {%rb0, %rb1}, [" + addr + "];");
            store("memory[0:8]", "%rb0", PtxType.B64);
            store("memory[8:16]", "%rb1", PtxType.B64);
        }

        void access() throws Unrenderable {
            int ai = addressIndex();
            Address a = c.operands().get(ai).address();
            boolean writes = c.opcode().equals("st") || c.opcode().equals("atom") || c.opcode().equals("red");
            prepareSlot(a, writes);
            List<String> texts = operands();
            if (c.opcode().equals("atom") && c.words().contains("cas")) {
                // half of the compare values equal the memory's: the swap happens
                int cmp = ai + 1;
                Operand o = c.operands().get(cmp);
                if (o.shape() == Shape.REGISTER) {
                    reg("pred", "%podd");
                    reg(o.type().ptxName(), "%cur");
                    line("and.b32 %t32, %gid, 1;");
                    line("setp.eq.u32 %podd, %t32, 1;");
                    line("ld" + spaceWord() + "." + (EdgeValues.width(o.type()) == 128 ? "b128" : "b"
                            + EdgeValues.width(o.type())) + " %cur, [" + plainAddress() + "];");
                    line("@%podd mov.b" + EdgeValues.width(o.type()) + " %o" + cmp + ", %cur;");
                }
            }
            for (int i = 0; i < texts.size(); i++) {
                String t = texts.get(i);
                if (t == null) {
                    Operand o = c.operands().get(i);
                    if (o.shape() != Shape.ADDRESS) {
                        throw new Unrenderable("operand shape " + o.shape() + " in a memory instruction");
                    }
                    texts.set(i, address(o.address()));
                }
            }
            if (c.words().contains("L2::cache_hint")) {
                int last = texts.size() - 1;
                reg("b64", "%policy");
                line("createpolicy.fractional.L2::evict_last.b64 %policy, 0f3F800000;");
                texts.set(last, "%policy");
            }
            guard();
            line(instruction(texts));
            storeDests();
            if (writes) {
                readBack();
            }
        }

        String spaceWord() {
            String where = space.startsWith("generic:") ? "generic" : space;
            return switch (where) {
                case "generic" -> "";
                case "shared::cta" -> ".shared";
                default -> "." + where;
            };
        }

        String plainAddress() {
            String where = space.startsWith("generic:") ? "generic" : space;
            return where.equals("shared") || where.equals("shared::cta") || where.equals("local") ? "%ea32" : "%ea";
        }

        /** Cache hints: run on this thread's global slot; only completion is compared (a marker is stored). */
        void hint() throws Unrenderable {
            String s = FormCatalog.space(c.words());
            reg("b64", "%ea, %base, %rb0, %rb1");
            int size = threads() * 128 + 256;
            memInit = new byte[size];
            extraParamDecls.add(".param .u64 " + name + "_mem");
            extraParams.add(new Buffer(memInit));
            line("ld.param.u64 %ea, [" + name + "_mem];");
            if (!s.isEmpty() && !s.equals("local")) {
                line("cvta.to.global.u64 %ea, %ea;");
            }
            line("mul.wide.u32 %t64, %gid, 128;");
            line("add.u64 %ea, %ea, %t64;");
            if (s.equals("local")) {
                reg("b32", "%ea32");
                decl.append("  .local .align 16 .b8 ").append(name).append("_l[128];\n");
                line("mov.u64 %ea, " + name + "_l;");
            }
            List<String> texts = operands();
            for (int i = 0; i < texts.size(); i++) {
                if (texts.get(i) == null) {
                    texts.set(i, "[%ea]");
                }
            }
            guard();
            line(instruction(texts));
            reg("b32", "%done");
            line("mov.u32 %done, 1;");
            store("completed", "%done", PtxType.U32);
        }

        /** cvta: converts this thread's slot address, then loads through the result (the address is not compared). */
        void cvta() throws Unrenderable {
            boolean to = c.words().contains("to");
            String s = FormCatalog.space(c.words());
            boolean wide = c.words().contains("u64");
            if (!wide) {
                throw new Unrenderable("cvta with 32-bit addresses (a 64-bit module's generic addresses do not fit)");
            }
            if (c.operands().get(1).shape() == Shape.IMMEDIATE) {
                immediateCvta(s);
                return;
            }
            prepareSlot(new Address(s, Base.REG64, 0, false), false);
            reg("b64", "%o0, %o1");
            String where = s.equals("shared::cta") ? "shared" : s;
            // the source: a generic address for cvta.to, else an address of the space
            switch (where) {
                case "global" -> line("mov.u64 %o1, %ea;");
                case "shared", "local" -> line("cvt.u64.u32 %o1, %ea32;");
                case "const" -> line("mov.u64 %o1, %ea;");
                case "param", "param::entry" -> line("mov.u64 %o1, " + name + "_p;");
                default -> throw new Unrenderable("cvta of " + s);
            }
            if (to) {
                if (where.equals("global")) {
                    line("ld.param.u64 %o1, [" + name + "_mem];");
                    line("add.u64 %o1, %o1, %t64;");
                    line("add.u64 %o1, %o1, 64;");
                } else {
                    line("cvta." + where + ".u64 %o1, %o1;");
                }
            }
            guard();
            line(instruction(List.of("%o0", "%o1")));
            reg("b64", "%v");
            if (c.predicated()) {
                // a skipped conversion leaves the destination as initialized: do not load through it
                reg("pred", "%pk");
                line("mov.b64 %v, 0;");
                line("@%pg ld" + (to ? "." + where : "") + ".b8 %t16, [%o0];");
                reg("b16", "%t16");
                line("@!%pg mov.b16 %t16, 0;");
                store("loaded through the result", "%t16", PtxType.B16);
                return;
            }
            line("ld" + (to ? "." + where : "") + ".b64 %v, [%o0];");
            store("loaded through the result", "%v", PtxType.B64);
        }

        /**
         * cvta of an immediate global address: nothing is loaded through it (no memory is there), the converted address
         * itself is compared. Global addresses are generic ones, so both directions keep the value. A shared or local
         * window's start is the machine's own, not a value PTX defines: those stay unrendered.
         */
        void immediateCvta(String space) throws Unrenderable {
            if (!space.equals("global")) {
                throw new Unrenderable("cvta of an immediate address of " + space);
            }
            reg("b64", "%o0");
            guard();
            line(instruction(List.of("%o0", FormKernels.immediate(PtxType.U64, IMMEDIATE_GLOBAL_ADDRESS))));
            store("converted address", "%o0", PtxType.B64);
        }

        /** isspacep: asks about generic addresses of global, shared and local memory, by thread. */
        void isspacep() throws Unrenderable {
            reg("b64", "%ea, %o1, %ga, %gs, %gl");
            reg("b32", "%ea32, %k");
            reg("pred", "%o0, %pk");
            int size = 64 + threads() * SLOT + 64;
            memInit = new byte[size];
            extraParamDecls.add(".param .u64 " + name + "_mem");
            extraParams.add(new Buffer(memInit));
            globals.append(".shared .align 16 .b8 ").append(name).append("_s[64];\n");
            decl.append("  .local .align 16 .b8 ").append(name).append("_l[64];\n");
            line("ld.param.u64 %ga, [" + name + "_mem];");
            line("mov.u64 %gs, " + name + "_s;");
            line("cvta.shared.u64 %gs, %gs;");
            line("mov.u64 %gl, " + name + "_l;");
            line("cvta.local.u64 %gl, %gl;");
            line("rem.u32 %k, %gid, 3;");
            line("setp.eq.u32 %pk, %k, 1;");
            line("selp.b64 %o1, %gs, %ga, %pk;");
            line("setp.eq.u32 %pk, %k, 2;");
            line("selp.b64 %o1, %gl, %o1, %pk;");
            if (c.operands().get(1).shape() == Shape.IMMEDIATE) {
                throw new Unrenderable("isspacep of an immediate address");
            }
            guard();
            if (c.predicated()) {
                line("setp.ne.u32 %o0, %gid, %gid;");
            }
            line(instruction(List.of("%o0", "%o1")));
            store("predicate", "%o0", PtxType.PRED);
        }

        /**
         * createpolicy: the policy's bits are the hardware's own (not compared); the kernel must compile and run. (Its
         * use by a {@code .L2::cache_hint} access is the access's case.)
         */
        void createpolicy() throws Unrenderable {
            boolean range = c.words().contains("range");
            if (range) {
                prepareSlot(new Address("global", Base.REG64, 0, false), false);
            } else {
                prepareSlot(new Address("global", Base.REG64, 0, false), false);
            }
            List<String> texts = operands();
            for (int i = 0; i < texts.size(); i++) {
                if (texts.get(i) == null) {
                    texts.set(i, "[%ea]");
                }
            }
            guard();
            if (c.predicated()) {
                line("mov.b64 %o0, 0;");
            }
            line(instruction(texts));
            reg("b32", "%done");
            line("mov.u32 %done, 1;");
            store("completed", "%done", PtxType.U32);
        }

        /** alloca, stacksave, stackrestore: a frame allocated, written and read back, the stack restored. */
        void stack() throws Unrenderable {
            String op = c.opcode();
            String rt = c.words().get(c.words().size() - 1);
            reg(rt, "%sp");
            reg("b64", "%lp");
            reg("b32", "%v, %w");
            line("ld.global.u32 %v, [%in+" + input(values(PtxType.U32, Role.DATA)) + "];");
            String frame;
            if (op.equals("alloca")) {
                List<String> texts = operands();
                line("stacksave." + rt + " %sp;");
                line(instruction(texts));
                frame = "%o0";
            } else {
                reg(rt, "%fr");
                line(op.equals("stacksave") ? instruction(List.of("%sp")) : "stacksave." + rt + " %sp;");
                line("alloca." + rt + " %fr, 64;");
                frame = "%fr";
            }
            line(rt.equals("u64") ? "mov.b64 %lp, " + frame + ";" : "cvt.u64.u32 %lp, " + frame + ";");
            line("st.local.u32 [%lp], %v;");
            line("ld.local.u32 %w, [%lp];");
            line(op.equals("stackrestore") ? instruction(List.of("%sp")) : "stackrestore." + rt + " %sp;");
            store("loaded from the frame", "%w", PtxType.U32);
        }

        // ------------------------------------------------------------------ the kernel

        Kernel finish() {
            int threads = threads();
            int inStride = Math.max(8, 8 * inputs.size());
            byte[] in = new byte[threads * inStride];
            ByteBuffer bb = ByteBuffer.wrap(in).order(ByteOrder.LITTLE_ENDIAN);
            for (int s = 0; s < inputs.size(); s++) {
                for (int t = 0; t < threads; t++) {
                    bb.putLong(t * inStride + 8 * s, inputs.get(s)[t]);
                }
            }
            int outStride = Math.max(8, outBytes);
            byte[] out = new byte[threads * outStride];
            java.util.Arrays.fill(out, (byte) 0xA5);
            StringBuilder e = new StringBuilder();
            e.append(".visible .entry ").append(name).append("(.param .u64 ").append(name).append("_in, .param .u64 ")
                    .append(name).append("_out");
            for (String p : extraParamDecls) {
                e.append(", ").append(p);
            }
            e.append(")\n{\n");
            e.append("  .reg .pred %pg;\n  .reg .b32 %tix, %ntx, %ctx, %gid, %t32;\n  .reg .b16 %t16x;\n");
            e.append("  .reg .b64 %in, %out, %t64, %tlo, %thi;\n");
            e.append(decl);
            e.append("  mov.u32 %tix, %tid.x;\n  mov.u32 %ntx, %ntid.x;\n  mov.u32 %ctx, %ctaid.x;\n");
            e.append("  mad.lo.u32 %gid, %ctx, %ntx, %tix;\n");
            e.append("  ld.param.u64 %in, [").append(name).append("_in];\n  ld.param.u64 %out, [").append(name)
                    .append("_out];\n");
            e.append("  cvta.to.global.u64 %in, %in;\n  cvta.to.global.u64 %out, %out;\n");
            e.append("  mul.wide.u32 %t64, %gid, ").append(inStride).append(";\n  add.u64 %in, %in, %t64;\n");
            e.append("  mul.wide.u32 %t64, %gid, ").append(outStride).append(";\n  add.u64 %out, %out, %t64;\n");
            e.append(code);
            e.append("  ret;\n}\n");
            List<Param> params = new ArrayList<>();
            params.add(new Buffer(in));
            params.add(new Buffer(out));
            params.addAll(extraParams);
            return new Kernel(name, globals.toString(), e.toString(), grid, block, params, 1, outStride,
                    List.copyOf(fields));
        }

        static String bytes(byte[] b) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < b.length; i++) {
                sb.append(i == 0 ? "" : ",").append(b[i] & 0xff);
            }
            return sb.toString();
        }
    }
}
